import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { schedulePeriodic } from "./housekeeping.ts";

/** A job whose runs wait until released, counting runs and how many overlap. */
function gatedJob() {
  const state = { runs: 0, running: 0, mostAtOnce: 0, release: () => {}, fail: false };
  const run = async () => {
    state.runs++;
    state.running++;
    state.mostAtOnce = Math.max(state.mostAtOnce, state.running);
    await new Promise<void>((resolve) => {
      state.release = resolve;
    });
    state.running--;
    if (state.fail) throw new Error("boom");
  };
  return { state, run };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("schedulePeriodic", () => {
  it("never runs twice at once; kicks during a run make one more run after it, not one each", async () => {
    const app = Fastify();
    const { state, run } = gatedJob();
    const job = schedulePeriodic(app, "test", 60_000, run);
    job.kick();
    for (let i = 0; i < 5; i++) job.kick();
    await tick();
    expect(state.runs).toBe(1);
    state.release();
    await tick();
    await tick();
    expect(state.runs).toBe(2);
    state.release();
    await job.idle();
    expect(state.runs).toBe(2);
    expect(state.mostAtOnce).toBe(1);
    await app.close();
  });

  it("a failed run is logged and the next kick runs again", async () => {
    const lines: string[] = [];
    const app = Fastify({ logger: { level: "warn", stream: { write: (line: string) => lines.push(line) } } });
    const { state, run } = gatedJob();
    const job = schedulePeriodic(app, "test", 60_000, run);
    state.fail = true;
    job.kick();
    await tick();
    state.release();
    await job.idle();
    expect(lines.filter((line) => line.includes("periodic job failed"))).toHaveLength(1);
    state.fail = false;
    job.kick();
    await tick();
    state.release();
    await job.idle();
    expect(state.runs).toBe(2);
    await app.close();
  });

  it("a run failed by the database going away is not logged again here; any other failure is, with the job's name", async () => {
    const lines: string[] = [];
    const app = Fastify({ logger: { level: "warn", stream: { write: (line: string) => lines.push(line) } } });
    let failure: Error = Object.assign(new Error("terminating connection due to administrator command"), {
      code: "57P01",
    });
    const job = schedulePeriodic(app, "mail-outbox", 60_000, async () => {
      throw failure;
    });
    job.kick();
    await job.idle();
    await tick();
    expect(lines).toEqual([]);
    failure = new Error("no such template");
    job.kick();
    await job.idle();
    await tick();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ job: "mail-outbox", msg: "periodic job failed" });
    expect(lines[0]).toContain("no such template");
    await app.close();
  });

  it("closing waits for the run under way; after it, kicks do nothing", async () => {
    const app = Fastify();
    const { state, run } = gatedJob();
    const job = schedulePeriodic(app, "test", 60_000, run);
    job.kick();
    await tick();
    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    await tick();
    expect(closed).toBe(false);
    state.release();
    await closing;
    job.kick();
    await tick();
    expect(state.runs).toBe(1);
  });

  it("runs on its timer", async () => {
    const app = Fastify();
    let runs = 0;
    schedulePeriodic(app, "test", 20, async () => {
      runs++;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runs).toBeGreaterThanOrEqual(2);
    await app.close();
  });
});
