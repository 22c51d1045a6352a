import { useId, useState } from 'react';

import { ErrorState, SelectField } from '@/components';
import type { Workload } from '@/lib/api-types';
import type { FieldErrors } from '@/lib/field-errors';

import { useWorkloadTemplates } from '../api/get-workload-templates';
import { blankWorkload, normalizeWorkload, uniqueName, windowsOf } from '../lib/workload-model';
import { ImportHostStats } from './import-host-stats';
import { WorkloadForm } from './workload-form';

type WorkloadsEditorProps = {
  workloads: Workload[];
  onChange: (workloads: Workload[]) => void;
  /** The API's messages, scoped to `workloads` (paths `0.phases.1.read_pct`...). */
  errors: FieldErrors;
};

/**
 * The workloads being sized: start from a template or blank, then edit capacity, growth, data
 * reduction, working set, skew, replication and the phases of each window.
 */
export function WorkloadsEditor({ workloads, onChange, errors }: WorkloadsEditorProps) {
  const templates = useWorkloadTemplates();
  const [templateId, setTemplateId] = useState('');
  const windowListId = useId();
  const windows = windowsOf(workloads);
  const names = workloads.map((w) => w.name);

  function addTemplate(id: string) {
    const t = templates.data?.templates.find((x) => x.id === id);
    if (!t) return;
    const w = normalizeWorkload(t.workload);
    onChange([...workloads, { ...w, name: uniqueName(w.name, names) }]);
  }
  function replaceWithTemplate(id: string) {
    const t = templates.data?.templates.find((x) => x.id === id);
    if (!t) return;
    onChange([normalizeWorkload(t.workload)]);
  }

  const selected = templates.data?.templates.find((t) => t.id === templateId);

  return (
    <div className="workloads-editor">
      <div className="template-picker card">
        {templates.isPending ? <p className="muted">Loading workload templates…</p> : null}
        {templates.isError ? (
          <ErrorState title="Workload templates could not be loaded" error={templates.error} onRetry={() => void templates.refetch()} />
        ) : null}
        <div className="template-row">
          <SelectField
            label="Workload template"
            value={templateId}
            onChange={setTemplateId}
            placeholder={templates.isPending ? 'Loading…' : 'Choose a template…'}
            disabled={!templates.data}
            options={(templates.data?.templates ?? []).map((t) => ({ value: t.id, label: t.title }))}
          />
          <div className="row-actions">
            <button type="button" className="primary" disabled={!selected} onClick={() => replaceWithTemplate(templateId)}>
              Start from template
            </button>
            <button type="button" disabled={!selected || workloads.length === 0} onClick={() => addTemplate(templateId)}>
              Add as another workload
            </button>
            <button
              type="button"
              onClick={() => onChange([...workloads, blankWorkload(uniqueName('Workload', names))])}
            >
              Add a blank workload
            </button>
          </div>
        </div>
        {selected ? <p className="template-description">{selected.description}</p> : null}
      </div>

      <ImportHostStats
        hasWorkloads={workloads.length > 0}
        onUse={(imported, how) => {
          const taken = how === 'add' ? [...names] : [];
          const named = imported.map((w) => {
            const name = uniqueName(w.name, taken);
            taken.push(name);
            return { ...normalizeWorkload(w), name };
          });
          onChange(how === 'add' ? [...workloads, ...named] : named);
        }}
      />

      <datalist id={windowListId}>
        {windows.map((w) => (
          <option key={w} value={w} />
        ))}
      </datalist>

      {workloads.length === 0 ? (
        <p className="empty">No workload yet: start from a template or add a blank workload.</p>
      ) : null}
      {errors.here().length ? (
        <p className="field-error" role="alert">
          {errors.here().join(' ')}
        </p>
      ) : null}
      {workloads.map((w, i) => (
        <WorkloadForm
          key={i}
          workload={w}
          onChange={(next) => onChange(workloads.map((x, j) => (j === i ? next : x)))}
          onRemove={() => onChange(workloads.filter((_, j) => j !== i))}
          errors={errors.scope(i)}
          windows={windows}
          windowListId={windowListId}
        />
      ))}
    </div>
  );
}
