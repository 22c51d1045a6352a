export default function ComparePage() {
  return (
    <article className="page">
      <h1>Compare</h1>
      <p>Compare several configurations side by side on the same workload.</p>
    </article>
  );
}
