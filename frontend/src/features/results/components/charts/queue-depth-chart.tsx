import { CurveChart } from '@/charts/curve-chart';
import { formatNumber } from '@/components';
import type { QueueDepthCurve } from '@/lib/api-types';

/** IOPS and response time against outstanding I/Os (closed-loop MVA). */
export function QueueDepthChart({ curve }: { curve: QueueDepthCurve }) {
  const last = curve.points.at(-1);
  return (
    <CurveChart
      title={`IOPS vs outstanding I/Os (${curve.window})`}
      summary={`With ${last?.queue_depth ?? 0} I/Os outstanding the configuration delivers ${formatNumber(last?.iops ?? 0)} IOPS at ${formatNumber(last?.avg_response_ms ?? 0)} ms; the bottleneck is ${last ? last.bottleneck_words : 'none'}.`}
      series={[
        { name: 'IOPS', points: curve.points.map((p) => ({ x: p.queue_depth, y: p.iops })), dots: true },
        {
          name: 'Response time [ms]',
          right: true,
          dashed: true,
          color: '#c2410c',
          points: curve.points.map((p) => ({ x: p.queue_depth, y: p.avg_response_ms })),
          dots: true,
        },
      ]}
      xLabel="Outstanding I/Os (queue depth)"
      xScale="log"
      yLabel="IOPS"
      yRightLabel="Response [ms]"
    >
      <p className="chart-note">{curve.explanation}</p>
    </CurveChart>
  );
}
