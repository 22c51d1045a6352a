export { WorkloadsEditor } from './components/workloads-editor';
export { windowsOf } from './lib/workload-model';
