export { HardwareList } from './components/hardware-list';
export { HardwareEditor } from './components/hardware-editor';
export { useHardwareList } from './api/list-hardware';
export { createHardware } from './api/create-hardware';
