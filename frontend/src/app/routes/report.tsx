import { useParams } from 'react-router';

export default function ReportPage() {
  const { reportId = '' } = useParams();
  return (
    <article className="page">
      <h1>Report</h1>
      <p>
        The saved sizing report <code>{reportId}</code> will be shown here: its inputs, results and
        the math behind every figure.
      </p>
    </article>
  );
}
