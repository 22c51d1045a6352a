import type { BadLine } from '@/lib/api-types';

type BadLinesProps = {
  lines: BadLine[];
  /** How many lines were malformed in all (the samples are the first few). */
  total?: number | null;
  caption?: string;
};

/** Samples of lines the reader could not read: line number and text, exactly as in the file. */
export function BadLines({ lines, total, caption = 'Lines that could not be read' }: BadLinesProps) {
  if (!lines.length) return null;
  return (
    <div className="table-scroll">
      <table className="data-table bad-lines" data-testid="bad-lines">
        <caption>
          {caption}
          {total && total > lines.length ? ` (the first ${lines.length} of ${total.toLocaleString('en-US')})` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Text</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.line}>
              <th scope="row">{l.line.toLocaleString('en-US')}</th>
              <td>
                <code>{l.text}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
