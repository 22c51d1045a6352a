import { CurveChart } from '@/charts/curve-chart';
import { formatNumber } from '@/components';
import type { CacheOption } from '@/lib/api-types';

type CacheOptionsChartProps = { options: CacheOption[]; chosenGb: number };

/** Drives needed against flash-cache size (one sizing per option), the chosen option marked. */
export function CacheOptionsChart({ options, chosenGb }: CacheOptionsChartProps) {
  const chosen = options.find((o) => o.flash_cache_gb === chosenGb);
  return (
    <CurveChart
      title="Drives needed vs flash cache"
      summary={`Sized once per flash-cache option: ${options.map((o) => `${formatNumber(o.flash_cache_gb)} GB needs ${o.drives ?? 'no feasible count of'} drives`).join('; ')}. Chosen: ${formatNumber(chosenGb)} GB.`}
      series={[{ name: 'Drives', dots: true, points: options.map((o) => ({ x: o.flash_cache_gb, y: o.feasible ? (o.drives ?? null) : null })) }]}
      xLabel="Flash cache [GB]"
      yLabel="Drives"
      markers={chosen?.drives != null ? [{ x: chosen.flash_cache_gb, y: chosen.drives, label: `chosen: ${formatNumber(chosenGb)} GB` }] : []}
    />
  );
}
