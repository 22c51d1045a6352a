import { Suspense, useState } from 'react';
import { Link } from 'react-router';

import { ErrorState, Loading, SelectField } from '@/components';
import {
  BuildingBlocksCalculator,
  DegradedAnalysis,
  GrowthAnalysis,
  MaxWorkloadAnalysis,
  MODE_OPTIONS,
  RaidConversionCalculator,
  RangesAnalysis,
  SensitivityAnalysis,
  type SchemeChoice,
} from '@/features/analyses';
import { useDrives, useHardwareChoices, useRaidSchemes } from '@/features/configurations';
import { SaveShare, type ReportInput } from '@/features/reports';
import { isFullConfiguration, type ConfigurationInput, type DegradedMode, type RaidScheme } from '@/lib/api-types';
import { recentReports } from '@/stores/recent-reports';
import { useWorkflow } from '@/stores/workflow';

import { href } from '../routes';

const SECTIONS = [
  ['growth', 'Growth'],
  ['sensitivity', 'Sensitivity'],
  ['max-workload', 'Maximum workload'],
  ['ranges', 'Ranges'],
  ['degraded', 'Degraded modes'],
  ['raid-conversion', 'RAID conversion'],
  ['building-blocks', 'Building blocks'],
] as const;

function nameOf(c: ConfigurationInput): string {
  return isFullConfiguration(c) ? c.name : (c.name ?? c.array_id);
}

function schemeOf(c: ConfigurationInput): SchemeChoice | undefined {
  if (isFullConfiguration(c)) {
    const raid = c.pools[0]?.raid;
    return raid ? { scheme: raid.scheme, groupWidth: raid.group_width, fullStripeShare: raid.full_stripe_share ?? null } : undefined;
  }
  return c.raid_scheme && c.group_width ? { scheme: c.raid_scheme as RaidScheme, groupWidth: c.group_width } : undefined;
}

/** The other scheme to convert to: RAID 10 from parity schemes, RAID 6 from mirrors. */
function otherScheme(from: SchemeChoice | undefined): SchemeChoice {
  return from && ['raid10', 'raid1', 'zfs-mirror'].includes(from.scheme) ? { scheme: 'raid6', groupWidth: 8 } : { scheme: 'raid10', groupWidth: 8 };
}

/** Save & share under an analysis's results: the request it ran, as a report of its kind. */
function saver(name: string) {
  return function Save(input: Omit<ReportInput, 'name'>) {
    return <SaveShare key={JSON.stringify(input)} input={input} defaultName={name.slice(0, 200)} reportHref={href.report} onSaved={recentReports.remember} />;
  };
}

export default function AnalysesPage() {
  const resolved = useWorkflow((s) => s.resolved);
  const [mode, setMode] = useState<DegradedMode>('none');
  const schemes = useRaidSchemes();
  const choices = useHardwareChoices();
  const drives = useDrives();
  const from = resolved ? schemeOf(resolved.configuration) : undefined;
  const subject = resolved ? `${resolved.workloads.map((w) => w.name).join(' + ')} on ${nameOf(resolved.configuration)}` : '';

  return (
    <article className="page analyses-page">
      <h1>Analyses</h1>
      {resolved ? (
        <p className="lead">
          For <strong>{resolved.workloads.map((w) => w.name).join(', ')}</strong> on <strong>{nameOf(resolved.configuration)}</strong>, as
          last {resolved.kind === 'size' ? 'sized' : 'evaluated'} on <Link to={href.size()}>Size</Link>: how it ages, what it is
          sensitive to, how far it stretches and how it fares degraded.
        </p>
      ) : (
        <p className="empty">
          Growth, sensitivity, maximum workload, ranges and degraded modes need a configuration:{' '}
          <Link to={href.size()}>size or evaluate one</Link> first. The RAID conversion and building-block calculators below work on
          their own.
        </p>
      )}

      <nav className="section-nav" aria-label="Analyses">
        <ul>
          {SECTIONS.filter(([id]) => resolved || id === 'raid-conversion' || id === 'building-blocks').map(([id, label]) => (
            <li key={id}>
              <a href={`#${id}`}>{label}</a>
            </li>
          ))}
        </ul>
      </nav>

      {resolved ? (
        <>
          <div className="analyses-mode">
            <SelectField
              label="Evaluate the analyses with"
              className="inline-field"
              value={mode}
              onChange={(v) => setMode(v as DegradedMode)}
              options={MODE_OPTIONS}
              hint="Growth, sensitivity, maximum workload and ranges"
            />
          </div>
          <Suspense fallback={<Loading label="Loading the growth chart…" />}>
            <GrowthAnalysis
              workloads={resolved.workloads}
              configuration={resolved.configuration}
              degraded={mode}
              renderSave={(inputs) => saver(`Growth: ${subject}`)({ kind: 'growth', inputs })}
            />
          </Suspense>
          <Suspense fallback={<Loading label="Loading the tornado chart…" />}>
            <SensitivityAnalysis
              workloads={resolved.workloads}
              configuration={resolved.configuration}
              degraded={mode}
              renderSave={(inputs) => saver(`Sensitivity: ${subject}`)({ kind: 'sensitivity', inputs })}
            />
          </Suspense>
          <MaxWorkloadAnalysis workloads={resolved.workloads} configuration={resolved.configuration} degraded={mode} />
          <Suspense fallback={<Loading label="Loading the ranges…" />}>
            <RangesAnalysis
              workloads={resolved.workloads}
              configuration={resolved.configuration}
              degraded={mode}
              tracesHref={href.traces()}
              renderSave={(inputs) => saver(`Ranges: ${subject}`)({ kind: 'ranges', inputs })}
            />
          </Suspense>
          <DegradedAnalysis
            workloads={resolved.workloads}
            configuration={resolved.configuration}
            renderSave={(inputs) => saver(`Degraded modes: ${subject}`)({ kind: 'degraded', inputs })}
          />
        </>
      ) : null}

      {schemes.isError ? <ErrorState title="The RAID schemes could not be loaded" error={schemes.error} onRetry={() => void schemes.refetch()} /> : null}
      {schemes.data ? (
        <RaidConversionCalculator schemes={schemes.data.raid_schemes} from={from} to={otherScheme(from)} />
      ) : schemes.isPending ? (
        <Loading label="Loading the RAID schemes…" />
      ) : null}

      {choices.catalog.isError ? (
        <ErrorState title="The array catalog could not be loaded" error={choices.catalog.error} onRetry={() => void choices.catalog.refetch()} />
      ) : null}
      {choices.catalog.data ? (
        <BuildingBlocksCalculator
          arrays={choices.arrays}
          drives={[...(drives.data?.drives ?? []), ...choices.custom.drives]}
          initialArrayId={resolved && isFullConfiguration(resolved.configuration) ? resolved.configuration.array_id : (resolved?.configuration as { array_id?: string } | undefined)?.array_id}
          renderSave={(inputs) => saver('Building blocks')({ kind: 'building-blocks', inputs })}
        />
      ) : choices.catalog.isPending ? (
        <Loading label="Loading the arrays…" />
      ) : null}
    </article>
  );
}
