import { useId, type ReactNode } from 'react';

import { ErrorState, formatNumber, NumberField, SelectField } from '@/components';
import type { ArrayModel, ControllerSpec, DriveSpec } from '@/lib/api-types';
import type { FieldErrors } from '@/lib/field-errors';
import type { ConfigDraft } from '@/stores/workflow';

import { usePorts } from '../api/get-ports';
import { useRaidSchemes } from '../api/get-raid-schemes';
import { useArrayDetail, useHardwareChoices } from '../hooks/use-hardware-choices';
import { allowedWidths, draftForArray, flashCacheSizes, raidOption } from '../lib/draft';

type ConfigurationBuilderProps = {
  draft: ConfigDraft;
  onChange: (draft: ConfigDraft) => void;
  /** The API's messages scoped to `configuration` (catalog-reference fields, or the whole reference). */
  errors: FieldErrors;
  /** Messages for `flash_cache_options_gb`. */
  cacheOptionErrors?: string[];
  /** The card's heading. */
  heading?: string;
  /** Extra controls beside the heading (e.g. "Remove"). */
  actions?: ReactNode;
};

const REFERENCE_FIELDS = [
  'array_id',
  'drive_id',
  'controller_id',
  'raid_scheme',
  'group_width',
  'drive_count',
  'flash_cache_gb',
  'port_option',
  'nodes',
  'drive_fraction_used',
  'planned_fill_pct',
  'prefetch_kib',
];

function driveLabel(d: DriveSpec, custom: boolean): string {
  const speed = d.kind === 'hdd' && d.rpm ? `${Math.round(d.rpm / 1000)}K rpm` : d.kind === 'nvme' ? 'NVMe' : d.kind.toUpperCase();
  const iface = d.interface && d.interface.toLowerCase() !== speed.toLowerCase() ? d.interface : '';
  return `${d.name} · ${iface} ${speed}${custom ? ' · custom' : ''}`.replace(/\s+/g, ' ');
}

function arrayFacts(a: ArrayModel, controller: ControllerSpec = a.controller): string {
  const c = controller;
  return `${c.count} x ${c.model} (${c.ha_mode}), ${formatNumber(c.dram_cache_gb ?? 0)} GB DRAM each · up to ${formatNumber(a.max_drives)} drives · ${a.era}`;
}

/**
 * vendor -> array -> drive -> RAID scheme and group width -> flash cache -> ports -> headroom
 * targets, and the drive count: "size it for me" (empty) or a fixed count.
 */
export function ConfigurationBuilder({ draft, onChange, errors, cacheOptionErrors = [], heading = 'Configuration', actions }: ConfigurationBuilderProps) {
  const choices = useHardwareChoices();
  const arrays = choices.catalog;
  const detail = useArrayDetail(draft.arrayId);
  const schemes = useRaidSchemes();
  const ports = usePorts();
  const headingId = useId();
  const set = (patch: Partial<ConfigDraft>) => onChange({ ...draft, ...patch });

  const all = choices.arrays;
  const controllers = choices.custom.controllers;
  const vendors = [...new Set(all.map((a) => a.vendor))].sort((a, b) => a.localeCompare(b));
  const models = all.filter((a) => a.vendor === draft.vendor).sort((a, b) => a.era - b.era || a.model.localeCompare(b.model));
  const array = detail.array ?? all.find((a) => a.id === draft.arrayId);
  const drives = detail.drives;
  const option = array ? raidOption(array, draft.raidScheme) : undefined;
  const widths = option ? allowedWidths(option, detail.groupWidths) : [];
  const flashSizes = array ? flashCacheSizes(array) : [];
  const nodeChoices = array ? detail.nodeChoices : [];
  const schemeName = (s: string) => schemes.data?.raid_schemes.find((r) => r.scheme === s)?.name ?? s;
  const portName = (t: string) => ports.data?.ports.find((p) => p.type === t)?.name ?? t;
  const sizing = draft.driveCount === null;
  const other = errors.entries().filter(([k]) => k !== '' && !REFERENCE_FIELDS.includes(k.split('.')[0]!));
  const schemeRecord = schemes.data?.raid_schemes.find((r) => r.scheme === draft.raidScheme);

  return (
    <section className="card builder" aria-labelledby={headingId}>
      <div className="card-head">
        <h2 id={headingId}>{heading}</h2>
        {actions}
      </div>
      {detail.isError ? <ErrorState title="The array's drives could not be loaded" error={detail.error} /> : null}
      {arrays.isError ? <ErrorState title="The array catalog could not be loaded" error={arrays.error} onRetry={() => void arrays.refetch()} /> : null}
      {errors.here().length || other.length ? (
        <div className="field-error-block" role="alert">
          {errors.here().map((m) => (
            <p key={m} className="field-error">
              {m}
            </p>
          ))}
          {other.map(([k, ms]) => (
            <p key={k} className="field-error">
              {k}: {ms.join(' ')}
            </p>
          ))}
        </div>
      ) : null}

      <div className="grid grid-3">
        <SelectField
          label="Vendor"
          value={draft.vendor}
          placeholder={arrays.isPending ? 'Loading…' : 'Choose a vendor…'}
          disabled={!arrays.data}
          options={vendors.map((v) => ({ value: v, label: v }))}
          onChange={(vendor) => {
            const first = all.filter((a) => a.vendor === vendor).sort((a, b) => a.era - b.era)[0];
            onChange(first ? draftForArray(first, { ...draft, vendor }) : { ...draft, vendor, arrayId: '' });
          }}
        />
        <SelectField
          label="Array model"
          value={draft.arrayId}
          placeholder="Choose an array…"
          disabled={!draft.vendor}
          options={models.map((a) => ({ value: a.id, label: `${a.model} (${a.era})${choices.isCustomArray(a.id) ? ' · custom' : ''}` }))}
          errors={errors.at('array_id')}
          onChange={(id) => {
            const a = all.find((x) => x.id === id);
            if (a) onChange(draftForArray(a, draft));
          }}
        />
        <SelectField
          label="Drive"
          value={draft.driveId}
          placeholder={detail.isFetching && !drives.length ? 'Loading drives…' : 'Choose a drive…'}
          disabled={!drives.length}
          options={drives.map((d) => ({ value: d.id, label: driveLabel(d, choices.custom.drives.some((c) => c.id === d.id)) }))}
          errors={errors.at('drive_id')}
          onChange={(driveId) => set({ driveId })}
        />
        <SelectField
          label="RAID scheme"
          value={draft.raidScheme}
          disabled={!array}
          placeholder="Choose a scheme…"
          options={(array?.raid ?? []).map((r) => ({ value: r.scheme, label: schemeName(r.scheme) }))}
          errors={errors.at('raid_scheme')}
          hint={schemeRecord ? `${schemeRecord.notes} The write penalty your workload pays on it is in the results.` : undefined}
          onChange={(raidScheme) => set({ raidScheme, groupWidth: null })}
        />
        <SelectField
          label="RAID group width [drives]"
          value={String(draft.groupWidth ?? option?.default_width ?? '')}
          disabled={!option}
          options={widths.map((w) => ({ value: String(w), label: w === option?.default_width ? `${w} (default)` : String(w) }))}
          errors={errors.at('group_width')}
          onChange={(w) => set({ groupWidth: Number(w) === option?.default_width ? null : Number(w) })}
        />
        <SelectField
          label="Flash cache [GB, whole system]"
          value={String(draft.flashCacheGb)}
          disabled={!array || flashSizes.length === 0}
          options={[{ value: '0', label: 'None' }, ...flashSizes.map((s) => ({ value: String(s), label: `${formatNumber(s)} GB` }))]}
          errors={errors.at('flash_cache_gb')}
          hint={array && flashSizes.length === 0 ? 'This array sells no flash cache' : array?.flash_cache?.map((f) => f.name).join('; ')}
          onChange={(v) => set({ flashCacheGb: Number(v) })}
        />
        <NumberField
          label="Short-stroking: share of each drive used"
          unit="%"
          value={draft.driveFractionUsed == null ? null : draft.driveFractionUsed * 100}
          optional
          min={0}
          max={100}
          placeholder="100 (full stroke)"
          hint="Using only the outer part of each drive shortens seeks and divides usable capacity by the same share; sizing names the drives it saves."
          errors={errors.at('drive_fraction_used')}
          onChange={(v) => set({ driveFractionUsed: v == null ? null : v / 100 })}
        />
        <NumberField
          label="Planned fill of the pool"
          unit="%"
          value={draft.plannedFillPct ?? null}
          optional
          min={0}
          max={100}
          placeholder="the fill target"
          hint="The fill the pool will run at. Below the fill target it shortens seeks and leaves whole free stripes for write-anywhere layouts: an optimism, named with the drives it saves."
          errors={errors.at('planned_fill_pct')}
          onChange={(v) => set({ plannedFillPct: v })}
        />
        <NumberField
          label="Array prefetch per stream"
          unit="KiB"
          value={draft.prefetchKib ?? null}
          optional
          min={4}
          max={65536}
          placeholder="the catalog's"
          hint="What the array reads ahead of each sequential stream it detects: one request at the drives per prefetch, so a larger prefetch means fewer seeks between interleaved streams."
          errors={errors.at('prefetch_kib')}
          onChange={(v) => set({ prefetchKib: v })}
        />
        <SelectField
          label="Front-end ports"
          value={draft.portOption || array?.default_ports || ''}
          disabled={!array}
          options={(array?.port_options ?? []).map((p) => ({
            value: p.name,
            label: `${p.name}: ${p.ports.map((g) => `${g.count} x ${portName(g.type)}`).join(' + ')}`,
          }))}
          errors={errors.at('port_option')}
          onChange={(portOption) => set({ portOption: portOption === array?.default_ports ? '' : portOption })}
        />
        {array && nodeChoices.length ? (
          <SelectField
            label={`Nodes [${array.scale_out?.unit ?? 'node'}s]`}
            value={draft.nodes === null ? '' : String(draft.nodes)}
            options={[
              { value: '', label: 'Base system, more as the drives need' },
              ...nodeChoices.map((n) => ({ value: String(n.nodes), label: n.label })),
            ]}
            errors={errors.at('nodes')}
            hint="Controllers, ports, rack units, power and price scale with the nodes"
            onChange={(v) => set({ nodes: v === '' ? null : Number(v) })}
          />
        ) : null}
        <SelectField
          label="Controllers"
          value={draft.controllerId}
          disabled={!array}
          options={[
            { value: '', label: array ? `The array's own (${array.controller.model})` : "The array's own" },
            ...controllers.map((c) => ({ value: c.id, label: `Custom: ${c.spec.count} x ${c.name}` })),
          ]}
          errors={errors.at('controller_id')}
          hint={controllers.length ? undefined : 'Add custom controllers on the Hardware page'}
          onChange={(controllerId) => set({ controllerId })}
        />
      </div>
      {array ? <p className="muted array-facts">{arrayFacts(array, controllers.find((c) => c.id === draft.controllerId)?.spec)}</p> : null}

      <fieldset className="plain drive-count">
        <legend>Drive count</legend>
        <div className="radio-row">
          <label>
            <input type="radio" name={`${headingId}-drive-count-mode`} checked={sizing} onChange={() => set({ driveCount: null })} /> Size it for me
            (the fewest drives that meet every window)
          </label>
          <label>
            <input
              type="radio"
              name={`${headingId}-drive-count-mode`}
              checked={!sizing}
              onChange={() => set({ driveCount: array?.default_drive_count ?? 24 })}
            />{' '}
            A fixed drive count
          </label>
        </div>
        {!sizing ? (
          <NumberField
            label="Drives (excluding spares)"
            value={draft.driveCount}
            min={1}
            step={1}
            onChange={(v) => set({ driveCount: v === null ? null : Math.round(v) })}
            errors={errors.at('drive_count')}
            className="narrow"
          />
        ) : flashSizes.length ? (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={draft.cacheOptionsGb.length > 0}
              onChange={(e) => set({ cacheOptionsGb: e.target.checked ? [0, ...flashSizes] : [] })}
            />{' '}
            Also size with every flash-cache option and keep the cheapest (drives vs flash cache)
          </label>
        ) : null}
        {cacheOptionErrors.length ? <p className="field-error">{cacheOptionErrors.join(' ')}</p> : null}
      </fieldset>

      <details className="headroom">
        <summary>Headroom targets</summary>
        <div className="grid grid-5">
          <NumberField
            label="Controllers at most"
            unit="%"
            value={draft.headroom.controller_max_pct ?? null}
            optional
            placeholder="50 for a pair, else 70"
            min={0}
            max={100}
            onChange={(v) => set({ headroom: { ...draft.headroom, controller_max_pct: v } })}
            errors={errors.at('headroom.controller_max_pct')}
          />
          <NumberField
            label="After a failover at most"
            unit="%"
            value={draft.headroom.failover_max_pct}
            min={0}
            max={100}
            onChange={(v) => set({ headroom: { ...draft.headroom, failover_max_pct: v ?? 100 } })}
            errors={errors.at('headroom.failover_max_pct')}
          />
          <NumberField
            label="Drives at most"
            unit="%"
            value={draft.headroom.drive_max_pct}
            min={0}
            max={100}
            onChange={(v) => set({ headroom: { ...draft.headroom, drive_max_pct: v ?? 70 } })}
            errors={errors.at('headroom.drive_max_pct')}
          />
          <NumberField
            label="Ports at most"
            unit="%"
            value={draft.headroom.port_max_pct}
            min={0}
            max={100}
            onChange={(v) => set({ headroom: { ...draft.headroom, port_max_pct: v ?? 70 } })}
            errors={errors.at('headroom.port_max_pct')}
          />
          <NumberField
            label="Capacity filled at most"
            unit="%"
            value={draft.headroom.capacity_max_fill_pct}
            min={0}
            max={100}
            onChange={(v) => set({ headroom: { ...draft.headroom, capacity_max_fill_pct: v ?? 100 } })}
            errors={errors.at('headroom.capacity_max_fill_pct')}
          />
        </div>
      </details>
    </section>
  );
}
