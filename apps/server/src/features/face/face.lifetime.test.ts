import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  ctx,
  descriptorOf,
  EXIT,
  enter,
  openDoor,
  people,
  scanJuice,
  shopper,
  sim,
  snapshotsTaken,
  stranger,
  useFaceStore,
} from "../../test/face-store.ts";

/** Nothing about a face outlives its visit, and a burst of checks costs one look (the store of test/face-store.ts). */
useFaceStore();

describe("nothing about a face outlives its visit", () => {
  it("withdrawn consent deletes the face at once; the exit then asks for the QR code", async () => {
    const eva = await shopper();
    const visit = await enter(eva, people[0] as Buffer);
    expect(await descriptorOf(visit)).not.toBeNull();
    await eva.consent(false);
    expect(await descriptorOf(visit)).toBeNull();
    expect(await eva.verify()).toEqual({ status: "not_verified", reason: "no_consent" });
  });

  it("paying from the phone, an empty visit ended, the sweep's close and passing the gate each delete it", async () => {
    const paid = await shopper();
    const paidVisit = await enter(paid, people[0] as Buffer);
    await scanJuice(paid, paidVisit);
    await paid.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: paid.id } });
    expect(await descriptorOf(paidVisit)).toBeNull();

    const empty = await shopper();
    const emptyVisit = await enter(empty, people[0] as Buffer);
    expect(await descriptorOf(emptyVisit)).not.toBeNull();
    await empty.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: empty.id } });
    expect(await descriptorOf(emptyVisit)).toBeNull();

    // The abandoned sweep is one statement of SQL: the database's trigger reaches what it closes.
    const gone = await shopper();
    const goneVisit = await enter(gone, people[0] as Buffer);
    await ctx.app.db.execute(
      sql`update shopping_sessions set state = 'ended_empty', abandoned_at = now() where id = ${goneVisit}`,
    );
    expect(await descriptorOf(goneVisit)).toBeNull();

    const out = await shopper();
    const outVisit = await enter(out, people[0] as Buffer);
    await ctx.app.db.execute(sql`update shopping_sessions set exited_at = now() where id = ${outVisit}`);
    expect(await descriptorOf(outVisit)).toBeNull();
  });

  it("the sweep deletes any face whose visit is over that a trigger did not reach, and leaves those inside", async () => {
    const inside = await shopper();
    const insideVisit = await enter(inside, people[0] as Buffer);
    const over = await shopper();
    const overVisit = await enter(over, people[1] as Buffer);
    await ctx.app.db.execute(sql`alter table shopping_sessions disable trigger face_descriptor_visit_left`);
    try {
      await ctx.app.db.execute(sql`update shopping_sessions set state = 'paid' where id = ${overVisit}`);
    } finally {
      await ctx.app.db.execute(sql`alter table shopping_sessions enable trigger face_descriptor_visit_left`);
    }
    expect(await descriptorOf(overVisit)).not.toBeNull();
    const { sweepDescriptors } = await import("./face-descriptors.ts");
    expect(await sweepDescriptors(ctx.app.db)).toBe(1);
    expect(await descriptorOf(overVisit)).toBeNull();
    expect(await descriptorOf(insideVisit)).not.toBeNull();
  });
});

describe("a burst", () => {
  it("of one shopper's checks shares one picture and one look; past ten a minute, the QR code", async () => {
    const eva = await shopper();
    const visit = await enter(eva, people[0] as Buffer);
    sim.showPicture(EXIT, stranger);
    // What one check asks of the camera (a picture behind Digest is two requests).
    const before = snapshotsTaken();
    expect((await eva.verify()).reason).toBe("no_match");
    const one = snapshotsTaken() - before;
    expect(one).toBeGreaterThan(0);
    const answers = await Promise.all(Array.from({ length: 20 }, () => eva.verify()));
    expect(new Set(answers.map((a) => a.reason))).toEqual(new Set(["no_match"]));
    expect(snapshotsTaken() - before).toBe(2 * one);
    for (let i = 3; i <= 10; i++) expect((await eva.verify()).reason).toBe("no_match");
    expect(await eva.verify()).toEqual({ status: "not_verified", reason: "busy" });
    expect(snapshotsTaken() - before).toBe(10 * one);
    expect(await descriptorOf(visit)).not.toBeNull();
  });

  it("consent withdrawn while the door's picture is looked at keeps nothing", async () => {
    const eva = await shopper();
    const session_id = await openDoor(eva, people[0] as Buffer);
    await eva.consent(false);
    await ctx.app.faceCheck.settled();
    expect(await descriptorOf(session_id)).toBeNull();
  });
});
