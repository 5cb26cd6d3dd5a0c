import { issuedPantVoucherSchema } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { shopper, voucherCode, walkIn } from "../../test/factories.ts";
import { offerWorldOfFile } from "../pricing/cart-offers.fixtures.ts";

/**
 * The register of printed vouchers: the chain's pant machines report each
 * voucher they print, under a pant_machine device key of their store, and a
 * cart takes only those. A code that is well formed but never printed (the
 * check digit is public) pays nothing.
 */
const world = offerWorldOfFile();

/** A new pant machine key of `store`, made by a platform admin in the console's way. */
async function machineOf(store: string) {
  const res = await world.admin.post(`/api/v1/stores/${store}/device-keys`, {
    kind: "pant_machine",
    label: "Pantmaskin",
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; key: string };
}

const report = (key: string | null, barcode: string) =>
  world.ctx.app.inject({
    method: "POST",
    url: "/api/v1/pant-vouchers",
    headers: key === null ? {} : { authorization: `Device ${key}` },
    payload: { barcode },
  });

async function inStore(store = world.lund) {
  const who = await shopper(world.ctx.app);
  const visit = await walkIn(world.ctx.app, who, store);
  const add = (barcode: string) =>
    who.call({ method: "POST", url: "/api/v1/cart/vouchers", payload: { session_id: visit, barcode } });
  return { who, visit, add };
}

const issuedCount = async (code: string) =>
  (
    await queryRows<{ n: number }>(
      world.ctx.app.db,
      sql`select count(*)::int as n from issued_pant_vouchers where code = ${code}`,
    )
  )[0]!.n;

describe("a voucher no machine printed", () => {
  it("pays nothing: refused in Swedish, nothing written; once the machine reports it, the same code pays", async () => {
    const machine = await machineOf(world.lund);
    const { visit, add } = await inStore();
    const code = voucherCode(50);
    const forged = await add(code);
    expect(forged.statusCode, forged.body).toBe(422);
    expect(forged.json()).toMatchObject({
      code: "voucher_not_issued",
      detail:
        "Pantkvittot känns inte igen: ingen av våra pantmaskiner har skrivit ut det. Fråga personalen om du tror att det är fel.",
    });
    const [{ n }] = (await queryRows<{ n: number }>(
      world.ctx.app.db,
      sql`select count(*)::int as n from pant_vouchers where session_id = ${visit}`,
    )) as [{ n: number }];
    expect(n).toBe(0);

    expect((await report(machine.key, code)).statusCode).toBe(201);
    const taken = await add(code);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().vouchers).toEqual([{ code, amount: 50 }]);
  });

  it("printed in one store, pays in another store of the chain", async () => {
    const machine = await machineOf(world.malmo);
    const code = voucherCode(12);
    expect((await report(machine.key, code)).statusCode).toBe(201);
    const { add } = await inStore(world.lund);
    expect((await add(code)).json().vouchers).toEqual([{ code, amount: 12 }]);
  });
});

describe("the pant machine's report", () => {
  it("keeps the voucher at its printed value; the same report again answers as the first", async () => {
    const machine = await machineOf(world.lund);
    const code = voucherCode(24);
    const first = await report(machine.key, code);
    expect(first.statusCode, first.body).toBe(201);
    const voucher = issuedPantVoucherSchema.parse(first.json());
    expect(voucher).toMatchObject({ code, amount: 24, store_id: world.lund });
    // Spaces and dashes as a scanner or a person might send them are the same code.
    const again = await report(machine.key, `${code.slice(0, 3)} ${code.slice(3, 8)}-${code.slice(8)}`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(voucher);
    expect(await issuedCount(code)).toBe(1);
  });

  it("another store's machine with the same code is a clash: 409, and the first report stands", async () => {
    const [lund, malmo] = [await machineOf(world.lund), await machineOf(world.malmo)];
    const code = voucherCode(7);
    expect((await report(lund.key, code)).statusCode).toBe(201);
    const clash = await report(malmo.key, code);
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({
      code: "voucher_exists",
      detail: "Another store's pant machine already printed a voucher with this code",
    });
    expect((await report(lund.key, code)).json()).toMatchObject({ store_id: world.lund });
  });

  it("sent many times at once (a machine retrying) keeps one voucher", async () => {
    const machine = await machineOf(world.lund);
    const code = voucherCode(3);
    const answers = await Promise.all(Array.from({ length: 8 }, () => report(machine.key, code)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((r) => r.body)).size).toBe(1);
    expect(await issuedCount(code)).toBe(1);
  });

  it("needs a pant machine's key: none, another device's or a revoked one is 401 and nothing is kept", async () => {
    const code = voucherCode(5);
    const none = await report(null, code);
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({
      code: "device_key_required",
      detail: "The pant machine must send its device key",
    });
    const door = await world.admin.post(`/api/v1/stores/${world.lund}/device-keys`, { kind: "door_scanner" });
    const wrongKind = await report(door.json().key, code);
    expect(wrongKind.statusCode).toBe(401);
    expect(wrongKind.json()).toMatchObject({ code: "invalid_device_key", detail: "Unknown pant machine key" });
    const machine = await machineOf(world.lund);
    expect((await world.admin.delete(`/api/v1/stores/${world.lund}/device-keys/${machine.id}`)).statusCode).toBe(204);
    expect((await report(machine.key, code)).statusCode).toBe(401);
    expect(await issuedCount(code)).toBe(0);
  });

  it("refuses what is no voucher code with the format it expects", async () => {
    const machine = await machineOf(world.lund);
    const good = voucherCode(10);
    const wrongCheck = `${good.slice(0, 12)}${(Number(good[12]) + 1) % 10}`;
    for (const barcode of ["7310865004703", voucherCode(0), wrongCheck]) {
      const res = await report(machine.key, barcode);
      expect(res.statusCode, barcode).toBe(422);
      expect(res.json()).toMatchObject({ code: "invalid_voucher" });
      expect(res.json().detail).toContain("980, a five-digit serial");
    }
    const empty = await report(machine.key, " ");
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail).toContain("barcode is required");
  });

  it("a revoked machine's printed vouchers still pay", async () => {
    const machine = await machineOf(world.lund);
    const code = voucherCode(9);
    expect((await report(machine.key, code)).statusCode).toBe(201);
    expect((await world.admin.delete(`/api/v1/stores/${world.lund}/device-keys/${machine.id}`)).statusCode).toBe(204);
    const { add } = await inStore();
    expect((await add(code)).json().vouchers).toEqual([{ code, amount: 9 }]);
  });
});
