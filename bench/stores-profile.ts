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

/** What the profile led to, from measurements of code that is gone (not re-measured by a run). */
const FINDINGS = `**Where the time went, and one change (issue 26)** (2026-11-29, 14:53–15:33 UTC, one host, runs back to back).
The first profile of this route (1,120 requests/s, 7 % of the bare route) showed the server's main thread busy 92.5 % of
the run, so the server, not PostgreSQL, is what limits it. Its time went to socket writes (\`writeBuffer\`, \`writev\`,
\`writeUtf8String\`: 27 %), Drizzle's mapping of each store row into objects (\`is\` 7.7 %, its mapper 8.5 %), the
garbage collector (11 %), and the zod response serializer, which checks the 29 KB answer against its schema on every
request (7 %). The list is now read as plain rows in the shape the mapper to the API takes, and Drizzle's share fell
to about 3 % (the session's query). Two runs of each, the old code and this one: 1,014 and 1,120 requests/s before,
1,127 and 1,316 after. That is a gain of a tenth to a fifth, within what runs here differ by, and far from the goal of
25 % of the bare route (about 4,200/s). At that goal a request may cost the server about 0.24 ms beside the bare
route's; today it costs about 0.7 to 0.8 ms. The PGlite case has the same long tail in both codes (a few requests waiting
up to 10 s for the one embedded connection), which sometimes crosses the 10 s timeout.

**The list kept per instance (issue 26)** (2026-11-29, 22:51–23:31 UTC, another host than the runs above: its bare
route did 6,228–7,509 requests/s where the first host's did 15,936). Three changes: the answer is kept per instance
as its JSON bytes, under a version that every write to a store or its modules raises at its commit
(\`store_list_changes\`, migration 0030; docs/architecture.md), so a request reads one small sum instead of the list;
the session's query is built once (a prepared statement; Drizzle built it on every request: \`is\` 8.1 % and its
query builder 10 % of the thread); and helmet's headers are worked out once (\`platform/security-headers.ts\`; 4 % of
the thread went to building them on every request). Runs on this host: the code before (df0de60) 586 requests/s, 9 %
of the bare route in its run; the list kept as text, alone, 1,502 (20 %); kept as bytes, with the session's query
built once, 3,081 (44 %); the version read as the sum of a change log rather than one row that writers would take
in turn, 3,188 (50 %); with the headers worked out once, 2,828 (40 %), 3,270 (53 %) and
2,949 (39 %, the table above). Runs of one
code differ here by a tenth or more. The server's thread is now busy mostly
in socket writes (\`writev\` 44 %: the kernel's loopback for the 29 KB answer and the two statements); what is left per
request is the session's statement and the version's.`;

/** The profile as the section's "where the time goes". */
export function storesProfileSection(profile: StoresProfile | { skipped: string } | undefined): string {
  if (!profile) return "";
  if ("skipped" in profile) return `\n### Where the server's time goes\n\nNot profiled: ${profile.skipped}\n`;
  const frames = profile.frames.map((f) => `| \`${f.name}\` | ${pct(f.selfShare)} | ${pct(f.totalShare)} |`);
  const places = profile.places.map(([place, share]) => `| \`${place}\` | ${pct(share)} |`);
  return `
### Where the server's time goes (PostgreSQL case)

${FINDINGS}

The PostgreSQL case's load once more (${Math.round(profile.rps)} requests/s) with V8's sampling profiler on in the server (bench/cpu-profile.ts): ${Math.round(profile.busyMs)} ms of busy samples; the server's main thread was idle ${pct(profile.idleShare)} of the run.

| frame | self | with callees |
|---|---:|---:|
${frames.join("\n")}

| package or source folder | share of busy time |
|---|---:|
${places.join("\n")}
`;
}
