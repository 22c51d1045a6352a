import { useState } from 'react';

import { CommitTextField, ErrorState, SelectField, TextField } from '@/components';
import type { Phase } from '@/lib/api-types';
import { ApiError } from '@/lib/api-error';

import { fioFormatOf, useImportFio } from '../api/import-fio';
import { useImportIometer } from '../api/import-iometer';

type ImportPhaseProps = {
  windows: string[];
  onImport: (phase: Phase) => void;
};

type Format = 'iometer' | 'fio';

const PLACEHOLDER: Record<Format, string> = {
  iometer: "'Access specification name,default assignment\n8K random 70% read,NONE\n'size,% of size,% reads,% random,delay,burst,align,reply\n8192,100,70,100,0,1,0,0",
  fio: '[oltp]\nrw=randrw\nrwmixread=70\nbs=8k\niodepth=16\n\n(or paste fio --output-format=json)',
};

/** Paste an Iometer access specification, a fio job file or a fio JSON result; it becomes a phase. */
export function ImportPhase({ windows, onImport }: ImportPhaseProps) {
  const [format, setFormat] = useState<Format>('iometer');
  const [text, setText] = useState('');
  const [window, setWindow] = useState(windows[0] ?? 'business hours');
  const iometer = useImportIometer();
  const fio = useImportFio();
  const mutation = format === 'iometer' ? iometer : fio;
  const onSuccess = (result: { imported: { warnings?: string[] }; phase: Phase }) => {
    onImport(result.phase);
    setWarnings(result.imported.warnings ?? []);
    setText('');
  };
  const [warnings, setWarnings] = useState<string[]>([]);
  const error = mutation.error;
  const textErrors = error instanceof ApiError && error.status === 422 ? error.issues.map((i) => i.msg) : [];

  function submit() {
    setWarnings([]);
    if (format === 'iometer') iometer.mutate({ text, window }, { onSuccess });
    else fio.mutate({ text, window, format: fioFormatOf(text) }, { onSuccess });
  }

  return (
    <details className="import-phase">
      <summary>Import a phase from Iometer or fio</summary>
      <div className="grid grid-3">
        <SelectField
          label="Format"
          value={format}
          onChange={(f) => {
            setFormat(f as Format);
            iometer.reset();
            fio.reset();
          }}
          options={[
            { value: 'iometer', label: 'Iometer access specification' },
            { value: 'fio', label: 'fio job file or JSON result' },
          ]}
        />
        <CommitTextField label="Into window" value={window} onCommit={setWindow} maxLength={80} />
      </div>
      <TextField
        label={format === 'iometer' ? 'Iometer specification (.icf lines)' : 'fio job or JSON output'}
        value={text}
        onChange={setText}
        rows={6}
        placeholder={PLACEHOLDER[format]}
        errors={textErrors}
      />
      <div className="row-actions">
        <button type="button" className="primary" onClick={submit} disabled={!text.trim() || mutation.isPending}>
          {mutation.isPending ? 'Importing…' : 'Import as a phase'}
        </button>
      </div>
      {error && !(error instanceof ApiError && error.isValidation) ? <ErrorState title="The import failed" error={error} /> : null}
      {warnings.length ? (
        <div className="notice" role="status">
          <p>Imported, with notes:</p>
          <ul>
            {warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </details>
  );
}
