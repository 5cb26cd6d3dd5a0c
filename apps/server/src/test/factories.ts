import { randomBytes } from "node:crypto";
import { gtinCheckDigit, type VatCategory } from "@glide/contracts";
import type { FastifyInstance, InjectOptions } from "fastify";
import { sql } from "../db/client.ts";
import { customers } from "../db/schema/index.ts";
import { issueTokens } from "../features/shopper-auth/shopper-tokens.ts";
import { as, createDeviceKey } from "./harness.ts";

/**
 * The data a test needs, made as the app would make it: shoppers who really
 * shop through the API (card on file, entry, door, scans, checkout), products
 * made by an admin, and visits that end paid. With the payment simulator
 * behind the app, every order is a captured payment there.
 */

type Reply = Awaited<ReturnType<FastifyInstance["inject"]>>;
export type TestShopper = {
  id: string;
  /** The shopper's access token, for a request to another instance. */
  token: string;
  call: (opts: Omit<InjectOptions, "headers">) => Promise<Reply>;
};

export type ShopperOptions = {
  /** The card saved through the API (default `pm_card_visa`, or none with `cardOnFile`); null saves none. */
  card?: string | null;
  /**
   * A card already on file at the payment provider (`PaymentHarness.shopperWithCard`), written straight on
   * the shopper: for an app with no provider of its own to save a card through.
   */
  cardOnFile?: { customerId: string; paymentMethodId: string };
  /** An e-mail address given through the API. */
  email?: string;
  name?: string;
  /** YYYY-MM-DD, for the age checks. */
  birthDate?: string;
};

/**
 * A sale at noon in Stockholm on 2026-03-16, when food's VAT was still 12 %:
 * the `saleClock` of test apps whose receipts are worked out at that rate, so
 * they do not change with the calendar.
 */
export const SOLD_WHEN_FOOD_WAS_12 = new Date("2026-03-16T11:00:00Z");

let sku = 0;
/**
 * A product sold in every store: a fresh barcode and SKU each time. Its VAT
 * is a category, or a percentage as an older client sends it (25 standard,
 * 12 or 6 food, 0 exempt).
 */
export async function product(app: FastifyInstance, cookie: string, price: number, vat: number | VatCategory = 25) {
  const body = `7390${randomBytes(4).readUInt32BE(0).toString().padStart(8, "0").slice(0, 8)}`;
  const barcode = body + gtinCheckDigit(body);
  const res = await as(app, cookie).post("/api/v1/products/", {
    sku: `rf-${++sku}-${randomBytes(3).toString("hex")}`,
    name: `Vara ${sku}`,
    price,
    ...(typeof vat === "number" ? { vat_rate: vat } : { vat_category: vat }),
    barcode,
  });
  if (res.statusCode !== 201) throw new Error(`product: ${res.statusCode} ${res.body}`);
  return { id: res.json().id as string, barcode, name: res.json().name as string };
}

/**
 * A shopper of their own (a new customer row, as a BankID sign-in would
 * make) with real tokens, a card on file unless told otherwise (saved through
 * the API, or the one given in `cardOnFile`), and the e-mail address when one
 * is given.
 */
export async function shopper(app: FastifyInstance, opts: ShopperOptions = {}): Promise<TestShopper> {
  const tag = randomBytes(6).toString("hex");
  const [customer] = await app.db
    .insert(customers)
    .values({
      personalNumberHash: `rf-${tag}`,
      personalNumberSealed: `rf-${tag}`,
      name: opts.name ?? "Rut Kund",
      birthDate: opts.birthDate ?? "1988-08-08",
      ...(opts.cardOnFile
        ? { paymentCustomerId: opts.cardOnFile.customerId, paymentMethodId: opts.cardOnFile.paymentMethodId }
        : {}),
    })
    .returning();
  const { access_token } = await issueTokens(app.db, app.shopperKeys.jwt, customer!);
  const who: TestShopper = {
    id: customer!.id,
    token: access_token,
    call: async (request) =>
      await app.inject({ ...request, headers: { authorization: `Bearer ${access_token}` } } as InjectOptions),
  };
  const card = opts.card === undefined ? (opts.cardOnFile ? null : "pm_card_visa") : opts.card;
  if (card) {
    const saved = await who.call({ method: "PUT", url: "/api/v1/payment-method", payload: { payment_method: card } });
    if (saved.statusCode !== 200) throw new Error(`card: ${saved.statusCode} ${saved.body}`);
  }
  if (opts.email) {
    const set = await who.call({ method: "PUT", url: "/api/v1/profile/email", payload: { email: opts.email } });
    if (set.statusCode !== 200) throw new Error(`email: ${set.statusCode} ${set.body}`);
  }
  return who;
}

/**
 * A visit in `storeId` that is through the door, put in the store directly
 * (the door scanner itself is tested in sessions/). Returns the visit's id.
 */
export async function walkIn(app: FastifyInstance, who: TestShopper, storeId: string): Promise<string> {
  const entry = await who.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: storeId } });
  if (entry.statusCode !== 200) throw new Error(`entry: ${entry.statusCode} ${entry.body}`);
  const visit = entry.json().session_id as string;
  await app.db.execute(
    sql`update shopping_sessions set door_opened_at = now(), entry_used_at = now(), state = 'in_store' where id = ${visit}`,
  );
  return visit;
}

/** Through the door into `storeId` with the scans given (barcode → times), not yet paid. */
export async function shop(app: FastifyInstance, who: TestShopper, storeId: string, scans: Array<[string, number]>) {
  const visit = await walkIn(app, who, storeId);
  for (const [barcode, times] of scans)
    for (let i = 0; i < times; i++) {
      const res = await who.call({ method: "POST", url: "/api/v1/cart/scan", payload: { session_id: visit, barcode } });
      if (res.statusCode !== 200) throw new Error(`scan: ${res.statusCode} ${res.body}`);
    }
  return visit;
}

/** A visit that went all the way: shopped and paid. Its order id is the receipt's id. */
export async function paidVisit(
  app: FastifyInstance,
  who: TestShopper,
  storeId: string,
  scans: Array<[string, number]>,
) {
  const visit = await shop(app, who, storeId, scans);
  const paid = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
  if (paid.statusCode !== 200 || paid.json().status !== "paid")
    throw new Error(`checkout: ${paid.statusCode} ${paid.body}`);
  const orderId = paid.json().receipt.id as string;
  return { visit, orderId };
}

/** A well-formed pant machine voucher code worth `kronor` (980, a new serial, the value, the check digit); printed by no machine. */
let voucherSerial = Math.floor(Math.random() * 50_000);
export function voucherCode(kronor: number): string {
  const body = `980${String(++voucherSerial % 100_000).padStart(5, "0")}${String(kronor).padStart(4, "0")}`;
  return body + gtinCheckDigit(body);
}

const pantMachines = new WeakMap<FastifyInstance, Map<string, Promise<string>>>();

/** A voucher worth `kronor` that a pant machine in `storeId` printed and reported (POST /api/v1/pant-vouchers): one a cart takes. */
export async function printedVoucher(app: FastifyInstance, storeId: string, kronor: number): Promise<string> {
  const machines = pantMachines.get(app) ?? new Map<string, Promise<string>>();
  pantMachines.set(app, machines);
  if (!machines.has(storeId))
    machines.set(
      storeId,
      createDeviceKey(app, storeId, "pant_machine").then((made) => made.key),
    );
  const code = voucherCode(kronor);
  const res = await app.inject({
    method: "POST",
    url: "/api/v1/pant-vouchers",
    headers: { authorization: `Device ${await machines.get(storeId)}` },
    payload: { barcode: code },
  });
  if (res.statusCode !== 201) throw new Error(`the pant machine's report failed: ${res.statusCode} ${res.body}`);
  return code;
}
