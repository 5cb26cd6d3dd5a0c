import { cartSchema, PANT_CODES, type PantAmountList, pantAmountListSchema, pantAmountSchema } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { auditRowsOf } from "../../test/audit-rows.ts";
import { product, shop, shopper } from "../../test/factories.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";

/**
 * The pant table through the API: every admin reads a country's marks,
 * platform admins set and remove amounts (each in the audit log), a change
 * counts for the scans after it, and bad amounts are refused.
 */
let ctx: TestContext;
let pay: PaymentHarness;
let platform: ReturnType<typeof as>;
let storeAdmin: ReturnType<typeof as>;
let platformEmail: string;
let swedish: string;
let cola: { id: string; barcode: string; name: string };

const URL = "/api/v1/pant-amounts";

async function listed(country?: string, caller = platform): Promise<PantAmountList> {
  const res = await caller.get(country ? `${URL}?country=${country}` : URL);
  expect(res.statusCode, res.body).toBe(200);
  return pantAmountListSchema.parse(res.json());
}

const amountsOf = (list: PantAmountList) => Object.fromEntries(list.items.map((item) => [item.code, item.amount]));

/** The table's rows, to see a refused write left it as it was. */
const rows = () =>
  queryRows<{ country: string; code: string; amount_ore: number }>(
    ctx.app.db,
    sql`select country, code, amount_ore from pant_amounts order by country, code`,
  );

/** The pant of the first line of a new visit to the Swedish store that scans the can once. */
async function scannedPant() {
  const who = await shopper(ctx.app);
  const visit = await shop(ctx.app, who, swedish, [[cola.barcode, 1]]);
  const cart = cartSchema.parse((await who.call({ method: "GET", url: `/api/v1/cart/${visit}` })).json());
  return cart.items[0]!.pant;
}

beforeAll(async () => {
  pay = await startPaymentHarness();
  ctx = await createTestContext({ STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase });
  const session = await signIn(ctx.app);
  platformEmail = session.email;
  platform = as(ctx.app, session.cookie);
  const store = await platform.post("/api/v1/stores/", { name: "Pantbutiken", country: "SE" });
  expect(store.statusCode, store.body).toBe(201);
  swedish = store.json().id;
  storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [swedish])).cookie);
  cola = await product(ctx.app, session.cookie, 12.9, "food");
  const marked = await platform.put(`/api/v1/products/${cola.id}`, { pant_code: "can" });
  expect(marked.statusCode, marked.body).toBe(200);
});
afterAll(async () => {
  await ctx?.close();
  await pay?.close();
});

describe("the list", () => {
  it("answers every mark in order with Sweden's amounts, for a platform admin and a store admin, Sweden unless told", async () => {
    const sweden = await listed("SE");
    expect(sweden.country).toBe("SE");
    expect(sweden.items.map((item) => item.code)).toEqual([...PANT_CODES]);
    expect(amountsOf(sweden)).toEqual({
      can: 2,
      pet_small: 2,
      pet_large: 3,
      can_1kr: 1,
      pet_small_1kr: 1,
      pet_large_2kr: 2,
    });
    for (const item of sweden.items) expect(Date.parse(item.updated_at!)).not.toBeNaN();
    expect(await listed()).toEqual(sweden);
    expect(await listed("SE", storeAdmin)).toEqual(sweden);
  });

  it("answers null for each mark of a country without pant", async () => {
    const denmark = await listed("DK");
    expect(denmark.items.map((item) => [item.code, item.amount, item.updated_at])).toEqual(
      PANT_CODES.map((code) => [code, null, null]),
    );
  });

  it("refuses an unknown country with 422 and a detail, and anyone unsigned with 401", async () => {
    for (const country of ["XX", "se"]) {
      const res = await platform.get(`${URL}?country=${country}`);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: "validation_error" });
      expect(res.json().detail).toContain("Unknown country code");
    }
    expect((await as(ctx.app, null).get(URL)).statusCode).toBe(401);
  });
});

describe("setting an amount", () => {
  it("is refused to a store admin with 403, writing nothing", async () => {
    const before = await rows();
    for (const res of [
      await storeAdmin.put(`${URL}/SE/can`, { amount: 2.5 }),
      await storeAdmin.delete(`${URL}/SE/can`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toBe("Only platform admins may change pant amounts");
    }
    expect(await rows()).toEqual(before);
  });

  it("changes the amount for the scans after it, in the audit log with before and after", async () => {
    expect(await scannedPant()).toEqual({ unit: 2, total: 2 });
    const before = (await listed("SE")).items.find((item) => item.code === "can")!;
    const res = await platform.put(`${URL}/SE/can`, { amount: 2.5 });
    expect(res.statusCode, res.body).toBe(200);
    const after = pantAmountSchema.parse(res.json());
    expect(after).toMatchObject({ country: "SE", code: "can", amount: 2.5 });
    expect(amountsOf(await listed("SE")).can).toBe(2.5);
    expect(await scannedPant()).toEqual({ unit: 2.5, total: 2.5 });

    // The same amount again is no event.
    expect((await platform.put(`${URL}/SE/can`, { amount: 2.5 })).statusCode).toBe(200);
    const audit = await auditRowsOf(ctx.app.db, "SE/can");
    expect(audit.map((a) => [a.action, a.entity_type, a.actor_email, a.summary])).toEqual([
      ["pant_amount.update", "pant_amount", platformEmail, "Pant of Can in SE changed from 2 kr to 2.5 kr"],
    ]);
    expect(audit[0]).toMatchObject({ before, after });

    expect((await platform.put(`${URL}/SE/can`, { amount: 2 })).statusCode).toBe(200);
    expect(await scannedPant()).toEqual({ unit: 2, total: 2 });
  });

  it("adds the row for a country that had none", async () => {
    const res = await platform.put(`${URL}/NO/pet_large`, { amount: 3 });
    expect(res.statusCode, res.body).toBe(200);
    expect(amountsOf(await listed("NO"))).toMatchObject({ pet_large: 3, can: null });
    const [entry] = await auditRowsOf(ctx.app.db, "NO/pet_large");
    expect(entry).toMatchObject({
      summary: "Pant of PET bottle over 1 l in NO changed from no pant to 3 kr",
      before: null,
    });
  });
});

describe("removing an amount", () => {
  it("leaves new scans without pant, in the audit log; 404 when there is none", async () => {
    const res = await platform.delete(`${URL}/SE/can`);
    expect(res.statusCode, res.body).toBe(204);
    expect(amountsOf(await listed("SE")).can).toBeNull();
    expect(await scannedPant()).toBeNull();
    const last = (await auditRowsOf(ctx.app.db, "SE/can")).at(-1);
    expect(last).toMatchObject({
      action: "pant_amount.delete",
      summary: "Pant of Can in SE removed (was 2 kr)",
      before: { country: "SE", code: "can", amount: 2 },
      after: null,
    });

    const again = await platform.delete(`${URL}/SE/can`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ detail: "Can in SE has no pant amount", code: "not_found" });

    // Put back, as the mark is again worth 2 kr.
    expect((await platform.put(`${URL}/SE/can`, { amount: 2 })).statusCode).toBe(200);
    expect(await scannedPant()).toEqual({ unit: 2, total: 2 });
  });
});

describe("bad input", () => {
  it.each([
    [{ amount: -1 }, "The amount must be from 0 to 1000 kr"],
    [{ amount: 1000.01 }, "The amount must be from 0 to 1000 kr"],
    [{ amount: 2.555 }, "The amount allows at most two decimals"],
    [{ amount: "2" }, "The amount is a number of kronor from 0 to 1000"],
    [{ amount: null }, "The amount is a number of kronor from 0 to 1000"],
    [{}, "The amount is a number of kronor from 0 to 1000"],
    [{ amount: 2, extra: 1 }, "extra"],
  ])("refuses %j with 422 and a detail (%s), writing nothing", async (body, words) => {
    const before = await rows();
    const res = await platform.put(`${URL}/SE/can`, body);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: "validation_error" });
    expect(res.json().detail).toContain(words);
    expect(await rows()).toEqual(before);
  });

  it("refuses an unknown country or mark in the path with 422 naming the known ones", async () => {
    const before = await rows();
    for (const [path, words] of [
      ["XX/can", "Unknown country code"],
      ["SE/glass", "A pant code is one of can, pet_small"],
    ]) {
      for (const res of [
        await platform.put(`${URL}/${path}`, { amount: 2 }),
        await platform.delete(`${URL}/${path}`),
      ]) {
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().detail).toContain(words);
      }
    }
    expect(await rows()).toEqual(before);
  });

  it("takes the edges: 0 and 1000 kr, two decimals", async () => {
    for (const amount of [0, 1000, 999.99]) {
      const res = await platform.put(`${URL}/FI/can`, { amount });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().amount).toBe(amount);
    }
  });
});
