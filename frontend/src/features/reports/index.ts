export { SaveShare } from './components/save-share';
export { ReportHeader } from './components/report-header';
export { useReport } from './api/get-report';
export type { ReportInput } from './api/create-report';
export { InputsSummary } from './components/inputs-summary';
export { ExportLinks } from './components/export-links';
export { ReportDiffView } from './components/report-diff';
