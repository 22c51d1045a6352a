export { EngagementImport } from './components/engagement-import';
