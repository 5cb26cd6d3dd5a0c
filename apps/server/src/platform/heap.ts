/**
 * How the server's heap is collected, set as the process starts (the first
 * import of main.ts, before any request has been served).
 *
 * V8 makes the objects of an allocation site in the old generation from
 * the start once most of them have been seen to survive a young collection
 * ("pretenuring"), and does not take that back. A request's objects live
 * for milliseconds, but at a peak requests wait tens of milliseconds for
 * the database and theirs survive: from then on every scan's parsed rows
 * and response headers were born old. The old generation grew by 20 MB/s
 * at 500 scans/s, and a full collection every 5–7 s took a core from
 * PostgreSQL for about 40 ms of marking and paused the server 5–12 ms
 * more: each held up 25–55 scans past 25 ms, the steady scan's whole p99.
 * Without pretenuring the old generation stays flat under that load, with
 * no full collection at all; what does live long is copied once more on
 * its way there (bench/results.md, Cart).
 *
 * V8 consults the flag when it reviews its allocation sites at young
 * collections, so setting it here, before the first request is served, is
 * enough: the figures above were measured with it set this way.
 */
import v8 from "node:v8";

v8.setFlagsFromString("--no-allocation-site-pretenuring");
