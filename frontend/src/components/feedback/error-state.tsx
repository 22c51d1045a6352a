type ErrorStateProps = {
  title?: string;
  /** The error; its message is shown when it has one. */
  error?: unknown;
  /** Shows a "Try again" button when given. */
  onRetry?: () => void;
};

function messageOf(error: unknown): string | undefined {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return undefined;
}

/** An error announced to assistive technology, with an optional retry. */
export function ErrorState({ title = 'Something went wrong', error, onRetry }: ErrorStateProps) {
  const message = messageOf(error);
  return (
    <div className="error-state" role="alert">
      <p className="error-title">{title}</p>
      {message ? <p className="error-message">{message}</p> : null}
      {onRetry ? (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
