import { useId, useState } from 'react';

import { ErrorState, TextField } from '@/components';
import { ApiError } from '@/lib/api-error';

import { useCreateReport, type ReportInput } from '../api/create-report';
import { useDeleteReport } from '../api/delete-report';
import { ExportLinks } from './export-links';

type SaveShareProps = {
  /** The report to save, without its name; null while there is nothing to save. */
  input: Omit<ReportInput, 'name'> | null;
  defaultName: string;
  /** Builds the in-app link of a report (the app's route table). */
  reportHref: (id: string) => string;
  /** Told of each report saved (e.g. to list it under "Recent reports"). */
  onSaved?: (report: { id: string; name: string; kind: string }) => void;
};

/** "Save & share": stores the snapshot and shows the link to the read-only report page and its downloads
 * (the proposal as PDF, the BOM workbook, CSV, JSON). */
export function SaveShare({ input, defaultName, reportHref, onSaved }: SaveShareProps) {
  const [name, setName] = useState(defaultName);
  const [copied, setCopied] = useState(false);
  const save = useCreateReport();
  const remove = useDeleteReport();
  const headingId = useId();
  const created = save.data;
  const link = created ? new URL(reportHref(created.id), window.location.origin).href : null;

  async function copy() {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <section className="card save-share no-print" aria-labelledby={headingId}>
      <h2 id={headingId}>Save &amp; share</h2>
      {!created ? (
        <form
          className="save-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!input) return;
            const body = { ...input, name: name.trim() || defaultName } as ReportInput;
            save.mutate(body, { onSuccess: (created) => onSaved?.({ id: created.id, name: body.name, kind: body.kind }) });
          }}
        >
          <TextField
            label="Report name"
            value={name}
            onChange={setName}
            maxLength={200}
            errors={save.error instanceof ApiError ? save.error.messagesFor('name') : []}
          />
          <button type="submit" className="primary" disabled={!input || save.isPending}>
            {save.isPending ? 'Saving…' : 'Save & share'}
          </button>
        </form>
      ) : null}
      {save.isError ? <ErrorState title="The report was not saved" error={save.error} /> : null}
      {created && link ? (
        <div className="share-result" role="status">
          <p>
            Saved. Anyone with this link sees the report exactly as saved (engine {created.engine_version}, catalog{' '}
            {created.catalog_version}):
          </p>
          <p className="share-link">
            <a href={reportHref(created.id)} data-testid="share-link">
              {link}
            </a>{' '}
            <button type="button" onClick={() => void copy()}>
              {copied ? 'Copied' : 'Copy link'}
            </button>
          </p>
          <ExportLinks reportId={created.id} />
          <details>
            <summary>Owner token (to delete the report; shown only now)</summary>
            <p>
              <code>{created.owner_token}</code>
            </p>
            <button
              type="button"
              className="danger"
              disabled={remove.isPending || remove.isSuccess}
              onClick={() => remove.mutate({ reportId: created.id, ownerToken: created.owner_token })}
            >
              {remove.isSuccess ? 'Deleted' : 'Delete this report'}
            </button>
            {remove.isError ? <ErrorState title="The report was not deleted" error={remove.error} /> : null}
          </details>
          <button
            type="button"
            className="link-button"
            onClick={() => {
              save.reset();
              remove.reset();
              setCopied(false);
            }}
          >
            Save another version
          </button>
        </div>
      ) : null}
    </section>
  );
}
