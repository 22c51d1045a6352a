type LoadingProps = {
  /** What is loading, read by screen readers and shown beside the spinner. */
  label?: string;
};

/** A polite, inline loading indicator. */
export function Loading({ label = 'Loading…' }: LoadingProps) {
  return (
    <p className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}
