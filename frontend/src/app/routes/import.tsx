import { useNavigate } from 'react-router';

import { EngagementImport } from '@/features/imports';
import type { Workload } from '@/lib/api-types';
import { workflow, useWorkflow } from '@/stores/workflow';

import { href } from '../routes';

export default function ImportPage() {
  const navigate = useNavigate();
  const workloads = useWorkflow((s) => s.workloads);

  const use = (imported: Workload[], how: 'add' | 'replace') => {
    const names = new Set(imported.map((w) => w.name));
    workflow.setWorkloads(how === 'add' ? [...workloads.filter((w) => !names.has(w.name)), ...imported] : imported);
    void navigate(href.size());
  };

  return (
    <article className="page import-page">
      <h1>Import an engagement</h1>
      <p className="lead">
        Start from what the customer already collected: a Live Optics project, an RVTools inventory, the array&apos;s own performance
        export, host statistics. Each becomes workloads with a phase per busy window; together they are lined up on one clock, so the
        sizing sees when they really peak together instead of adding each one&apos;s peak.
      </p>
      <EngagementImport onUse={use} hasWorkloads={workloads.length > 0} />
    </article>
  );
}
