import { formatNumber } from '@/components';
import type { VolumeSummary } from '@/lib/api-types';

import { gigabytes } from '../lib/format';

/** Every volume (stream) of the trace, kept by the volume filter or not, to choose which to size. */
export function VolumeTable({ volumes }: { volumes: VolumeSummary[] }) {
  if (volumes.length < 2) return null;
  const filtered = volumes.some((v) => !v.selected);
  return (
    <div className="table-scroll" data-testid="volume-table">
      <table className="data-table">
        <caption>
          Volumes in the trace{filtered ? ' (the analysis kept the marked ones)' : ''}: upload again with a volume filter to size some of them
        </caption>
        <thead>
          <tr>
            <th scope="col">Volume</th>
            <th scope="col">I/Os</th>
            <th scope="col">Mean IOPS</th>
            <th scope="col">Reads</th>
            <th scope="col">Moved</th>
            <th scope="col">Highest address</th>
            {filtered ? <th scope="col">Kept</th> : null}
          </tr>
        </thead>
        <tbody>
          {volumes.map((v) => (
            <tr key={v.name}>
              <th scope="row">{v.name}</th>
              <td>{v.records.toLocaleString('en-US')}</td>
              <td>{formatNumber(v.mean_iops)}</td>
              <td>{formatNumber(v.read_pct)}%</td>
              <td>{gigabytes(v.gb_moved)}</td>
              <td>{gigabytes(v.span_gb)}</td>
              {filtered ? <td>{v.selected ? 'yes' : 'no'}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
