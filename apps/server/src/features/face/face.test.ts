import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  admin,
  ctx,
  descriptorOf,
  EXIT,
  enrolments,
  enter,
  opensFor,
  people,
  scanJuice,
  shopper,
  sim,
  snapshotsTaken,
  store,
  stranger,
  together,
  useFaceStore,
} from "../../test/face-store.ts";

/** The face check at the door and at the exit (test/face-store.ts: the real model, cameras, door and payments). */
useFaceStore();

describe("learning the face at the door", () => {
  it("learns a consenting shopper's face, sealed and bound to the visit, and says so on the timeline", async () => {
    const eva = await shopper();
    const visit = await enter(eva, people[0] as Buffer);
    const kept = await descriptorOf(visit);
    expect(kept?.model).toBe("human-3.3-faceres");
    expect(kept?.sealed).toMatch(/^v1\./);
    expect(await enrolments(visit)).toEqual(["kept"]);
  });

  it("takes no picture and keeps nothing without consent or without the store's module", async () => {
    const before = snapshotsTaken();
    const noConsent = await shopper(false);
    const visit = await enter(noConsent, people[0] as Buffer);
    expect(await descriptorOf(visit)).toBeNull();
    expect(await enrolments(visit)).toEqual([]);
    expect(await noConsent.verify()).toEqual({ status: "not_verified", reason: "no_consent" });
    expect(snapshotsTaken()).toBe(before);

    expect((await admin.post(`/api/v1/stores/${store}/modules/face_checkout`, { enabled: false })).statusCode).toBe(
      200,
    );
    try {
      const eva = await shopper();
      const off = await enter(eva, people[0] as Buffer);
      expect(await descriptorOf(off)).toBeNull();
      expect(await eva.verify()).toEqual({ status: "not_verified", reason: "module_off" });
      expect(snapshotsTaken()).toBe(before);
    } finally {
      await admin.post(`/api/v1/stores/${store}/modules/face_checkout`, { enabled: true });
    }
  });

  it("keeps nothing when the entrance shows no face or its camera does not answer", async () => {
    const eva = await shopper();
    const empty = await enter(eva, null);
    expect(await descriptorOf(empty)).toBeNull();
    expect(await enrolments(empty)).toEqual(["no_face"]);
    await eva.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: eva.id } });

    await sim.configure({ fault: "refuse" });
    const ada = await shopper();
    const down = await enter(ada, people[0] as Buffer);
    expect(await descriptorOf(down)).toBeNull();
    expect(await enrolments(down)).toEqual(["no_camera"]);
    expect(await ada.verify()).toEqual({ status: "not_verified", reason: "not_enrolled" });
  });
});

describe("the face check at the exit", () => {
  it("lets the shopper out when the exit camera shows the face from the door: paid, gate open, the face forgotten", async () => {
    const eva = await shopper();
    const visit = await enter(eva, people[1] as Buffer);
    await scanJuice(eva, visit);
    sim.showPicture(EXIT, people[1] as Buffer);
    expect(opensFor(visit)).toBe(1);
    expect(await eva.verify()).toEqual({ status: "ok", reason: "verified" });
    // The door at the entrance, then the gate at the exit.
    expect(opensFor(visit)).toBe(2);
    const status = (await eva.call({ method: "GET", url: "/api/v1/exit/status" })).json();
    expect(status.state).toBe("paid");
    expect(status.receipt.total).toBe(19.9);
    // The phone's checkout after an ok answers the same receipt: one charge.
    const checkout = await eva.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: eva.id } });
    expect(checkout.json().receipt.number).toBe(status.receipt.number);
    expect(await descriptorOf(visit)).toBeNull();
  });

  it("a declined card after an ok keeps the gate shut; the phone's checkout then says why", async () => {
    const eva = await shopper(true, "pm_card_chargeDeclined");
    const visit = await enter(eva, people[1] as Buffer);
    await scanJuice(eva, visit);
    sim.showPicture(EXIT, people[1] as Buffer);
    expect(await eva.verify()).toEqual({ status: "ok", reason: "verified" });
    expect(opensFor(visit)).toBe(1);
    const checkout = await eva.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: eva.id } });
    expect([checkout.statusCode, checkout.json().code]).toEqual([402, "payment_declined"]);
    expect((await eva.call({ method: "GET", url: "/api/v1/exit/status" })).json().state).toBe("declined");
    // Still inside and unpaid: the face stays for the next try.
    expect(await descriptorOf(visit)).not.toBeNull();
  });

  it("another person at the exit is not the shopper: the exit QR code instead, and nothing is paid", async () => {
    const eva = await shopper();
    const visit = await enter(eva, people[0] as Buffer);
    sim.showPicture(EXIT, stranger);
    expect(await eva.verify()).toEqual({ status: "not_verified", reason: "no_match" });
    sim.showPicture(EXIT, people[2] as Buffer);
    expect(await eva.verify()).toEqual({ status: "not_verified", reason: "no_match" });
    expect((await eva.call({ method: "GET", url: "/api/v1/exit/status" })).json().state).toBe("shopping");
    expect(opensFor(visit)).toBe(1);
    expect(await descriptorOf(visit)).not.toBeNull();
    sim.showPicture(EXIT, null);
    expect(await eva.verify()).toEqual({ status: "not_verified", reason: "no_face" });
  });

  it("with two shoppers in the exit's picture, lets out the one whose visit it is", async () => {
    const eva = await shopper();
    const ada = await shopper();
    await enter(eva, people[0] as Buffer);
    await enter(ada, people[2] as Buffer);
    sim.showPicture(EXIT, together);
    expect(await eva.verify()).toEqual({ status: "ok", reason: "verified" });
    expect(await ada.verify()).toEqual({ status: "ok", reason: "verified" });
  });

  it("a face as near another visit inside as its own is nobody's", async () => {
    const eva = await shopper();
    const twin = await shopper();
    await enter(eva, people[0] as Buffer);
    await enter(twin, people[0] as Buffer);
    sim.showPicture(EXIT, people[0] as Buffer);
    expect(await eva.verify()).toEqual({ status: "not_verified", reason: "ambiguous" });
    expect(await twin.verify()).toEqual({ status: "not_verified", reason: "ambiguous" });
  });

  it("a camera that does not answer, or answers too late, is not ok within the page's wait", async () => {
    const eva = await shopper();
    await enter(eva, people[0] as Buffer);
    sim.showPicture(EXIT, people[0] as Buffer);
    await sim.configure({ fault: "refuse" });
    expect(await eva.verify()).toEqual({ status: "not_verified", reason: "no_camera" });
    await sim.configure({ fault: "hang" });
    const started = Date.now();
    expect(await eva.verify()).toEqual({ status: "not_verified", reason: "timeout" });
    expect(Date.now() - started).toBeLessThan(7_000);
  }, 20_000);

  it("a sealed face copied to another visit opens for neither", async () => {
    const eva = await shopper();
    const ada = await shopper();
    const evaVisit = await enter(eva, people[0] as Buffer);
    const adaVisit = await enter(ada, null);
    await ctx.app.db.execute(
      sql`insert into face_descriptors (session_id, sealed, model)
          select ${adaVisit}, sealed, model from face_descriptors where session_id = ${evaVisit}`,
    );
    sim.showPicture(EXIT, people[0] as Buffer);
    expect(await ada.verify()).toEqual({ status: "not_verified", reason: "not_enrolled" });
  });
});

describe("who may ask", () => {
  it("refuses to check anyone but the signed-in shopper; nobody outside a visit is checked", async () => {
    const eva = await shopper();
    const other = await shopper();
    const res = await eva.call({ method: "POST", url: "/api/v1/face/verify", payload: { user_id: other.id } });
    expect(res.statusCode).toBe(403);
    expect(await other.verify()).toEqual({ status: "not_verified", reason: "no_visit" });
  });
});
