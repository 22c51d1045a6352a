export default function RecommendPage() {
  return (
    <article className="page">
      <h1>Recommend</h1>
      <p>Give targets for capacity, IOPS and latency; get the configurations that meet them, cheapest first.</p>
    </article>
  );
}
