export default function SizePage() {
  return (
    <article className="page">
      <h1>Size</h1>
      <p>Describe a workload and an array configuration to see capacity, performance and headroom, each figure with its math.</p>
    </article>
  );
}
