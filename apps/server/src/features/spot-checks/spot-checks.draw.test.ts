import { afterEach, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { shop, shopper, type TestShopper } from "../../test/factories.ts";
import {
  ctx,
  decide,
  exit,
  flagged,
  flaggedVisit,
  returningShopper,
  setShare,
  soap,
  store,
  useSpotChecksApp,
} from "../../test/spot-checks.fixtures.ts";
import { pickForSpotCheck, useSpotCheckRandom } from "./exit-draw.ts";

/**
 * Which exits are picked for a spot check, at the gate and when paying from
 * the phone, and what the phone says then.
 */
useSpotChecksApp();

/** The draws the tests here fix themselves, put back after each test. */
let restoreRandom: (() => void) | null = null;
afterEach(() => restoreRandom?.());

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("picking exits for a spot check", () => {
  it("picks the store's share of 10,000 exits, within four standard deviations", () => {
    const n = 10_000;
    for (const share of [0, 0.1, 0.2]) {
      const draw = seeded(42 + share * 100);
      let picked = 0;
      for (let i = 0; i < n; i++) if (pickForSpotCheck(share, false, draw())) picked++;
      const sigma = Math.sqrt(n * share * (1 - share));
      expect(Math.abs(picked - n * share), `share ${share}: ${picked}`).toBeLessThanOrEqual(4 * sigma);
      if (share === 0) expect(picked).toBe(0);
    }
  });

  it("never picks a shopper's first visit, whatever the draw", () => {
    const draw = seeded(7);
    for (let i = 0; i < 10_000; i++) expect(pickForSpotCheck(0.2, true, draw())).toBe(false);
    expect(pickForSpotCheck(0.2, false, 0.1999)).toBe(true);
    expect(pickForSpotCheck(0.2, false, 0.2)).toBe(false);
  });
});

describe("spot checks at the exit gate", () => {
  it("draws each real exit against the store's share, never a first visit, and none at 0", async () => {
    // The rate itself is pickForSpotCheck's (tested above over 10,000 draws); here, that the gate draws each exit once.
    const random = seeded(2024);
    const draws: number[] = [];
    restoreRandom = useSpotCheckRandom(() => {
      const d = random();
      draws.push(d);
      return d;
    });
    await setShare(0.2);
    const exits: { visit: string; first: boolean; draw: number }[] = [];
    for (let i = 0; i < 6; i++) {
      const who = await shopper(ctx.app);
      for (let j = 0; j < 4; j++) {
        const visit = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
        const before = draws.length;
        await exit(who, visit);
        expect(draws.length).toBe(before + 1);
        exits.push({ visit, first: j === 0, draw: draws.at(-1)! });
      }
    }
    const returning = exits.filter((e) => !e.first);
    // The seed gives both kinds of returning exit, so both sides of the share are seen.
    expect(returning.some((e) => e.draw < 0.2)).toBe(true);
    expect(returning.some((e) => e.draw >= 0.2)).toBe(true);
    for (const e of exits) expect(await flagged(e.visit), JSON.stringify(e)).toBe(!e.first && e.draw < 0.2 ? 1 : 0);

    await setShare(0);
    restoreRandom();
    restoreRandom = useSpotCheckRandom(() => 0);
    const who = await returningShopper();
    for (let i = 0; i < 3; i++) {
      const visit = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
      await exit(who, visit);
      expect(await flagged(visit)).toBe(0);
    }
  });

  it("flags a visit once however often the gate reads it, with its event", async () => {
    restoreRandom = useSpotCheckRandom(() => 0);
    await setShare(0.2);
    const who = await returningShopper();
    const visit = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
    await exit(who, visit);
    await exit(who, visit);
    expect(await flagged(visit)).toBe(1);
    const events = await queryRows<{ source: string }>(
      ctx.app.db,
      sql`select source from session_events where session_id = ${visit} and kind = 'spot_check_flagged'`,
    );
    expect(events).toEqual([{ source: "system" }]);
  });
});

describe("a spot check that cannot be recorded", () => {
  it("never keeps a paying shopper in: the gate opens and the phone's payment is answered", async () => {
    restoreRandom = useSpotCheckRandom(() => 0);
    await setShare(0.2);
    const who = await returningShopper();
    await ctx.app.db.execute(sql`create function refuse_spot_check() returns trigger language plpgsql as $$
      begin raise exception 'spot checks are down'; end $$`);
    await ctx.app.db.execute(
      sql`create trigger refuse_spot_check before insert on spot_checks for each row execute function refuse_spot_check()`,
    );
    try {
      const atGate = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
      const { res } = await exit(who, atGate);
      expect(res.json()).toMatchObject({ gate_opened: true, status: "paid" });
      await shop(ctx.app, who, store, [[soap.barcode, 1]]);
      const paid = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().status).toBe("paid");
    } finally {
      await ctx.app.db.execute(sql`drop trigger refuse_spot_check on spot_checks`);
      await ctx.app.db.execute(sql`drop function refuse_spot_check()`);
    }
  });
});

describe("spot checks when the shopper pays from the phone", () => {
  const payFromPhone = async (who: TestShopper) => {
    const res = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe("paid");
  };

  it("draws a visit paid after the face check or with 'Kunde inte scanna?', as at the gate", async () => {
    restoreRandom = useSpotCheckRandom(() => 0);
    await setShare(0.2);
    const who = await shopper(ctx.app);
    const first = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
    await payFromPhone(who);
    // The first visit to the store is never picked, whatever the draw.
    expect(await flagged(first)).toBe(0);
    const second = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
    await payFromPhone(who);
    expect(await flagged(second)).toBe(1);
    const status = (await who.call({ method: "GET", url: "/api/v1/exit/status" })).json();
    expect(status.notice).toBe("Personalen gör en snabb kontroll vid utgången.");
  });

  it("gives a visit one draw, whichever exit comes first and however often", async () => {
    await setShare(0.2);
    const who = await returningShopper();
    const visit = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
    restoreRandom = useSpotCheckRandom(() => 0.5);
    await payFromPhone(who);
    expect(await flagged(visit)).toBe(0);
    // A draw that would pick, too late: paying again and the gate's read are the same exit.
    restoreRandom();
    restoreRandom = useSpotCheckRandom(() => 0);
    await payFromPhone(who);
    await exit(who, visit);
    expect(await flagged(visit)).toBe(0);

    // The other way round: the gate's read draws, paying from the phone afterwards does not draw again.
    const next = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
    restoreRandom();
    restoreRandom = useSpotCheckRandom(() => 0.5);
    await exit(who, next);
    restoreRandom();
    restoreRandom = useSpotCheckRandom(() => 0);
    await payFromPhone(who);
    expect(await flagged(next)).toBe(0);
  });

  it("does not draw an empty visit or one at a share of 0", async () => {
    restoreRandom = useSpotCheckRandom(() => 0);
    await setShare(0.2);
    const who = await returningShopper();
    const empty = await shop(ctx.app, who, store, []);
    const res = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
    expect(res.json().status).toBe("empty");
    expect(await flagged(empty)).toBe(0);
    await setShare(0);
    const paid = await shop(ctx.app, who, store, [[soap.barcode, 1]]);
    await payFromPhone(who);
    expect(await flagged(paid)).toBe(0);
  });
});

describe("the phone at a spot check", () => {
  const status = async (who: TestShopper) =>
    (await who.call({ method: "GET", url: "/api/v1/exit/status" })).json() as { state: string; notice?: string };

  it("says staff will check, only on a picked visit and only until staff have recorded the check", async () => {
    restoreRandom = useSpotCheckRandom(() => 0.5);
    await setShare(0.2);
    const passed = await returningShopper();
    const visit = await shop(ctx.app, passed, store, [[soap.barcode, 1]]);
    await exit(passed, visit);
    // A returning shopper drawn 0.5 at a share of 0.2: not picked, nothing said.
    expect(await flagged(visit)).toBe(0);
    expect(await status(passed)).toMatchObject({ state: "paid" });
    expect(await status(passed)).not.toHaveProperty("notice");
    restoreRandom();
    const { who, check } = await flaggedVisit(1);
    expect(await status(who)).toMatchObject({
      state: "paid",
      notice: "Personalen gör en snabb kontroll vid utgången.",
    });
    expect((await decide(check.id, { outcome: "ok" })).statusCode).toBe(200);
    expect(await status(who)).not.toHaveProperty("notice");
    expect((await status(who)).state).toBe("paid");
  });
});
