type FormErrorsProps = {
  /** Messages about the request as a whole, or about fields this form does not show. */
  messages: readonly string[];
  title?: string;
};

/** A list of messages that belong to no single field, announced to assistive technology. */
export function FormErrors({ messages, title = 'Please fix the following' }: FormErrorsProps) {
  if (messages.length === 0) return null;
  return (
    <div className="error-state form-errors" role="alert">
      <p className="error-title">{title}</p>
      <ul>
        {messages.map((m, i) => (
          <li key={`${i}-${m}`}>{m}</li>
        ))}
      </ul>
    </div>
  );
}
