import { useState } from 'react';

import { NumberField, SelectField } from '@/components';
import type { RecommendConstraints, RecommendRequest, Workload } from '@/lib/api-types';
import type { FieldErrors } from '@/lib/field-errors';

type RecommendFormProps = {
  workloads: Workload[];
  /** Vendors of the catalog, for the filter. */
  vendors: string[];
  onSubmit: (request: RecommendRequest) => void;
  pending?: boolean;
  /** The API's messages scoped to the request body. */
  errors: FieldErrors;
};

const KINDS = [
  { value: 'hdd', label: 'Hard disks' },
  { value: 'ssd', label: 'SSDs' },
  { value: 'nvme', label: 'NVMe' },
];

/** Filters and targets for a recommendation over the whole catalog. */
export function RecommendForm({ workloads, vendors, onSubmit, pending, errors }: RecommendFormProps) {
  const [vendor, setVendor] = useState('');
  const [kind, setKind] = useState('');
  const [maxCost, setMaxCost] = useState<number | null>(null);
  const [maxRu, setMaxRu] = useState<number | null>(null);
  const [maxPower, setMaxPower] = useState<number | null>(null);
  const [latency, setLatency] = useState<number | null>(null);
  const [onePer, setOnePer] = useState<RecommendRequest['one_per']>('scheme');
  const [limit, setLimit] = useState(10);
  const c = errors.scope('constraints');

  function submit() {
    const constraints: RecommendConstraints = {
      vendors: vendor ? [vendor] : null,
      drive_kinds: kind ? [kind as 'hdd' | 'ssd' | 'nvme'] : null,
      max_cost_usd: maxCost,
      max_rack_units: maxRu,
      max_power_w: maxPower,
      read_latency_target_ms: latency,
      include_custom_builds: false,
    };
    onSubmit({ workloads, constraints, limit, one_per: onePer, pareto_limit: 30, calibration_margin: 'pessimistic' });
  }

  return (
    <form
      className="card recommend-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h2>Targets and filters</h2>
      <div className="grid grid-4">
        <SelectField
          label="Vendor"
          value={vendor}
          onChange={setVendor}
          options={[{ value: '', label: 'Any vendor' }, ...vendors.map((v) => ({ value: v, label: v }))]}
          errors={c.at('vendors')}
        />
        <SelectField label="Drive kind" value={kind} onChange={setKind} options={[{ value: '', label: 'Any kind' }, ...KINDS]} errors={c.at('drive_kinds')} />
        <NumberField label="List cost at most" unit="USD" value={maxCost} optional min={0} onChange={setMaxCost} errors={c.at('max_cost_usd')} />
        <NumberField label="Rack space at most" unit="U" value={maxRu} optional min={0} onChange={setMaxRu} errors={c.at('max_rack_units')} />
        <NumberField label="Power at most" unit="W" value={maxPower} optional min={0} onChange={setMaxPower} errors={c.at('max_power_w')} />
        <NumberField
          label="Read latency at most"
          unit="ms"
          value={latency}
          optional
          min={0}
          hint="Every phase; empty: the phases' own targets"
          onChange={setLatency}
          errors={c.at('read_latency_target_ms')}
        />
        <SelectField
          label="Keep the best"
          value={onePer}
          onChange={(v) => setOnePer(v as RecommendRequest['one_per'])}
          options={[
            { value: 'scheme', label: 'per array, drive and RAID scheme' },
            { value: 'family', label: 'per family (group width, cache)' },
            { value: 'array', label: 'per array' },
          ]}
          errors={errors.at('one_per')}
        />
        <NumberField label="How many" value={limit} min={1} max={50} step={1} onChange={(v) => setLimit(Math.round(v ?? 10))} errors={errors.at('limit')} />
      </div>
      <div className="row-actions">
        <button type="submit" className="primary" disabled={pending || workloads.length === 0}>
          {pending ? 'Searching the catalog…' : 'Recommend'}
        </button>
      </div>
    </form>
  );
}
