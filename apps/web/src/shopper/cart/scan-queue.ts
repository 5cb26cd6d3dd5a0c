/*
 * Scans that have not reached the server yet. A store is often a radio
 * shadow: a scan whose request fails is kept here, on the phone, with the
 * scan_id it was made with, and sent again until the server answers. The
 * server adds a scan_id once, so a scan that did arrive but whose answer was
 * lost is never counted twice.
 */

const KEY = "glide_scan_queue";

export interface PendingScan {
  scan_id: string;
  session_id: string;
  barcode: string;
  /** When it was scanned, ms since epoch. */
  at: number;
}

function readAll(): PendingScan[] {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? "[]") as unknown;
    return Array.isArray(value) ? (value as PendingScan[]).filter((scan) => typeof scan?.scan_id === "string") : [];
  } catch {
    return [];
  }
}

function writeAll(scans: PendingScan[]): void {
  try {
    if (scans.length) localStorage.setItem(KEY, JSON.stringify(scans));
    else localStorage.removeItem(KEY);
  } catch {
    // No storage: the queue then lasts as long as the page.
  }
}

/** A random UUID, also where crypto.randomUUID is missing (pages not served over https). */
export function newScanId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const scanQueue = {
  /** This visit's waiting scans, oldest first; another visit's leftovers are dropped. */
  list(sessionId: string): PendingScan[] {
    const all = readAll();
    const mine = all.filter((scan) => scan.session_id === sessionId);
    if (mine.length !== all.length) writeAll(mine);
    return mine;
  },
  add(scan: PendingScan): void {
    writeAll([...readAll().filter((queued) => queued.scan_id !== scan.scan_id), scan]);
  },
  remove(scanId: string): void {
    writeAll(readAll().filter((scan) => scan.scan_id !== scanId));
  },
};
