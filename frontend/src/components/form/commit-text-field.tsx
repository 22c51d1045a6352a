import { useEffect, useState } from 'react';

import { Field } from './field';

type CommitTextFieldProps = {
  label: string;
  value: string;
  /** Called on blur or Enter with the trimmed text, when it changed and is not empty. */
  onCommit: (value: string) => void;
  hint?: string;
  errors?: readonly string[];
  list?: string;
  maxLength?: number;
};

/** A text input that reports its value only when done (blur or Enter), e.g. a name others group by. */
export function CommitTextField({ label, value, onCommit, hint, errors, list, maxLength }: CommitTextFieldProps) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  function commit() {
    const t = text.trim();
    if (t && t !== value) onCommit(t);
    else setText(value);
  }
  return (
    <Field label={label} hint={hint} errors={errors}>
      {(control) => (
        <input
          {...control}
          type="text"
          value={text}
          list={list}
          maxLength={maxLength}
          onChange={(e) => setText(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            }
          }}
        />
      )}
    </Field>
  );
}
