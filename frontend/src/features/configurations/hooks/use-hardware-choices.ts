/**
 * What the builder can choose from: the catalog's arrays and drives plus the custom hardware
 * records (`/hardware`), which a catalog reference names by record id (`array_id`, `drive_id`,
 * `controller_id`). A custom array lists its drives (catalog or custom ids); a catalog array
 * that takes any drive (`any_drive`, e.g. "generic") also takes custom drives.
 */
import type { ArrayModel, ControllerRecord, DriveSpec, HardwareRecord, NodeChoice } from '@/lib/api-types';

import { useArray } from '../api/get-array';
import { useArrays } from '../api/get-arrays';
import { useCustomHardware } from '../api/get-custom-hardware';
import { useDrives } from '../api/get-drives';
import type { GroupWidths } from '../lib/draft';

export type CustomHardware = {
  arrays: ArrayModel[];
  /** Per custom array id, the group widths it builds per RAID scheme (from its record). */
  groupWidths: Record<string, GroupWidths>;
  /** Per custom array id, the node counts it grows to with the engine's labels (empty unless it clusters). */
  nodeChoices: Record<string, NodeChoice[]>;
  drives: DriveSpec[];
  controllers: ControllerRecord[];
};

export function splitHardware(records: readonly HardwareRecord[]): CustomHardware {
  const out: CustomHardware = { arrays: [], groupWidths: {}, nodeChoices: {}, drives: [], controllers: [] };
  for (const r of records) {
    if (r.kind === 'array') {
      out.arrays.push({ ...r.spec, id: r.id });
      out.groupWidths[r.id] = r.group_widths;
      out.nodeChoices[r.id] = r.node_choices;
    } else if (r.kind === 'drive') out.drives.push({ ...r.spec, id: r.id });
    else out.controllers.push(r);
  }
  return out;
}

/** Catalog and custom arrays, and the custom drives and controllers. */
export function useHardwareChoices() {
  const catalog = useArrays();
  const hardware = useCustomHardware();
  const custom = splitHardware(hardware.data?.hardware ?? []);
  const arrays = [...(catalog.data?.arrays ?? []), ...custom.arrays];
  return {
    arrays,
    custom,
    isCustomArray: (id: string) => custom.arrays.some((a) => a.id === id),
    catalog,
    hardware,
  };
}

/**
 * One array (catalog or custom) and the drives it takes. For a catalog array this is
 * `GET /catalog/arrays/{id}` (plus the custom drives when it takes any drive); for a custom array
 * its record, with its drive ids looked up in the catalog's drives and the custom ones.
 */
export function useArrayDetail(arrayId: string) {
  const { custom, hardware } = useHardwareChoices();
  const customArray = custom.arrays.find((a) => a.id === arrayId);
  // a custom id is only known once the records are in: ask the catalog only for ids that are not custom
  const waiting = arrayId !== '' && hardware.isPending;
  const catalogDetail = useArray(customArray || waiting ? '' : arrayId);
  const catalogDrives = useDrives({ enabled: customArray !== undefined });

  if (customArray) {
    const known = [...(catalogDrives.data?.drives ?? []), ...custom.drives];
    const drives = customArray.any_drive ? known : (customArray.drives ?? []).map((id) => known.find((d) => d.id === id)).filter((d): d is DriveSpec => !!d);
    return {
      array: customArray,
      drives,
      groupWidths: custom.groupWidths[customArray.id] ?? {},
      nodeChoices: custom.nodeChoices[customArray.id] ?? [],
      custom: true,
      isFetching: catalogDrives.isFetching,
      isError: catalogDrives.isError,
      error: catalogDrives.error,
    };
  }
  const array = catalogDetail.data?.array;
  const drives = [...(catalogDetail.data?.drives ?? []), ...(array?.any_drive ? custom.drives : [])];
  return {
    array,
    drives,
    groupWidths: (catalogDetail.data?.group_widths ?? {}) as GroupWidths,
    nodeChoices: catalogDetail.data?.node_choices ?? [],
    custom: false,
    isFetching: catalogDetail.isFetching || waiting,
    isError: catalogDetail.isError,
    error: catalogDetail.error,
  };
}
