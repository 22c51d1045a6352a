import { CurveChart } from '@/charts/curve-chart';
import { formatNumber } from '@/components';
import type { HitRatioCurve } from '@/lib/api-types';

/** Read-hit ratio against cache size for the window's largest working set, the configured cache marked. */
export function HitRatioChart({ curve }: { curve: HitRatioCurve }) {
  const marked = curve.configured_cache_gb > 0;
  return (
    <CurveChart
      title={`Cache hit ratio vs cache size (${curve.workload} / ${curve.phase})`}
      summary={`Over a ${formatNumber(curve.working_set_gb)} GB working set, the configured ${formatNumber(curve.configured_cache_gb)} GB of cache (DRAM ${formatNumber(curve.dram_cache_gb)} GB + flash ${formatNumber(curve.flash_cache_gb)} GB) hits ${formatNumber(curve.configured_hit_pct)}% of random reads.`}
      series={[{ name: 'Hit ratio', points: curve.points.map((p) => ({ x: p.cache_gb, y: p.hit_pct })) }]}
      xLabel="Cache size [GB]"
      xScale="log"
      yLabel="Read hits [%]"
      yMax={100}
      markers={
        marked
          ? [{ x: Math.min(curve.configured_cache_gb, curve.working_set_gb), y: curve.configured_hit_pct, label: `configured: ${formatNumber(curve.configured_cache_gb)} GB, ${formatNumber(curve.configured_hit_pct)}%` }]
          : []
      }
      lines={curve.flash_cache_gb > 0 && curve.dram_cache_gb > 0 ? [{ x: curve.dram_cache_gb, label: 'DRAM only' }] : []}
    />
  );
}
