import { reportExportUrl } from '../api/export-report';

/** Downloads of a saved report: the proposal (PDF), the BOM workbook (XLSX), CSV and JSON. */
export function ExportLinks({ reportId }: { reportId: string }) {
  return (
    <p className="export-links no-print" data-testid="export-links">
      <a className="button primary" href={reportExportUrl(reportId, 'pdf')} download data-testid="download-pdf">
        Proposal (PDF)
      </a>{' '}
      <a className="button" href={reportExportUrl(reportId, 'xlsx')} download data-testid="download-xlsx">
        BOM workbook (XLSX)
      </a>{' '}
      <a href={reportExportUrl(reportId, 'csv')} download>
        CSV
      </a>{' '}
      <a href={reportExportUrl(reportId, 'json')} download>
        JSON
      </a>
    </p>
  );
}
