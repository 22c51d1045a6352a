import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { createStore, useStore } from '../create-store';
import { emptyDraft, workflow, workflowStore, useWorkflow } from '../workflow';

describe('workflow store', () => {
  it('shares the workloads and the builder draft between components and persists them', () => {
    const { result } = renderHook(() => useWorkflow((s) => s.draft.arrayId));
    expect(result.current).toBe('');
    act(() => workflow.setDraft({ ...emptyDraft, arrayId: 'netapp-fas3170', vendor: 'NetApp' }));
    expect(result.current).toBe('netapp-fas3170');
    const stored = JSON.parse(localStorage.getItem('sizer.workflow.v1') ?? '{}') as { draft: { arrayId: string } };
    expect(stored.draft.arrayId).toBe('netapp-fas3170');
  });

  it('starts from what was stored, filling fields added since', () => {
    localStorage.setItem('k', JSON.stringify({ value: 3 }));
    const store = createStore({ value: 1, extra: 'x' }, { key: 'k', revive: (raw) => ({ value: 1, extra: 'x', ...(raw as object) }) });
    expect(store.get()).toEqual({ value: 3, extra: 'x' });
  });

  it('ignores stored state it cannot read', () => {
    localStorage.setItem('bad', '{not json');
    const store = createStore({ value: 1 }, { key: 'bad', revive: () => ({ value: 2 }) });
    expect(store.get()).toEqual({ value: 1 });
  });

  it('re-renders only when the selected slice changes', () => {
    let renders = 0;
    renderHook(() => {
      renders += 1;
      return useStore(workflowStore, (s) => s.workloads);
    });
    const before = renders;
    act(() => workflow.setDraft({ ...emptyDraft, vendor: 'EMC' }));
    expect(renders).toBe(before);
  });
});
