export { ConfigurationBuilder } from './components/configuration-builder';
export { useArray } from './api/get-array';
export { useArrays } from './api/get-arrays';
export { useDrives } from './api/get-drives';
export { useArrayDetail, useHardwareChoices } from './hooks/use-hardware-choices';
export { useRaidSchemes } from './api/get-raid-schemes';
export { customHeadroom, draftFromConfiguration, draftToReference, flashCacheSizes } from './lib/draft';
