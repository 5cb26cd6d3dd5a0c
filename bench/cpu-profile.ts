/**
 * Where a server's CPU goes under load: V8's sampling profiler, switched on
 * in the running server only for the measured window, over the inspector
 * protocol. The server is started with `--inspect-port=<port>` (which opens
 * nothing); SIGUSR1 opens the inspector on that port when it is wanted, so
 * the other runs of the section are measured without it.
 */
import { writeFileSync } from "node:fs";

type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
export type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

/** Starts the profiler in the process listening for the inspector on `port`; `stop` answers the profile. */
export async function startProfiler(pid: number, port: number): Promise<{ stop(): Promise<CpuProfile> }> {
  process.kill(pid, "SIGUSR1");
  let target: { webSocketDebuggerUrl: string } | undefined;
  for (let i = 0; i < 50 && !target; i++) {
    target = await fetch(`http://127.0.0.1:${port}/json/list`)
      .then((r) => r.json() as Promise<{ webSocketDebuggerUrl: string }[]>)
      .then((list) => list[0])
      .catch(() => undefined);
    if (!target) await new Promise((r) => setTimeout(r, 100));
  }
  if (!target) throw new Error(`the server's inspector did not open on port ${port}`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => resolve(), { once: true });
    socket.addEventListener("error", () => reject(new Error("inspector socket failed")), { once: true });
  });
  let next = 1;
  const pending = new Map<number, (result: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 200 });
  await send("Profiler.start");
  return {
    async stop() {
      const { profile } = (await send("Profiler.stop")) as { profile: CpuProfile };
      await send("Profiler.disable");
      socket.close();
      return profile;
    },
  };
}

/** A frame's name as the graphs show it: function, then file and line (or the package under node_modules). */
function frameName(frame: CallFrame): string {
  const fn = frame.functionName || "(anonymous)";
  if (!frame.url) return fn;
  const inModules = frame.url.split("node_modules/").pop()!;
  const where = frame.url.includes("node_modules/")
    ? inModules
        .split("/")
        .slice(0, inModules.startsWith("@") ? 2 : 1)
        .join("/")
    : frame.url.replace(/^file:\/\/.*?\/(apps|packages)\//, "$1/").replace(/^node:/, "node:");
  return `${fn} ${where}:${frame.lineNumber + 1}`;
}

/** Stacks with their sampled time (µs), root first: the folded form flame graphs are drawn from. */
export function foldStacks(profile: CpuProfile): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = new Map<number, string>();
  const stack = (id: number): string => {
    const known = stackOf.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    const up = parent.get(id);
    const name = frameName(node.callFrame).replaceAll(";", ",");
    const full = up === undefined || byId.get(up)!.callFrame.functionName === "(root)" ? name : `${stack(up)};${name}`;
    stackOf.set(id, full);
    return full;
  };
  const folded = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const key = stack(id);
    folded.set(key, (folded.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return folded;
}

export type TopFrame = { name: string; selfShare: number; totalShare: number };

/** The frames with the most time of their own, with the share of the busy time they and their callees take. */
export function topFrames(
  folded: Map<string, number>,
  count = 15,
): { busyMs: number; idleShare: number; frames: TopFrame[] } {
  let all = 0;
  let idle = 0;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  for (const [stack, us] of folded) {
    all += us;
    const frames = stack.split(";");
    if (frames[0] === "(idle)") {
      idle += us;
      continue;
    }
    const leaf = frames.at(-1)!;
    self.set(leaf, (self.get(leaf) ?? 0) + us);
    for (const f of new Set(frames)) total.set(f, (total.get(f) ?? 0) + us);
  }
  const busy = all - idle;
  const frames = [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => ({ name, selfShare: us / busy, totalShare: (total.get(name) ?? us) / busy }));
  return { busyMs: busy / 1000, idleShare: all ? idle / all : 0, frames };
}

/** Busy time per package or source folder, counted once per sample however deep it sits in the stack. */
export function timeByPlace(folded: Map<string, number>): [string, number][] {
  let busy = 0;
  const byPlace = new Map<string, number>();
  for (const [stack, us] of folded) {
    if (stack.startsWith("(idle)")) continue;
    busy += us;
    const places = new Set(
      stack
        .split(";")
        .map((f) => f.split(" ").pop()!.replace(/:\d+$/, ""))
        .map((where) => (where.startsWith("apps/") ? where.split("/").slice(0, 5).join("/") : where)),
    );
    for (const p of places) byPlace.set(p, (byPlace.get(p) ?? 0) + us);
  }
  return [...byPlace.entries()].map(([p, us]) => [p, us / busy] as [string, number]).sort((a, b) => b[1] - a[1]);
}

const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A flame graph (SVG) of the busy samples: each frame as wide as its share, callees above their caller. */
export function writeFlameGraph(folded: Map<string, number>, file: string, title: string): void {
  type Box = { name: string; us: number; children: Map<string, Box> };
  const root: Box = { name: "all", us: 0, children: new Map() };
  for (const [stack, us] of folded) {
    if (stack.startsWith("(idle)")) continue;
    root.us += us;
    let at = root;
    for (const name of stack.split(";")) {
      let child = at.children.get(name);
      if (!child) {
        child = { name, us: 0, children: new Map() };
        at.children.set(name, child);
      }
      child.us += us;
      at = child;
    }
  }
  const width = 1200;
  const row = 16;
  const rects: string[] = [];
  let depth = 0;
  const draw = (box: Box, x: number, level: number) => {
    const w = (box.us / root.us) * width;
    if (w < 0.3) return;
    depth = Math.max(depth, level);
    const hue = box.name.includes("node_modules") || !box.name.includes("apps/") ? 20 : 200;
    const label = w > 40 ? xml(box.name).slice(0, Math.floor(w / 7)) : "";
    rects.push(
      `<g><title>${xml(box.name)} (${((100 * box.us) / root.us).toFixed(1)} %)</title>` +
        `<rect x="${x.toFixed(1)}" y="LEVEL${level}" width="${w.toFixed(1)}" height="${row - 1}" fill="hsl(${hue},70%,${60 + (level % 3) * 8}%)"/>` +
        `<text x="${(x + 2).toFixed(1)}" y="LEVEL${level}T" font-size="11">${label}</text></g>`,
    );
    let cx = x;
    for (const child of [...box.children.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      draw(child, cx, level + 1);
      cx += (child.us / root.us) * width;
    }
  };
  draw(root, 0, 0);
  const height = (depth + 3) * row;
  const svg = rects
    .join("\n")
    .replace(/y="LEVEL(\d+)"/g, (_m, l: string) => `y="${height - (Number(l) + 1) * row}"`)
    .replace(/y="LEVEL(\d+)T"/g, (_m, l: string) => `y="${height - (Number(l) + 1) * row + 12}"`);
  writeFileSync(
    file,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height + row}" font-family="monospace">\n` +
      `<title>${xml(title)}</title>\n` +
      `<text x="0" y="12" font-size="12">${xml(title)}</text>\n${svg}\n</svg>\n`,
  );
}
