import { useState, type ReactNode } from 'react';

import { ErrorState, formatNumber, Loading } from '@/components';
import type { ArrayRecord, ControllerRecord, DriveRecord, HardwareRecord } from '@/lib/api-types';

import { useDeleteHardware } from '../api/delete-hardware';
import { useHardwareList } from '../api/list-hardware';
import { ownerTokenOf } from '../lib/owner-tokens';

function DeleteButton({ record }: { record: HardwareRecord }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteHardware();
  if (!confirming) {
    return (
      <button type="button" className="danger" onClick={() => setConfirming(true)} aria-label={`Delete ${record.name}`}>
        Delete
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={`Delete ${record.name}?`}>
      <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate(record.id)} autoFocus>
        {remove.isPending ? 'Deleting…' : `Yes, delete ${record.name}`}
      </button>
      <button type="button" onClick={() => setConfirming(false)}>
        Keep it
      </button>
      {remove.isError ? <span className="field-error">{(remove.error as Error).message}</span> : null}
    </span>
  );
}

type TableProps<R extends HardwareRecord> = {
  title: string;
  records: R[];
  head: string[];
  row: (r: R) => ReactNode[];
  onEdit?: (record: HardwareRecord) => void;
  editingId?: string | null;
};

function Table<R extends HardwareRecord>({ title, records, head, row, onEdit, editingId }: TableProps<R>) {
  return (
    <section aria-label={title} className="hardware-kind">
      <h3>
        {title} <span className="muted">({records.length})</span>
      </h3>
      {records.length ? (
        <div className="table-scroll">
          <table className="data-table hardware-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                {head.map((h) => (
                  <th scope="col" key={h}>
                    {h}
                  </th>
                ))}
                <th scope="col">Record id</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {records.map((r) => (
                <tr key={r.id} aria-current={r.id === editingId ? 'true' : undefined}>
                  <th scope="row">{r.name}</th>
                  {row(r).map((cell, i) => (
                    <td key={i}>{cell}</td>
                  ))}
                  <td>
                    <code className="record-id">{r.id}</code>
                  </td>
                  <td>
                    {ownerTokenOf(r.id) ? (
                      <div className="record-actions">
                        {onEdit ? (
                          <button type="button" onClick={() => onEdit(r)} aria-label={`Edit ${r.name}`} disabled={r.id === editingId}>
                            {r.id === editingId ? 'Editing…' : 'Edit'}
                          </button>
                        ) : null}
                        <DeleteButton record={r} />
                      </div>
                    ) : (
                      <span className="muted" title="Created in another browser: only its owner can edit or delete it">
                        Read-only
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">None yet.</p>
      )}
    </section>
  );
}

const KIND_LABELS: Record<string, string> = { hdd: 'HDD', ssd: 'SSD', nvme: 'NVMe' };

function kindLabel(kind: string, iface: string | null | undefined): string {
  const k = KIND_LABELS[kind] ?? kind;
  return iface && iface !== k ? `${k} ${iface}` : k;
}

const n = (v: number | null | undefined, unit = '') => (v == null ? '—' : `${formatNumber(v)}${unit ? ` ${unit}` : ''}`);

type HardwareListProps = {
  /** Offer an Edit button per record. */
  onEdit?: (record: HardwareRecord) => void;
  /** The record being edited (marked in its table). */
  editingId?: string | null;
};

type KindTablesProps = {
  records: HardwareRecord[];
  onEdit?: (record: HardwareRecord) => void;
  editingId?: string | null;
};

/** Drives, controllers and arrays of ``records``, one table each. */
function KindTables({ records, onEdit, editingId = null }: KindTablesProps) {
  const drives = records.filter((r): r is DriveRecord => r.kind === 'drive');
  const controllers = records.filter((r): r is ControllerRecord => r.kind === 'controller');
  const arrays = records.filter((r): r is ArrayRecord => r.kind === 'array');
  return (
    <>
      <Table
        title="Drives"
        onEdit={onEdit}
        editingId={editingId}
        records={drives}
        head={['Kind', 'Capacity', 'Performance', 'Price']}
        row={(r) => [
          kindLabel(r.spec.kind, r.spec.interface),
          n(r.spec.capacity_gb, 'GB'),
          r.spec.kind === 'hdd'
            ? `${n(r.spec.rpm, 'rpm')}, ${n(r.spec.media_rate_mb_s, 'MB/s')}`
            : `${n(r.spec.read_iops_4k, 'read IOPS')}, ${n(r.spec.read_latency_us, 'µs')}`,
          n(r.spec.price_usd, 'USD'),
        ]}
      />
      <Table
        title="Controllers"
        onEdit={onEdit}
        editingId={editingId}
        records={controllers}
        head={['Count', 'Cores', 'DRAM cache', 'IOPS ceiling']}
        row={(r) => [`${r.spec.count} (${r.spec.ha_mode})`, n(r.spec.cores), n(r.spec.dram_cache_gb, 'GB'), n(r.spec.max_iops)]}
      />
      <Table
        title="Arrays"
        onEdit={onEdit}
        editingId={editingId}
        records={arrays}
        head={['Vendor', 'Controllers', 'Drives', 'RAID']}
        row={(r) => [
          r.spec.vendor,
          `${r.spec.controller.count} x ${r.spec.controller.model}`,
          `${r.spec.any_drive ? 'any' : (r.spec.drives ?? []).length} (max ${formatNumber(r.spec.max_drives)})`,
          r.spec.raid.map((x) => x.scheme).join(', '),
        ]}
      />
    </>
  );
}

/**
 * The custom drives, controllers and arrays this browser saved (it holds their owner tokens), each
 * editable and deletable (after a confirmation); the records saved in other browsers apart,
 * folded and read-only (usable on Size, changed only by their owner).
 */
export function HardwareList({ onEdit, editingId = null }: HardwareListProps = {}) {
  const list = useHardwareList();
  if (list.isPending) return <Loading label="Loading the custom hardware…" />;
  if (list.isError) return <ErrorState title="The custom hardware could not be loaded" error={list.error} onRetry={() => void list.refetch()} />;
  const mine = list.data.hardware.filter((r) => ownerTokenOf(r.id));
  const others = list.data.hardware.filter((r) => !ownerTokenOf(r.id));
  return (
    <div className="hardware-list" data-testid="hardware-list">
      <KindTables records={mine} onEdit={onEdit} editingId={editingId} />
      {others.length ? (
        <details className="hardware-others" data-testid="hardware-others">
          <summary>
            Saved in other browsers ({others.length}): read-only, usable on Size, changed only by whoever saved them
          </summary>
          <KindTables records={others} />
        </details>
      ) : null}
    </div>
  );
}
