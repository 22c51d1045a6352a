import { Figure, formatNumber, Stat } from '@/components';
import type { EvaluationResult } from '@/lib/api-types';

/**
 * The numbers engineers look for first, per window and pool: front-end IOPS, back-end IOPS, the
 * write penalty paid and the IOPS each drive serves; each opens the engine's math.
 */
export function BackendLoad({ result }: { result: EvaluationResult }) {
  return (
    <section aria-labelledby="backend-title" className="backend-load">
      <h3 id="backend-title">Back-end load</h3>
      <p className="muted">
        What the drives see: every front-end read that misses the caches and every write times its RAID write penalty.
      </p>
      <div className="window-cards">
        {result.windows.flatMap((w) =>
          w.pools.map((p) => {
            const label = w.pools.length > 1 ? `${w.window}, ${p.pool}` : w.window;
            return (
              <div key={`${w.window}:${p.pool}`} className="window-card" role="group" aria-label={`Back-end load in ${label}`}>
                <h4>{label}</h4>
                <dl className="stat-grid facts">
                  <Stat label="Front-end IOPS" testId="fe-iops">
                    {formatNumber(p.frontend_iops)}
                  </Stat>
                  <Stat label="Back-end IOPS" testId="be-iops">
                    <Figure label={`Back-end IOPS (${label})`} figure={p.backend_iops} />
                  </Stat>
                  {p.write_penalty ? (
                    <Stat label="Write penalty" testId="write-penalty">
                      <Figure label={`Write penalty (${label})`} figure={p.write_penalty} />
                    </Stat>
                  ) : null}
                  {p.per_drive_iops ? (
                    <Stat label="IOPS per drive" testId="per-drive-iops">
                      <Figure label={`IOPS per drive (${label})`} figure={p.per_drive_iops} />
                    </Stat>
                  ) : null}
                </dl>
              </div>
            );
          }),
        )}
      </div>
    </section>
  );
}
