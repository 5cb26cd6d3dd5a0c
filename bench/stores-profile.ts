/**
 * Where `GET /api/v1/stores/`'s time goes in the server: the same load as
 * the measured run once more, with V8's sampling profiler on in the server
 * (bench/cpu-profile.ts). Its requests/s are not the measured ones.
 */
import { foldStacks, startProfiler, type TopFrame, timeByPlace, topFrames } from "./cpu-profile.ts";
import { autocannon, HOST, type Server } from "./lib.ts";

export type StoresProfile = {
  rps: number;
  busyMs: number;
  idleShare: number;
  frames: TopFrame[];
  places: [string, number][];
};

export async function profiledStores(
  server: Server,
  load: { route: string; connections: number; duration: number },
): Promise<StoresProfile | { skipped: string }> {
  if (server.inspectPort === undefined) return { skipped: "the server was started without an inspector port" };
  const profiler = await startProfiler(server.pid, server.inspectPort);
  const run = await autocannon({
    url: `http://${HOST}:${server.port}${load.route}`,
    connections: load.connections,
    duration: load.duration,
    headers: { cookie: server.session },
  });
  const folded = foldStacks(await profiler.stop());
  return { rps: run.requests.average, ...topFrames(folded, 12), places: timeByPlace(folded).slice(0, 10) };
}

const pct = (share: number) => `${(100 * share).toFixed(1)} %`;

/** The profile as the section's "where the time goes". */
export function storesProfileSection(profile: StoresProfile | { skipped: string } | undefined): string {
  if (!profile) return "";
  if ("skipped" in profile) return `\n### Where the server's time goes\n\nNot profiled: ${profile.skipped}\n`;
  const frames = profile.frames.map((f) => `| \`${f.name}\` | ${pct(f.selfShare)} | ${pct(f.totalShare)} |`);
  const places = profile.places.map(([place, share]) => `| \`${place}\` | ${pct(share)} |`);
  return `
### Where the server's time goes (PostgreSQL case)

The PostgreSQL case's load once more (${Math.round(profile.rps)} requests/s) with V8's sampling profiler on in the server (bench/cpu-profile.ts): ${Math.round(profile.busyMs)} ms of busy samples; the server's main thread was idle ${pct(profile.idleShare)} of the run.

| frame | self | with callees |
|---|---:|---:|
${frames.join("\n")}

| package or source folder | share of busy time |
|---|---:|
${places.join("\n")}
`;
}
