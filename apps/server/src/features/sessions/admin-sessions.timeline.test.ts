import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { SessionRow } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { createDeviceKey, signIn } from "../../test/harness.ts";
import { ADMIN_COOKIE } from "../admin-auth/admin-auth.hooks.ts";
import { resolveSession } from "../admin-auth/admin-auth.service.ts";
import {
  bread,
  ctx,
  detailOf,
  gateKeyA,
  juice,
  list,
  platform,
  platformCookie,
  shopper,
  storeA,
  storeAdminCookie,
  storeB,
  useSessionsConsole,
} from "./admin-sessions.fixtures.ts";

/** A visit's timeline, and the live feed that tells the console of each change, with its heartbeat. */
useSessionsConsole();

describe("a visit's timeline", () => {
  it("records entry, door, each scan once, changes and the exit with their sources, up to the receipt", async () => {
    const ada = await shopper("Ada Timeline");
    const visit = await ada.enter(storeA);
    let row = (await detailOf(visit)) as SessionRow;
    expect(row).toMatchObject({ status: "entered", shopper_name: "Ada Timeline", items: 0, payment_state: "none" });

    const scanId = randomUUID();
    const first = await ada.scan(visit, juice, scanId);
    // The same scan sent again counts once and records nothing.
    await ada.scan(visit, juice, scanId);
    await ada.scan(visit, juice);
    const loaf = await ada.scan(visit, bread);
    const changed = await ada.call({
      method: "PUT",
      url: `/api/v1/cart/item/${first.item.id}`,
      payload: { quantity: 3 },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const removed = await ada.call({ method: "DELETE", url: `/api/v1/cart/item/${loaf.item.id}` });
    expect(removed.statusCode, removed.body).toBe(200);

    row = await detailOf(visit);
    expect(row).toMatchObject({ status: "shopping", lines: 1, items: 3, total: 74.7, payment_state: "none" });

    const token = await ada.call({ method: "GET", url: "/api/v1/exit/token" });
    const gate = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/exit/scan",
      headers: { authorization: `Device ${gateKeyA}` },
      payload: { token: token.json().token },
    });
    expect(gate.statusCode, gate.body).toBe(200);
    const receiptNumber = gate.json().receipt_number as number;

    const detail = await detailOf(visit);
    expect(detail).toMatchObject({
      status: "checked_out",
      payment_state: "paid",
      total: 74.7,
      receipt_number: receiptNumber,
      refunded: 0,
      spot_check: null,
      dispute: null,
    });
    expect(detail.exited_at).not.toBeNull();
    expect(detail.timeline.map((e) => [e.kind, e.source])).toEqual([
      ["entry_issued", "phone"],
      ["door_opened", "door"],
      ["item_added", "phone"],
      ["item_added", "phone"],
      ["item_added", "phone"],
      ["quantity_changed", "phone"],
      ["item_removed", "phone"],
      ["exit_qr", "exit_gate"],
      ["checkout", "system"],
      ["charged", "system"],
    ]);
    const [entry, door, added, , addedBread, quantity, gone, , , charged] = detail.timeline;
    expect(entry!.staff_email).toBeNull();
    expect(door!.detail).toMatchObject({ via: "simulated", caller: "scanner" });
    expect(added!.detail).toMatchObject({ product: "Apelsinjuice", quantity: 1, line_quantity: 1, barcode: juice });
    expect(addedBread!.detail).toMatchObject({ product: "Surdegsbröd", barcode: bread });
    expect(quantity!.detail).toMatchObject({ product: "Apelsinjuice", from: 2, to: 3 });
    expect(gone!.detail).toMatchObject({ product: "Surdegsbröd", quantity: 1 });
    expect(charged!.detail).toMatchObject({ amount: 74.7, receipt_number: receiptNumber, settled_later: false });
    expect(detail.order?.lines).toEqual([
      expect.objectContaining({ name: "Apelsinjuice", quantity: 3, total: 74.7, refunded_quantity: 0, refunded: 0 }),
    ]);
    expect(detail.cart).toHaveLength(1);
  });

  it("records the recognition worker's changes as Camera and the face check as Phone", async () => {
    const res = await platform.post(`/api/v1/stores/${storeA}/modules/ai_product_recognition`, { enabled: true });
    expect(res.statusCode, res.body).toBe(200);
    const worker = (await createDeviceKey(ctx.app, storeA, "camera_worker")).key;
    const products = (await platform.get(`/api/v1/products/?search=${juice}`)).json() as { id: string }[];
    const gus = await shopper("Gus Kamera");
    const visit = await gus.enter(storeA);
    const sighting = (action: "add" | "remove") =>
      ctx.app.inject({
        method: "POST",
        url: "/api/v1/cart/worker",
        headers: { authorization: `Device ${worker}` },
        payload: { session_id: visit, product_id: products[0]!.id, action, event_id: randomUUID() },
      });
    for (const action of ["add", "add", "remove"] as const) expect((await sighting(action)).statusCode).toBe(200);
    const face = await gus.call({ method: "POST", url: "/api/v1/face/verify", payload: { user_id: gus.customerId } });
    expect(face.json()).toMatchObject({ status: "not_verified", reason: "module_off" });

    const detail = await detailOf(visit);
    expect(detail.timeline.slice(2).map((e) => [e.kind, e.source, e.detail])).toEqual([
      ["item_added", "camera_worker", expect.objectContaining({ product: "Apelsinjuice", quantity: 1 })],
      ["item_added", "camera_worker", expect.objectContaining({ product: "Apelsinjuice" })],
      ["quantity_changed", "camera_worker", expect.objectContaining({ from: 2, to: 1 })],
      ["face_check", "phone", { status: "not_verified", reason: "module_off" }],
    ]);
  });

  it("records a cancelled or replaced entry code, and a QR-only visit is not listed", async () => {
    const bo = await shopper("Bo Kod");
    const first = await bo.issue(storeA);
    const second = await bo.issue(storeA);
    const cancel = await bo.call({ method: "DELETE", url: `/api/v1/sessions/entry/${second.session_id}` });
    expect(cancel.statusCode).toBe(204);
    // Cancelling again is fine and is not a second event.
    await bo.call({ method: "DELETE", url: `/api/v1/sessions/entry/${second.session_id}` });
    const events = (id: string) =>
      queryRows<{ kind: string; detail: { reason?: string } | null }>(
        ctx.app.db,
        sql`select kind, source, detail from session_events where session_id = ${id} order by id`,
      );
    expect((await events(first.session_id)).map((e) => [e.kind, e.detail?.reason ?? null])).toEqual([
      ["entry_issued", null],
      ["entry_revoked", "replaced"],
    ]);
    expect((await events(second.session_id)).map((e) => [e.kind, e.detail?.reason ?? null])).toEqual([
      ["entry_issued", null],
      ["entry_revoked", "cancelled"],
    ]);
    expect((await platform.get(`/api/v1/admin/sessions/${first.session_id}`)).statusCode).toBe(404);
    expect((await list(`search=${second.session_id}`)).total).toBe(0);
  });
});

describe("GET /api/v1/admin/sessions/live", () => {
  /** Reads server-sent events from a real HTTP connection until `until` holds or the time is up. */
  async function watch(base: string, cookie: string | null) {
    const abort = new AbortController();
    const res = await fetch(`${base}/api/v1/admin/sessions/live`, {
      headers: { accept: "text/event-stream", ...(cookie ? { cookie: `${ADMIN_COOKIE}=${cookie}` } : {}) },
      signal: abort.signal,
    });
    const events: { store_id: string; session_id: string; kind: string }[] = [];
    let text = "";
    const reading = (async () => {
      if (!res.ok || !res.body) return;
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body) {
          text += decoder.decode(chunk as Uint8Array, { stream: true });
          let end = text.indexOf("\n\n");
          while (end >= 0) {
            const block = text.slice(0, end);
            text = text.slice(end + 2);
            if (block.startsWith("data: ")) events.push(JSON.parse(block.slice(6)));
            end = text.indexOf("\n\n");
          }
        }
      } catch {
        // Aborted by the test.
      }
    })();
    const until = async (done: () => boolean) => {
      const deadline = Date.now() + 5_000;
      while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      return done();
    };
    return {
      res,
      events,
      until,
      close: async () => {
        abort.abort();
        await reading;
      },
    };
  }

  it("streams changes of the stores the admin may see, and only those", async () => {
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    await ctx.app.bus.ready();
    const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;

    const anonymous = await fetch(`${base}/api/v1/admin/sessions/live`, { headers: { accept: "text/event-stream" } });
    expect(anonymous.status).toBe(401);
    const notAStreamClient = await platform.get("/api/v1/admin/sessions/live");
    expect(notAStreamClient.statusCode).toBe(406);

    const everyone = await watch(base, platformCookie);
    const onlyA = await watch(base, storeAdminCookie);
    expect(everyone.res.status).toBe(200);
    expect(everyone.res.headers.get("content-type")).toContain("text/event-stream");

    const eve = await shopper("Eve Live");
    const visitB = await eve.enter(storeB);
    const fay = await shopper("Fay Live");
    const visitA = await fay.enter(storeA);
    await fay.scan(visitA, juice);

    expect(
      await everyone.until(
        () =>
          everyone.events.some((e) => e.session_id === visitB && e.kind === "door_opened") &&
          everyone.events.some((e) => e.session_id === visitA && e.kind === "item_added"),
      ),
    ).toBe(true);
    expect(await onlyA.until(() => onlyA.events.some((e) => e.session_id === visitA && e.kind === "item_added"))).toBe(
      true,
    );
    expect(onlyA.events.find((e) => e.session_id === visitB)).toBeUndefined();
    expect(onlyA.events.every((e) => e.store_id === storeA)).toBe(true);
    expect(everyone.events.find((e) => e.session_id === visitA && e.kind === "door_opened")).toMatchObject({
      store_id: storeA,
    });

    await everyone.close();
    await onlyA.close();
  });
});

describe("the live feed's heartbeat", () => {
  it("checks the sign-in without counting as activity, so an open screen still signs out when idle", async () => {
    const admin = await signIn(ctx.app);
    const backdate = () =>
      ctx.app.db.execute(sql`update admin_sessions set last_seen_at = now() - interval '5 minutes'
        where admin_user_id = ${admin.id}`);
    const lastSeen = async () =>
      (
        await queryRows<{ age: number }>(
          ctx.app.db,
          sql`select extract(epoch from now() - last_seen_at)::int as age from admin_sessions
            where admin_user_id = ${admin.id}`,
        )
      )[0]?.age;
    await backdate();
    expect(await resolveSession(ctx.app.db, admin.cookie, { touch: false })).toMatchObject({ id: admin.id });
    expect(await lastSeen()).toBeGreaterThanOrEqual(299);
    // An ordinary request is activity.
    expect(await resolveSession(ctx.app.db, admin.cookie)).toMatchObject({ id: admin.id });
    expect(await lastSeen()).toBeLessThan(5);
  });
});
