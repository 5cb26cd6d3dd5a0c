import { randomBytes } from "node:crypto";
import { cartScanResponseSchema, cartSchema, gtinCheckDigit, type MultiBuyOfferInput } from "@glide/contracts";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { sql } from "../../db/client.ts";
import type { TestShopper } from "../../test/factories.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";

/**
 * A test app for offers on carts: two stores, products at hand-picked
 * prices (food at 6 %, a soap at 25 %, a can with pant, a cake sold by price
 * label), offers written through the console's route, and the sale's clock
 * (app.saleClock) that picks the day.
 */
export type OfferWorld = {
  ctx: TestContext;
  pay: PaymentHarness;
  admin: ReturnType<typeof as>;
  lund: string;
  malmo: string;
  ids: Record<ProductKey, string>;
  codes: Record<ProductKey | "cakeLabel", string>;
  setSaleAt(at: string): void;
  close(): Promise<void>;
};

type ProductKey = "butter" | "juice" | "soap" | "cake" | "soda";

const ean = (body12: string) => body12 + gtinCheckDigit(body12);

/** 27 November 2026, 11:00 in Stockholm: food is at 6 %. */
export const SALE_DAY = "2026-11-27";

export async function offerWorld(): Promise<OfferWorld> {
  let saleAt = new Date(`${SALE_DAY}T10:00:00Z`);
  const pay = await startPaymentHarness();
  const ctx = await createTestContext(
    { STRIPE_SECRET_KEY: pay.simulator.secretKey, STRIPE_API_BASE: pay.apiBase },
    { saleClock: () => saleAt },
  );
  const admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  const store = async (name: string) => {
    const res = await admin.post("/api/v1/stores/", { name: `${name} ${randomBytes(3).toString("hex")}` });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const [lund, malmo] = [await store("Lund"), await store("Malmö")];
  const tag = randomBytes(2).readUInt16BE(0).toString().padStart(5, "0");
  const codes = {
    butter: ean(`7310${tag}001`),
    juice: ean(`7310${tag}002`),
    soap: ean(`7310${tag}003`),
    soda: ean(`7310${tag}004`),
    cake: ean("200045700000"),
    cakeLabel: ean("200045704990"),
  };
  const ids = {} as Record<ProductKey, string>;
  for (const [key, name, price, vat_category, extra] of [
    ["butter", "Bregott 500 g", 49.9, "food", {}],
    ["juice", "Juice 1 l", 19.9, "food", {}],
    ["soap", "Tvål", 24.9, "standard", {}],
    ["soda", "Läsk 33 cl", 12.9, "food", { pant_code: "can" }],
    ["cake", "Tårta", 0, "food", {}],
  ] as const) {
    const res = await admin.post("/api/v1/products/", {
      sku: `offer-${key}-${randomBytes(3).toString("hex")}`,
      name,
      price,
      vat_category,
      barcode: codes[key],
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    ids[key] = res.json().id;
  }
  return {
    ctx,
    pay,
    admin,
    lund,
    malmo,
    ids,
    codes,
    setSaleAt: (at) => {
      saleAt = new Date(at);
    },
    close: async () => {
      await ctx.close();
      await pay.close();
    },
  };
}

/**
 * The offer world of a test file: made before its first test, closed after
 * its last, and before each test its sale clock back at 11:00 on SALE_DAY
 * and `reset` run. Read it only inside the tests and their hooks.
 */
export function offerWorldOfFile(reset?: (world: OfferWorld) => Promise<void>): OfferWorld {
  let made: OfferWorld | undefined;
  const made_ = (): OfferWorld => {
    if (!made) throw new Error("the offer world is made in beforeAll: read it inside the tests");
    return made;
  };
  beforeAll(async () => {
    made = await offerWorld();
  });
  afterAll(async () => {
    await made?.close();
  });
  beforeEach(async () => {
    made_().setSaleAt(`${SALE_DAY}T10:00:00Z`);
    await reset?.(made_());
  });
  return new Proxy({} as OfferWorld, { get: (_, key) => made_()[key as keyof OfferWorld] });
}

/** An offer written as the console writes it; answers its id. */
export async function postOffer(world: OfferWorld, fields: Partial<MultiBuyOfferInput> & { product_ids: string[] }) {
  const res = await world.admin.post("/api/v1/offers", {
    label: "3 för 2",
    kind: "one_free",
    buy: 3,
    amount: null,
    store_id: null,
    starts_on: "2026-11-01",
    ends_on: "2026-11-30",
    limit_per_visit: null,
    ...fields,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

export async function clearOffers(world: OfferWorld) {
  await world.ctx.app.db.execute(sql`delete from offers`);
  // Written past the API: the instance is told as the routes tell it.
  await world.ctx.app.offerBook.changed();
}

/** Scans `barcode` and answers the scan's answer, checked against its contract. */
export async function scan(who: TestShopper, visit: string, barcode: string) {
  const res = await who.call({ method: "POST", url: "/api/v1/cart/scan", payload: { session_id: visit, barcode } });
  expect(res.statusCode, res.body).toBe(200);
  return cartScanResponseSchema.parse(res.json());
}

export async function cartOf(who: TestShopper, visit: string) {
  const res = await who.call({ method: "GET", url: `/api/v1/cart/${visit}` });
  expect(res.statusCode, res.body).toBe(200);
  return cartSchema.parse(res.json());
}
