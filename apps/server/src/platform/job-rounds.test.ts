import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../db/client.ts";
import { createTestContext, type TestContext } from "../test/harness.ts";
import { claimRound, roundSlackMs, schedulePeriodic } from "./housekeeping.ts";

/**
 * A background job's round runs on one instance of all: each instance's
 * timer claims the round in the database, and only the first claim within
 * an interval wins.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const roundsOf = async (job: string) =>
  (await queryRows<{ rounds: number }>(ctx.app.db, sql`select rounds from job_rounds where job = ${job}`))[0]?.rounds ??
  0;
/** Moves the job's last round back as if it had begun `ms` ago. */
const startedAgo = (job: string, ms: number) =>
  ctx.app.db.execute(
    sql`update job_rounds set started_at = now() - make_interval(secs => ${ms / 1000}) where job = ${job}`,
  );

describe("claiming a job's round", () => {
  it("gives the round to exactly one of many instances asking at once, the first time and when it is due", async () => {
    const every = 60_000;
    const first = await Promise.all(Array.from({ length: 6 }, () => claimRound(ctx.app.db, "at-once", every)));
    expect(first.filter(Boolean)).toHaveLength(1);
    expect(await roundsOf("at-once")).toBe(1);
    // Not due yet: nobody.
    expect(await claimRound(ctx.app.db, "at-once", every)).toBe(false);
    await startedAgo("at-once", every);
    const due = await Promise.all(Array.from({ length: 6 }, () => claimRound(ctx.app.db, "at-once", every)));
    expect(due.filter(Boolean)).toHaveLength(1);
    expect(await roundsOf("at-once")).toBe(2);
    // Another job's rounds are its own.
    expect(await claimRound(ctx.app.db, "another", every)).toBe(true);
  });

  it("counts a round as due from its interval less the slack, and not a second before", async () => {
    const every = 60_000;
    expect(roundSlackMs(every)).toBe(5_000);
    expect(roundSlackMs(10_000)).toBe(1_000);
    expect(await claimRound(ctx.app.db, "edge", every)).toBe(true);
    await startedAgo("edge", every - roundSlackMs(every) - 1_000);
    expect(await claimRound(ctx.app.db, "edge", every)).toBe(false);
    await startedAgo("edge", every - roundSlackMs(every) + 100);
    expect(await claimRound(ctx.app.db, "edge", every)).toBe(true);
    expect(await roundsOf("edge")).toBe(2);
  });

  it("runs a timer's round on one of three instances, and a kick on the instance kicked", async () => {
    const every = 400;
    const runs = [0, 0, 0];
    const apps = runs.map(() => Fastify().decorate("db", ctx.app.db));
    for (const [i, app] of apps.entries()) {
      schedulePeriodic(
        app,
        "three instances",
        every,
        async () => {
          runs[i]!++;
        },
        { oncePerRound: true },
      );
    }
    const began = Date.now();
    await sleep(2_000);
    await Promise.all(apps.map((app) => app.close()));
    const elapsed = Date.now() - began;
    const total = runs.reduce((a, b) => a + b, 0);
    // Each instance's timer fired about five times; one round per interval (less the slack) ran, not three.
    expect(total).toBe(await roundsOf("three instances"));
    expect(total).toBeGreaterThanOrEqual(1);
    expect(total).toBeLessThanOrEqual(Math.ceil(elapsed / (every - roundSlackMs(every))) + 1);

    const kicked = Fastify().decorate("db", ctx.app.db);
    let ran = 0;
    const job = schedulePeriodic(
      kicked,
      "three instances",
      60_000,
      async () => {
        ran++;
      },
      { oncePerRound: true },
    );
    job.kick();
    await job.idle();
    expect(ran).toBe(1);
    expect(await roundsOf("three instances")).toBe(total);
    await kicked.close();
  });
});
