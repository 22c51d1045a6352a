import { useId, useMemo, useState } from 'react';

import { Figure, formatNumber, NumberField, SelectField, Stat } from '@/components';
import { ApiError } from '@/lib/api-error';
import type { RaidConversionRequest, RaidLayout, RaidScheme, RaidSchemeRecord } from '@/lib/api-types';
import { fieldErrors, type FieldErrors } from '@/lib/field-errors';
import { useDebouncedValue } from '@/lib/use-debounced-value';

import { useRaidConversion } from '../api/convert-raid';
import { show, signed } from '../lib/format';
import { QueryState } from './query-state';

/** A RAID layout to start from; `fullStripeShare` is the configuration's (WAFL layout age), so the
 * conversion uses the same write cost as sizing did. */
export type SchemeChoice = { scheme: RaidScheme; groupWidth: number; fullStripeShare?: number | null };

type RaidConversionCalculatorProps = {
  /** The RAID schemes the engine models (names, widths). */
  schemes: RaidSchemeRecord[];
  /** Start from this scheme (e.g. the configuration's), converting to `to`. */
  from?: SchemeChoice;
  to?: SchemeChoice;
};

type Side = { scheme: RaidScheme; width: number; parity: number; copies: number; drives: number | null; fullStripeShare: number | null };

function layout(side: Side): RaidLayout {
  const base: RaidLayout = { scheme: side.scheme, group_width: side.width, copies: 2, scatter: 0, sector_kib: 4, distributed: false, full_stripe_share: side.fullStripeShare };
  if (side.scheme === 'erasure') return { ...base, ec_parity: side.parity, ec_data: Math.max(1, side.width - side.parity) };
  if (side.scheme === 'replica') return { ...base, copies: side.copies };
  return base;
}

function SideFields({
  title,
  side,
  onChange,
  schemes,
  errors,
  drivesErrors,
}: {
  title: string;
  side: Side;
  onChange: (s: Side) => void;
  schemes: RaidSchemeRecord[];
  errors: FieldErrors;
  drivesErrors: string[];
}) {
  const record = schemes.find((s) => s.scheme === side.scheme);
  return (
    <fieldset className="plain conversion-side">
      <legend>{title}</legend>
      <div className="grid grid-2">
        <SelectField
          className="span-all"
          label={`${title}: RAID scheme`}
          value={side.scheme}
          options={schemes.map((s) => ({ value: s.scheme, label: s.name }))}
          errors={errors.here()}
          onChange={(scheme) => {
            const r = schemes.find((s) => s.scheme === scheme);
            onChange({ ...side, scheme: scheme as RaidScheme, width: r?.typical_width ?? side.width, parity: r?.parity_drives || 2, fullStripeShare: null });
          }}
        />
        <NumberField
          label={`${title}: group width`}
          unit="drives"
          value={side.width}
          min={record?.min_width}
          max={record?.max_width}
          step={1}
          hint={record ? `${record.min_width}–${record.max_width} drives` : undefined}
          errors={errors.at('group_width')}
          onChange={(v) => onChange({ ...side, width: Math.round(v ?? side.width) })}
        />
        {side.scheme === 'erasure' ? (
          <NumberField
            label={`${title}: parity per stripe`}
            value={side.parity}
            min={1}
            max={16}
            step={1}
            errors={[...errors.at('ec_parity'), ...errors.at('ec_data')]}
            onChange={(v) => onChange({ ...side, parity: Math.round(v ?? 2) })}
          />
        ) : null}
        {side.scheme === 'replica' ? (
          <NumberField
            label={`${title}: copies`}
            value={side.copies}
            min={1}
            max={6}
            step={1}
            errors={errors.at('copies')}
            onChange={(v) => onChange({ ...side, copies: Math.round(v ?? 2) })}
          />
        ) : null}
        <NumberField
          label={`${title}: drives`}
          value={side.drives}
          optional
          min={1}
          step={1}
          hint="Empty: the same drives on both sides"
          errors={drivesErrors}
          onChange={(v) => onChange({ ...side, drives: v === null ? null : Math.round(v) })}
        />
      </div>
    </fieldset>
  );
}

function initialSide(c: SchemeChoice | undefined, fallback: SchemeChoice): Side {
  const x = c ?? fallback;
  return { scheme: x.scheme, width: x.groupWidth, parity: 2, copies: 2, drives: null, fullStripeShare: x.fullStripeShare ?? null };
}

/**
 * A benchmark measured under one RAID scheme (drives saturated) converted to another: the same
 * back-end I/Os divided by the other scheme's costs, with the rough shortcuts people use beside it.
 */
export function RaidConversionCalculator({ schemes, from, to }: RaidConversionCalculatorProps) {
  const [measured, setMeasured] = useState(20000);
  const [readPct, setReadPct] = useState(70);
  const [hitPct, setHitPct] = useState(0);
  const [sizeKib, setSizeKib] = useState(4);
  const [fillPct, setFillPct] = useState(100);
  const [a, setA] = useState<Side>(() => initialSide(from, { scheme: 'raid5', groupWidth: 8 }));
  const [b, setB] = useState<Side>(() => initialSide(to, { scheme: 'raid10', groupWidth: 8 }));
  const settled = useDebouncedValue({ measured, readPct, hitPct, sizeKib, fillPct, a, b }, 300);
  const body: RaidConversionRequest = useMemo(
    () => ({
      measured_iops: settled.measured,
      read_pct: settled.readPct,
      read_hit_pct: settled.hitPct,
      from_raid: layout(settled.a),
      to_raid: layout(settled.b),
      // by default the classic 4 KiB write on a full pool; a sizing's write penalty states the fill it used
      size_kib: settled.sizeKib,
      fill_pct: settled.fillPct,
      from_drives: settled.a.drives,
      to_drives: settled.b.drives,
    }),
    [settled],
  );
  const conversion = useRaidConversion(body);
  const r = conversion.data;
  const headingId = useId();
  const errors = fieldErrors(conversion.error instanceof ApiError && conversion.error.isValidation ? conversion.error.fieldErrors : null);

  return (
    <section className="card analysis" aria-labelledby={headingId} id="raid-conversion" data-testid="raid-conversion">
      <div className="card-head">
        <h2 id={headingId}>RAID conversion</h2>
      </div>
      <p className="muted">
        A result measured with the drives saturated under one scheme, converted to another: the back-end I/Os stay, the cost per
        front-end I/O changes.
      </p>
      <div className="grid grid-3">
        <NumberField label="Measured" unit="IOPS" value={measured} min={0} errors={errors.at('measured_iops')} onChange={(v) => setMeasured(v ?? 0)} />
        <NumberField label="Reads" unit="%" value={readPct} min={0} max={100} errors={errors.at('read_pct')} onChange={(v) => setReadPct(v ?? 0)} />
        <NumberField
          label="Reads served by a cache"
          unit="%"
          value={hitPct}
          min={0}
          max={100}
          errors={errors.at('read_hit_pct')}
          onChange={(v) => setHitPct(v ?? 0)}
        />
        <NumberField label="Write size" unit="KiB" value={sizeKib} min={0} errors={errors.at('size_kib')} onChange={(v) => setSizeKib(v ?? 4)} />
        <NumberField
          label="Pool fill"
          unit="%"
          value={fillPct}
          min={0}
          max={100}
          hint="Write-anywhere layouts (RAID-DP, RAID-TEC) find fewer free stripes as the pool fills; a sizing's write penalty shows the fill it used."
          errors={errors.at('fill_pct')}
          onChange={(v) => setFillPct(v ?? 100)}
        />
      </div>
      <div className="conversion-sides">
        <SideFields title="From" side={a} onChange={setA} schemes={schemes} errors={errors.scope('from_raid')} drivesErrors={errors.at('from_drives')} />
        <SideFields title="To" side={b} onChange={setB} schemes={schemes} errors={errors.scope('to_raid')} drivesErrors={errors.at('to_drives')} />
      </div>
      <QueryState loading="Converting…" failed="The conversion failed" query={conversion} />
      {r ? (
        <div className={conversion.isFetching ? 'conversion-result is-updating' : 'conversion-result'} aria-live="polite">
          <p className="conversion-answer" data-testid="converted-iops">
            <Figure label="Converted IOPS" figure={r.converted_iops} /> under {r.to_raid.scheme}{' '}
            <span className="muted">
              (x {formatNumber(r.ratio)} of the {formatNumber(r.measured_iops)} IOPS measured under {r.from_raid.scheme})
            </span>
          </p>
          <dl className="stat-grid conversion-steps">
            <Stat label="Back-end I/Os measured">
              <Figure label="Back-end IOPS" figure={r.backend_iops} />
            </Stat>
            <Stat label={`Small write, ${r.from_raid.scheme}`}>
              <Figure label={`Small-write cost of ${r.from_raid.scheme}`} figure={r.write_cost_from} />
            </Stat>
            <Stat label={`Small write, ${r.to_raid.scheme}`}>
              <Figure label={`Small-write cost of ${r.to_raid.scheme}`} figure={r.write_cost_to} />
            </Stat>
          </dl>
          <p className="muted">{r.text}</p>
          <div className="table-scroll">
            <table className="data-table shortcut-table">
              <caption>The shortcuts, against the back-end arithmetic</caption>
              <thead>
                <tr>
                  <th scope="col">Shortcut</th>
                  <th scope="col">IOPS</th>
                  <th scope="col">Off by</th>
                  <th scope="col">How</th>
                </tr>
              </thead>
              <tbody>
                <tr className="row-reference">
                  <th scope="row">Back-end arithmetic</th>
                  <td>{show(r.converted_iops.value)}</td>
                  <td>—</td>
                  <td className="small">
                    <code>{r.converted_iops.text}</code>
                  </td>
                </tr>
                {r.shortcuts.map((s) => (
                  <tr key={s.name}>
                    <th scope="row">{s.name}</th>
                    <td>{show(s.iops)}</td>
                    <td className={Math.abs(s.error_pct) > 10 ? 'delta-worse' : undefined}>{signed(s.error_pct, '%')}</td>
                    <td className="small">
                      <code>{s.text}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
    </section>
  );
}
