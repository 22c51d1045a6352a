/** Overlaid curves of a comparison (Recharts): loaded lazily. */
import { useState } from 'react';

import { CurveChart, niceCeil, PALETTE, type Marker, type Series } from '@/charts/curve-chart';
import { ErrorState, Loading, SelectField } from '@/components';
import type { CompareResult, Workload } from '@/lib/api-types';

import { useCurvesOfEach } from '../api/get-curves';
import { columnLabels } from '../lib/short-names';

type CompareCurvesProps = { result: CompareResult; workloads: Workload[] };

export default function CompareCurves({ result, workloads }: CompareCurvesProps) {
  const windows = result.items[0]?.result.windows.map((w) => w.window) ?? [];
  const [window, setWindow] = useState(windows[0] ?? '');
  const active = windows.includes(window) ? window : (windows[0] ?? '');
  const names = columnLabels(result.items.map((i) => i.configuration_words));
  const queries = useCurvesOfEach(result.items.map((item) => ({ workloads, configuration: item.configuration, window: active, calibration_margin: 'pessimistic' as const })));
  const pending = queries.some((q) => q.isPending);
  const failed = queries.find((q) => q.isError);

  const latency: Series[] = [];
  const markers: Marker[] = [];
  const qd: Series[] = [];
  let yMax = 0;
  queries.forEach((q, i) => {
    const color = PALETTE[i % PALETTE.length];
    const lvl = q.data?.latency_vs_load;
    if (lvl) {
      latency.push({ name: names[i] ?? `#${i + 1}`, color, points: lvl.points.map((p) => ({ x: p.iops, y: p.read_latency_ms })) });
      const op = result.items[i]?.result.windows.find((w) => w.window === active)?.read_latency_ms;
      if (op != null) markers.push({ x: lvl.operating_iops, y: op, label: '', color });
      const near = lvl.points.filter((p) => p.load_pct <= 90 && p.read_latency_ms !== null).at(-1)?.read_latency_ms;
      if (near) yMax = Math.max(yMax, near * 1.15);
    }
    const q2 = q.data?.queue_depth;
    if (q2) qd.push({ name: names[i] ?? `#${i + 1}`, color, dots: true, points: q2.points.map((p) => ({ x: p.queue_depth, y: p.iops })) });
  });

  return (
    <section className="compare-curves" aria-labelledby="compare-curves-title">
      <div className="section-head">
        <h3 id="compare-curves-title">Curves, overlaid</h3>
        {windows.length > 1 ? (
          <SelectField label="Window" className="inline-field" value={active} onChange={setWindow} options={windows.map((w) => ({ value: w, label: w }))} />
        ) : null}
      </div>
      {pending ? <Loading label="Computing curves…" /> : null}
      {failed ? <ErrorState title="Some curves could not be computed" error={failed.error} /> : null}
      <div className="chart-grid">
        {latency.length ? (
          <CurveChart
            title={`Read latency vs IOPS (${active})`}
            summary={`Read latency against load for ${latency.length} configurations; dots mark the workload's operating point on each.`}
            series={latency}
            xLabel="Front-end IOPS"
            yLabel="Read latency [ms]"
            yMax={yMax ? niceCeil(yMax) : undefined}
            markers={markers}
          />
        ) : null}
        {qd.length ? (
          <CurveChart
            title={`IOPS vs outstanding I/Os (${active})`}
            summary={`Throughput against queue depth for ${qd.length} configurations.`}
            series={qd}
            xLabel="Outstanding I/Os"
            xScale="log"
            yLabel="IOPS"
          />
        ) : null}
      </div>
    </section>
  );
}
