import { useState } from "react";

/** The groups closed in this browser, by store id (or "unassigned"); every other group is open. */
export const COLLAPSED_GROUPS_KEY = "cameras_collapsed_groups";

function read(): Set<string> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(COLLAPSED_GROUPS_KEY) ?? "[]");
    return new Set(Array.isArray(stored) ? stored.filter((id): id is string => typeof id === "string") : []);
  } catch {
    return new Set();
  }
}

function write(ids: ReadonlySet<string>): void {
  try {
    if (ids.size === 0) localStorage.removeItem(COLLAPSED_GROUPS_KEY);
    else localStorage.setItem(COLLAPSED_GROUPS_KEY, JSON.stringify([...ids]));
  } catch {
    // Storage may be unavailable (private mode); the state then lasts for this page only.
  }
}

/** Which store groups are collapsed, remembered per group across visits. */
export function useCollapsedGroups() {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(read);
  const setOpen = (id: string, open: boolean) => {
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (open) next.delete(id);
      else next.add(id);
      write(next);
      return next;
    });
  };
  return { isOpen: (id: string) => !collapsed.has(id), setOpen };
}
