export { TraceUploadForm } from './components/trace-upload-form';
export { TraceJobView, type UseWorkload } from './components/trace-job-view';
