import { Link, useNavigate, useParams } from 'react-router';

import { TraceJobView, TraceUploadForm, type UseWorkload } from '@/features/traces';
import { workflow, useWorkflow } from '@/stores/workflow';

import { href } from '../routes';

export default function TracesPage() {
  const { jobId } = useParams();
  const navigate = useNavigate();
  const workloads = useWorkflow((s) => s.workloads);

  const use: UseWorkload = (workload, how) => {
    workflow.setWorkloads(how === 'add' ? [...workloads.filter((w) => w.name !== workload.name), workload] : [workload]);
    void navigate(href.size());
  };

  return (
    <article className="page traces-page">
      <h1>Traces</h1>
      <p className="lead">
        Measure a workload instead of guessing it: a block I/O trace gives its IOPS and MB/s over time, read share, I/O sizes,
        sequentiality, how well a cache of each size would do, how much fast tier it needs, and a workload to size.
      </p>
      {jobId ? (
        <>
          <TraceJobView key={jobId} jobId={jobId} onUseWorkload={use} workloadCount={workloads.length} onDeleted={() => void navigate(href.traces())} />
          <p className="next-step">
            <Link to={href.traces()}>Analyse another trace</Link>
          </p>
        </>
      ) : (
        <TraceUploadForm onCreated={(id) => void navigate(href.trace(id))} />
      )}
    </article>
  );
}
