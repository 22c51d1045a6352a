import { useId, useState, type ReactNode } from 'react';

import { CalibrationNote, Figure, formatNumber, NumberField, SelectField, Stat, TextField, type SelectGroup } from '@/components';
import { ApiError } from '@/lib/api-error';
import type { ArrayModel, BlockKind, BuildingBlock, BuildingBlocksRequest, BuildingBlocksResult, BlockTarget, DriveKind, DriveSpec, RaidScheme } from '@/lib/api-types';
import { fieldErrors } from '@/lib/field-errors';

import { useBuildingBlocks } from '../api/size-building-blocks';
import { show } from '../lib/format';
import { QueryState } from './query-state';

type BuildingBlocksCalculatorProps = {
  /** Arrays to build blocks from (catalog and custom). */
  arrays: ArrayModel[];
  /** Drive names for the arrays' drive ids. */
  drives?: DriveSpec[];
  /** Preselected array (e.g. the configuration's). */
  initialArrayId?: string | null;
  /** Save & share for the request behind the results shown (the page supplies it). */
  renderSave?: (inputs: BuildingBlocksRequest) => ReactNode;
};

type Source = 'catalog' | 'own';

const EMPTY_TARGET: BlockTarget = { read_gb_s: 0, write_gb_s: 0, iops: 0, usable_pb: 0, raw_pb: 0 };

const OWN_BLOCK: BuildingBlock = {
  name: 'My block',
  kind: 'controller-shelf',
  rack_units: 4,
  drives: 24,
  drive_capacity_gb: 3840,
  drive_kind: null,
  usable_fraction: 0.8,
  read_gb_s: 10,
  write_gb_s: 5,
  iops: null,
  power_w: null,
  min_blocks: 1,
  source: 'user-defined',
};

const KINDS: { value: BlockKind; label: string }[] = [
  { value: 'controller-shelf', label: 'Controllers with shelves' },
  { value: 'scale-out-node', label: 'Scale-out node' },
  { value: 'nas-node', label: 'NAS node' },
];

const DRIVE_KINDS: { value: DriveKind | ''; label: string }[] = [
  { value: '', label: 'Not stated (the widest error band)' },
  { value: 'hdd', label: 'hdd' },
  { value: 'ssd', label: 'ssd' },
  { value: 'nvme', label: 'nvme' },
];

function arrayGroups(arrays: ArrayModel[]): SelectGroup[] {
  const vendors = [...new Set(arrays.map((a) => a.vendor))].sort((a, b) => a.localeCompare(b));
  return vendors.map((v) => ({
    label: v,
    options: arrays
      .filter((a) => a.vendor === v)
      .sort((a, b) => a.era - b.era || a.model.localeCompare(b.model))
      .map((a) => ({ value: a.id, label: `${a.model} (${a.era})` })),
  }));
}

/** How many blocks (controller + shelves, or nodes) a throughput or capacity target needs, and the racks, power and density. */
/** Blocks, racks, power and density of a building-block sizing (as computed or as a report saved it). */
export function BuildingBlocksView({ result: r }: { result: BuildingBlocksResult }) {
  return (
    <>
      <p className="verdict-overall ok">
        {r.sizing.blocks} block{r.sizing.blocks === 1 ? '' : 's'} in {r.sizing.racks} rack{r.sizing.racks === 1 ? '' : 's'} ({r.sizing.binding} binds)
      </p>
      <CalibrationNote result={r} />
      <dl className="stat-grid blocks-stats">
        <Stat label="Blocks">{r.sizing.blocks}</Stat>
        <Stat label="Racks">
          {r.sizing.racks} <span className="muted">({r.sizing.blocks_per_rack} blocks each)</span>
        </Stat>
        <Stat label="Rack units">{formatNumber(r.sizing.rack_units)} U</Stat>
        <Stat label="Power">{r.sizing.power_w === null ? 'unknown' : `${formatNumber(r.sizing.power_w / 1000)} kW`}</Stat>
        <Stat label="Reads">
          <Figure label="Read throughput of all blocks" figure={r.sizing.read_gb_s} />
        </Stat>
        <Stat label="Writes">
          <Figure label="Write throughput of all blocks" figure={r.sizing.write_gb_s} />
        </Stat>
        <Stat label="Per rack unit">
          <Figure label="Performance density" figure={r.sizing.gb_s_per_rack_unit} />
        </Stat>
        <Stat label="Per full rack">
          <Figure label="Reads of a full rack" figure={r.sizing.gb_s_per_rack} />
        </Stat>
        <Stat label="Power per rack">{show(r.sizing.power_kw_per_rack, 'kW', 'unknown')}</Stat>
        <Stat label="Capacity">
          {formatNumber(r.sizing.usable_pb)} PB <span className="muted">usable of {formatNumber(r.sizing.raw_pb)} raw</span>
        </Stat>
        <Stat label="Drives">{formatNumber(r.sizing.drives)}</Stat>
        {r.sizing.iops !== null ? (
          <Stat label="Random IOPS">{formatNumber(r.sizing.iops)}</Stat>
        ) : null}
      </dl>
      <div className="table-scroll">
        <table className="data-table">
          <caption>Blocks each requirement needs alone</caption>
          <thead>
            <tr>
              <th scope="col">Requirement</th>
              <th scope="col">Target</th>
              <th scope="col">Blocks</th>
            </tr>
          </thead>
          <tbody>
            {r.sizing.needs.map((n) => (
              <tr key={n.need} className={n.need === r.sizing.binding ? 'row-binding' : undefined}>
                <th scope="row">
                  {n.need}
                  {n.need === r.sizing.binding ? <span className="col-note">binds</span> : null}
                </th>
                <td>
                  {formatNumber(n.target)} {n.unit}
                </td>
                <td>
                  <Figure label={`Blocks for ${n.need}`} figure={n.blocks_formula} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted">
        One block: {r.sizing.block.name}, {formatNumber(r.sizing.block.rack_units)} U, {r.sizing.block.drives} drives
        {r.derived ? (
          <>
            {' '}
            · reads <Figure label="Reads of one block" figure={r.derived.read_gb_s} /> · writes{' '}
            <Figure label="Writes of one block" figure={r.derived.write_gb_s} />
            {r.derived.iops ? (
              <>
                {' '}
                · <Figure label="IOPS of one block" figure={r.derived.iops} />
              </>
            ) : null}
          </>
        ) : null}
        . {r.sizing.block.source}
      </p>
      <p className="muted">{r.sizing.text}</p>
    </>
  );
}

export function BuildingBlocksCalculator({ arrays, drives = [], initialArrayId, renderSave }: BuildingBlocksCalculatorProps) {
  const [target, setTarget] = useState<BlockTarget>({ ...EMPTY_TARGET, read_gb_s: 50 });
  const [source, setSource] = useState<Source>('catalog');
  const [arrayId, setArrayId] = useState(initialArrayId && arrays.some((a) => a.id === initialArrayId) ? initialArrayId : '');
  const [driveId, setDriveId] = useState('');
  const [scheme, setScheme] = useState('');
  const [drivesPerBlock, setDrivesPerBlock] = useState<number | null>(null);
  const [blockU, setBlockU] = useState<number | null>(null);
  const [own, setOwn] = useState<BuildingBlock>(OWN_BLOCK);
  const [rackU, setRackU] = useState(42);
  const [reservedU, setReservedU] = useState(2);
  const [efficiency, setEfficiency] = useState(0.95);
  const [request, setRequest] = useState<BuildingBlocksRequest | null>(null);
  const blocks = useBuildingBlocks(request);
  const r = blocks.data;
  const headingId = useId();
  const errors = fieldErrors(blocks.error instanceof ApiError && blocks.error.isValidation ? blocks.error.fieldErrors : null);
  const t = errors.scope('target');
  const c = errors.scope('catalog');
  const o = errors.scope('block');
  const array = arrays.find((a) => a.id === (arrayId || arrays[0]?.id));
  const driveName = (id: string) => drives.find((d) => d.id === id)?.name ?? id;
  const setTargetField = (k: keyof BlockTarget) => (v: number | null) => setTarget((x) => ({ ...x, [k]: v ?? 0 }));
  const setOwnField = <K extends keyof BuildingBlock>(k: K) => (v: BuildingBlock[K]) => setOwn((x) => ({ ...x, [k]: v }));

  function submit() {
    const base = { target, rack_units_per_rack: rackU, reserved_rack_units: reservedU, scaling_efficiency: efficiency };
    setRequest(
      source === 'catalog'
        ? {
            ...base,
            block: null,
            catalog: {
              array_id: array?.id ?? '',
              drive_id: driveId || null,
              raid_scheme: (scheme || null) as RaidScheme | null,
              drives: drivesPerBlock,
              rack_units: blockU,
            },
          }
        : { ...base, catalog: null, block: own },
    );
  }

  return (
    <section className="card analysis" aria-labelledby={headingId} id="building-blocks" data-testid="building-blocks">
      <div className="card-head">
        <h2 id={headingId}>Building blocks</h2>
      </div>
      <p className="muted">
        Scale by whole blocks: how many a throughput or capacity target needs, in how many racks and rack units, at what power and
        performance density.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <fieldset className="plain">
          <legend>Target (0 = no requirement)</legend>
          <div className="grid grid-5">
            <NumberField label="Reads" unit="GB/s" value={target.read_gb_s} min={0} errors={t.at('read_gb_s')} onChange={setTargetField('read_gb_s')} />
            <NumberField label="Writes" unit="GB/s" value={target.write_gb_s} min={0} errors={t.at('write_gb_s')} onChange={setTargetField('write_gb_s')} />
            <NumberField label="Random" unit="IOPS" value={target.iops} min={0} errors={t.at('iops')} onChange={setTargetField('iops')} />
            <NumberField label="Usable capacity" unit="PB" value={target.usable_pb} min={0} errors={t.at('usable_pb')} onChange={setTargetField('usable_pb')} />
            <NumberField label="Raw capacity" unit="PB" value={target.raw_pb} min={0} errors={t.at('raw_pb')} onChange={setTargetField('raw_pb')} />
          </div>
          {t.here().length ? <p className="field-error">{t.here().join(' ')}</p> : null}
        </fieldset>

        <fieldset className="plain">
          <legend>The block</legend>
          <div className="radio-row">
            <label>
              <input type="radio" name="block-source" checked={source === 'catalog'} onChange={() => setSource('catalog')} /> An array of the
              catalog
            </label>
            <label>
              <input type="radio" name="block-source" checked={source === 'own'} onChange={() => setSource('own')} /> Figures of my own
            </label>
          </div>
          {source === 'catalog' ? (
            <div className="grid grid-3">
              <SelectField
                label="Array"
                value={array?.id ?? ''}
                options={arrayGroups(arrays)}
                errors={[...c.at('array_id'), ...c.here()]}
                onChange={(id) => {
                  setArrayId(id);
                  setDriveId('');
                  setScheme('');
                }}
              />
              <SelectField
                label="Drive"
                value={driveId}
                options={[
                  { value: '', label: array?.default_drive ? `Default: ${driveName(array.default_drive)}` : 'The array’s default' },
                  ...(array?.drives ?? []).map((d) => ({ value: d, label: driveName(d) })),
                ]}
                errors={c.at('drive_id')}
                onChange={setDriveId}
              />
              <SelectField
                label="RAID scheme"
                value={scheme}
                options={[
                  { value: '', label: array ? `Default: ${array.default_raid}` : 'The array’s default' },
                  ...(array?.raid ?? []).map((x) => ({ value: x.scheme, label: x.scheme })),
                ]}
                errors={c.at('raid_scheme')}
                onChange={setScheme}
              />
              <NumberField
                label="Drives per block"
                value={drivesPerBlock}
                optional
                min={1}
                step={1}
                hint="Empty: a controller enclosure or one shelf"
                errors={c.at('drives')}
                onChange={(v) => setDrivesPerBlock(v === null ? null : Math.round(v))}
              />
              <NumberField label="Block height" unit="U" value={blockU} optional min={0} hint="Empty: from the packaging" errors={c.at('rack_units')} onChange={setBlockU} />
            </div>
          ) : (
            <div className="grid grid-5">
              <TextField label="Block name" value={own.name} onChange={setOwnField('name')} errors={o.at('name')} maxLength={120} />
              <SelectField label="Kind" value={own.kind ?? 'controller-shelf'} options={KINDS} onChange={(v) => setOwnField('kind')(v as BlockKind)} errors={o.at('kind')} />
              <NumberField label="Height" unit="U" value={own.rack_units} min={0} max={48} errors={o.at('rack_units')} onChange={(v) => setOwnField('rack_units')(v ?? 0)} />
              <NumberField label="Drives" value={own.drives} min={0} step={1} errors={o.at('drives')} onChange={(v) => setOwnField('drives')(Math.round(v ?? 0))} />
              <NumberField label="Drive capacity" unit="GB" value={own.drive_capacity_gb} min={0} errors={o.at('drive_capacity_gb')} onChange={(v) => setOwnField('drive_capacity_gb')(v ?? 0)} />
              <SelectField label="Drive kind" value={own.drive_kind ?? ''} options={DRIVE_KINDS} onChange={(v) => setOwnField('drive_kind')(v === '' ? null : (v as DriveKind))} errors={o.at('drive_kind')} />
              <NumberField label="Usable share of raw" value={own.usable_fraction ?? 0.8} min={0} max={1} errors={o.at('usable_fraction')} onChange={(v) => setOwnField('usable_fraction')(v ?? 0.8)} />
              <NumberField label="Reads per block" unit="GB/s" value={own.read_gb_s} min={0} errors={o.at('read_gb_s')} onChange={(v) => setOwnField('read_gb_s')(v ?? 0)} />
              <NumberField label="Writes per block" unit="GB/s" value={own.write_gb_s} min={0} errors={o.at('write_gb_s')} onChange={(v) => setOwnField('write_gb_s')(v ?? 0)} />
              <NumberField label="IOPS per block" value={own.iops ?? null} optional min={0} errors={o.at('iops')} onChange={setOwnField('iops')} />
              <NumberField label="Power per block" unit="W" value={own.power_w ?? null} optional min={0} errors={o.at('power_w')} onChange={setOwnField('power_w')} />
            </div>
          )}
          {o.here().length ? <p className="field-error">{o.here().join(' ')}</p> : null}
        </fieldset>

        <details className="options">
          <summary>Racks and scaling</summary>
          <div className="grid grid-3">
            <NumberField label="Rack height" unit="U" value={rackU} min={1} max={60} step={1} errors={errors.at('rack_units_per_rack')} onChange={(v) => setRackU(Math.round(v ?? 42))} />
            <NumberField label="Reserved per rack" unit="U" value={reservedU} min={0} max={59} step={1} hint="Switches, patch panels" errors={errors.at('reserved_rack_units')} onChange={(v) => setReservedU(Math.round(v ?? 0))} />
            <NumberField label="Scaling efficiency" value={efficiency} min={0} max={1} hint="Share of a block's standalone throughput each delivers" errors={errors.at('scaling_efficiency')} onChange={(v) => setEfficiency(v ?? 0.95)} />
          </div>
        </details>
        <div className="row-actions">
          <button type="submit" className="primary" disabled={blocks.isFetching || (source === 'catalog' && !array)}>
            {blocks.isFetching ? 'Sizing…' : 'Size the building blocks'}
          </button>
        </div>
      </form>
      <QueryState loading="Sizing the blocks…" failed="The building blocks could not be sized" query={blocks} />
      {r ? (
        <div className={blocks.isFetching ? 'is-updating' : undefined} data-testid="building-blocks-result">
          <BuildingBlocksView result={r} />
        </div>
      ) : null}
      {r && request && renderSave ? renderSave(request) : null}
    </section>
  );
}
