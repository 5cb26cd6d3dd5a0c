import { randomBytes } from "node:crypto";
import { linkSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

export class DataFolderLockedError extends Error {}

/**
 * Who holds a lock. A pid alone repeats (PID 1 in every container); with its
 * start time and boot it does not. `socket` names a Unix socket in the data
 * folder that the holder listens on: it answers only while the holder runs,
 * which also tells a container whose pids are not ours.
 */
type Holder = { pid: number; start: string | null; boot: string | null; socket: string | null };

/** Folders this process holds, so a second opener in the same process is refused on any platform. */
const held = new Set<string>();

/** A Unix socket's path must fit in sockaddr_un (108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 100;

/**
 * PGlite is single-process: a second process opening the same folder would
 * corrupt it. A lock file names the holder; a lock whose holder no longer
 * runs (its socket refuses, or: another boot, a pid that is gone or now
 * belongs to a newer process, our own pid from an earlier life) is taken
 * over. Returns the release function.
 */
export async function lockFolder(dataDir: string): Promise<() => void> {
  const file = path.join(dataDir, "db.lock");
  const key = path.resolve(file);
  if (held.has(key)) throw inUse(dataDir, process.pid);
  const socketName = `db-${randomBytes(6).toString("hex")}.sock`;
  const beacon = await listenBeacon(path.join(dataDir, socketName));
  const me = JSON.stringify({ ...holderOf(process.pid), socket: beacon ? socketName : null });
  const dropBeacon = () => {
    beacon?.close();
    if (beacon) rmSync(path.join(dataDir, socketName), { force: true });
  };
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      // Written whole under another name, then linked: a reader never sees a half-written lock.
      const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
      writeFileSync(temp, me);
      try {
        linkSync(temp, file);
        held.add(key);
        return () => {
          held.delete(key);
          if (readLock(file) === me) rmSync(file, { force: true });
          dropBeacon();
        };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      } finally {
        rmSync(temp, { force: true });
      }
      const holder = parseHolder(readLock(file));
      if (holder && (await isAlive(holder, dataDir))) throw inUse(dataDir, holder.pid);
      rmSync(file, { force: true });
      if (holder?.socket) rmSync(path.join(dataDir, holder.socket), { force: true });
    }
    throw new DataFolderLockedError(`Could not lock the data folder ${dataDir}`);
  } catch (err) {
    dropBeacon();
    throw err;
  }
}

function inUse(dataDir: string, pid: number): DataFolderLockedError {
  return new DataFolderLockedError(
    `The data folder ${dataDir} is in use by another process (pid ${pid}). ` +
      "Stop it first, or set DATA_DIR to another folder.",
  );
}

function readLock(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** A socket that only says "here": the kernel closes it when the process ends, however it ends. */
async function listenBeacon(socketPath: string): Promise<net.Server | null> {
  if (socketPath.length > MAX_SOCKET_PATH || process.platform === "win32") return null;
  const server = net.createServer((socket) => socket.destroy());
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, resolve);
    });
  } catch {
    return null;
  }
  // It must not keep the process running on its own.
  server.unref();
  return server;
}

/**
 * "alive" when the holder's socket answers, "gone" when its file is there but
 * nobody listens (the holder died: the kernel closed it), "unknown" otherwise;
 * a missing file is unknown, as someone may have deleted it under a live holder.
 */
function probeBeacon(socketPath: string): Promise<"alive" | "gone" | "unknown"> {
  if (socketPath.length > MAX_SOCKET_PATH) return Promise.resolve("unknown");
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    const done = (answer: "alive" | "gone" | "unknown") => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done("unknown"), 1_000);
    socket.once("connect", () => done("alive"));
    socket.once("error", (err: NodeJS.ErrnoException) => done(err.code === "ECONNREFUSED" ? "gone" : "unknown"));
  });
}

/** The lock's holder; an older lock holds only the pid. Anything else is garbage and is taken over. */
export function parseHolder(text: string | null): Holder | null {
  if (text === null) return null;
  if (/^\s*\d+\s*$/.test(text)) return { pid: Number(text), start: null, boot: null, socket: null };
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    if (!Number.isSafeInteger(value.pid) || (value.pid ?? 0) <= 0) return null;
    const str = (v: unknown) => (typeof v === "string" && v ? v : null);
    // Only a plain file name: the lock must not send us probing or deleting elsewhere.
    const socket = str(value.socket);
    const safeSocket = socket && /^db-[0-9a-f]+\.sock$/.test(socket) ? socket : null;
    return { pid: value.pid as number, start: str(value.start), boot: str(value.boot), socket: safeSocket };
  } catch {
    return null;
  }
}

/** Whether the process that wrote the lock still runs. */
export async function isAlive(holder: Holder, dataDir: string): Promise<boolean> {
  // The socket is the one sign that holds across containers sharing the folder, whose pids are not ours.
  if (holder.socket) {
    const answer = await probeBeacon(path.join(dataDir, holder.socket));
    if (answer !== "unknown") return answer === "alive";
  }
  const boot = bootId();
  if (holder.boot && boot && holder.boot !== boot) return false;
  const start = startTime(holder.pid);
  // Our own pid: alive only if it is this very life of the process (one opener in another module instance).
  if (holder.pid === process.pid) return holder.start !== null && holder.start === start;
  if (!isRunning(holder.pid)) return false;
  // Without start times (not Linux, or an older lock) a running pid is taken to be the holder.
  return holder.start === null || start === null || holder.start === start;
}

export function holderOf(pid: number): Omit<Holder, "socket"> {
  return { pid, start: startTime(pid), boot: bootId() };
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks after boot (Linux only). */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces; fields 3… follow the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[22 - 3] ?? null;
  } catch {
    return null;
  }
}

function bootId(): string | null {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || null;
  } catch {
    return null;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
