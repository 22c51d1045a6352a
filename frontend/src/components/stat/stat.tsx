import type { ReactNode } from 'react';

/** One labelled figure of a `<dl className="stat-grid">`: the label above, the value below. */
export function Stat({ label, children, testId }: { label: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <div className="stat" data-testid={testId}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
