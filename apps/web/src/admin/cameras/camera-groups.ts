import type { Camera, CameraSystem, Store } from "@glide/contracts";

/** The group of systems and cameras whose store is gone or was never set. */
export const UNASSIGNED = "unassigned";

export interface SystemEntry {
  system: CameraSystem;
  cameras: Camera[];
}

export interface StoreGroup {
  /** The store's id, or UNASSIGNED. */
  id: string;
  store: Store | null;
  name: string;
  /** Every system and camera of the store, whatever the search: the header's counts and badge. */
  all: { systems: CameraSystem[]; cameras: Camera[] };
  /** What the search leaves on screen. */
  systems: SystemEntry[];
  standalone: Camera[];
}

/** green: online or active; red: offline or inactive; yellow: anything else (spec §4). */
export type StatusTone = "online" | "offline" | "unknown";

export function statusTone(status: string): StatusTone {
  const value = status.toLowerCase();
  if (value === "online" || value === "active") return "online";
  if (value === "offline" || value === "inactive") return "offline";
  return "unknown";
}

export interface OnlineSummary {
  label: string;
  online: number;
  total: number;
}

/**
 * The group header's badge, over its systems (online or active) and cameras
 * (online): All Online, n/m Online or All Offline; none without systems.
 */
export function onlineSummary(systems: readonly CameraSystem[], cameras: readonly Camera[]): OnlineSummary | null {
  if (systems.length === 0) return null;
  const online =
    systems.filter((system) => statusTone(system.status) === "online").length +
    cameras.filter((camera) => camera.status.toLowerCase() === "online").length;
  const total = systems.length + cameras.length;
  let label = `${online}/${total} Online`;
  if (online === total) label = "All Online";
  else if (online === 0) label = "All Offline";
  return { label, online, total };
}

const contains = (value: string | null | undefined, term: string) => value?.toLocaleLowerCase().includes(term) === true;

export const systemMatches = (system: CameraSystem, term: string) =>
  contains(system.name, term) || contains(system.brand, term) || contains(system.host, term);

export const cameraMatches = (camera: Camera, term: string) =>
  contains(camera.name, term) || contains(camera.location_zone, term);

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, "sv", { sensitivity: "base", numeric: true });

/**
 * One group per store the admin can see, stores by name and Unassigned last
 * (spec §2: each store group has an Add System to Store button, so a store
 * without systems has its group too), and applies the search (spec §4): a
 * store whose name matches keeps its whole group; otherwise a matching
 * system shows with all its cameras, a system with matching cameras shows
 * with those, and standalone cameras show when they match by name or zone.
 * A search leaves out the groups it empties; Unassigned shows only with rows.
 */
export function groupByStore(
  stores: readonly Store[],
  systems: readonly CameraSystem[],
  cameras: readonly Camera[],
  search: string,
): StoreGroup[] {
  const term = search.trim().toLocaleLowerCase();
  const known = new Map(stores.map((store) => [store.id, store]));
  const systemIds = new Set(systems.map((system) => system.id));
  const groupOf = (storeId: string | null) => (storeId && known.has(storeId) ? storeId : UNASSIGNED);

  const groups = new Map<string, StoreGroup>();
  const groupFor = (id: string): StoreGroup => {
    let group = groups.get(id);
    if (!group) {
      const store = known.get(id) ?? null;
      group = {
        id,
        store,
        name: store?.name ?? "Unassigned",
        all: { systems: [], cameras: [] },
        systems: [],
        standalone: [],
      };
      groups.set(id, group);
    }
    return group;
  };

  for (const store of stores) groupFor(store.id);

  const camerasOf = new Map<string, Camera[]>();
  for (const camera of [...cameras].sort(byName)) {
    const systemId = camera.camera_system_id && systemIds.has(camera.camera_system_id) ? camera.camera_system_id : null;
    if (systemId) camerasOf.set(systemId, [...(camerasOf.get(systemId) ?? []), camera]);
  }

  for (const system of [...systems].sort(byName)) {
    const group = groupFor(groupOf(system.store_id));
    const own = camerasOf.get(system.id) ?? [];
    group.all.systems.push(system);
    group.all.cameras.push(...own);
    const whole = !term || contains(group.store?.name, term) || systemMatches(system, term);
    const shown = whole ? own : own.filter((camera) => cameraMatches(camera, term));
    if (whole || shown.length > 0) group.systems.push({ system, cameras: shown });
  }

  for (const camera of [...cameras].sort(byName)) {
    if (camera.camera_system_id && systemIds.has(camera.camera_system_id)) continue;
    const group = groupFor(groupOf(camera.store_id));
    group.all.cameras.push(camera);
    if (!term || contains(group.store?.name, term) || cameraMatches(camera, term)) group.standalone.push(camera);
  }

  return [...groups.values()]
    .filter(
      (group) =>
        group.systems.length > 0 ||
        group.standalone.length > 0 ||
        (group.store !== null && (!term || contains(group.store.name, term))),
    )
    .sort((a, b) => {
      if (a.id === UNASSIGNED) return 1;
      if (b.id === UNASSIGNED) return -1;
      return byName(a, b);
    });
}
