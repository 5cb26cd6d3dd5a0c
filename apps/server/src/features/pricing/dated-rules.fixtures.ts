import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import type { z } from "zod";
import { stores } from "../../db/schema/index.ts";
import { auditRowsOf } from "../../test/audit-rows.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { homeToday } from "../vat-rates/vat-rate-table.ts";

/**
 * What the campaign and offer tests share: an app with a platform admin, a
 * store admin of store A (not of store B) and nobody signed in; days counted
 * from today in Sweden; stores and products made on the spot; a rule added
 * and the list as the API gives them; and what the audit log holds about a
 * rule. campaigns.fixtures.ts and offers.fixtures.ts add each kind's body.
 */

export let ctx: TestContext;
export let platform: ReturnType<typeof as>;
export let storeAdmin: ReturnType<typeof as>;
export let nobody: ReturnType<typeof as>;
export let platformEmail: string;
export let storeAdminEmail: string;
export let storeA: string;
export let storeB: string;

/** Today in Sweden moved by `days` (negative: before), as YYYY-MM-DD. */
export function day(days: number, from = homeToday()): string {
  const date = new Date(`${from}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** A store of its own, in a time zone of its own; made in the database, as the store tests own the API. */
export async function storeIn(timezone: string, name = `Butik ${randomBytes(3).toString("hex")}`): Promise<string> {
  const [store] = await ctx.app.db.insert(stores).values({ name, timezone }).returning({ id: stores.id });
  return store!.id;
}

/** A product made by the platform admin at `price` kr, its SKU starting with `prefix`. */
export async function productWithPrefix(prefix: string, price: number, name: string) {
  const sku = `${prefix}-${randomBytes(4).toString("hex")}`;
  const res = await platform.post("/api/v1/products/", { sku, name, price });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as string, sku, name };
}

/** What the audit log holds about one rule, oldest first. */
export const auditOf = (id: string) => auditRowsOf(ctx.app.db, id);

/** `added` for the rules at `url`: one made by `who` (the platform admin unless told) from `body` and a change. */
export function adder<Rule>(url: string, body: (change?: Record<string, unknown>) => object, schema: z.ZodType<Rule>) {
  return async (change: Record<string, unknown> = {}, who = platform): Promise<Rule> => {
    const res = await who.post(url, body(change));
    expect(res.statusCode, res.body).toBe(201);
    return schema.parse(res.json());
  };
}

/** `listed` for the rules at `url`: the list as `who` gets it for `query`, checked against its contract, with X-Total-Count. */
export function lister<Rule>(url: string, schema: z.ZodType<Rule[]>) {
  return async (query = "", who = platform): Promise<{ items: Rule[]; total: number }> => {
    const res = await who.get(`${url}${query ? `?${query}` : ""}`);
    expect(res.statusCode, res.body).toBe(200);
    return { items: schema.parse(res.json()), total: Number(res.headers["x-total-count"]) };
  };
}

/** Starts the app, makes stores A (named `storeAName`) and B, signs the three callers in, then runs `more`. */
export function useDatedRulesApp(storeAName: string, more: () => Promise<void>): void {
  beforeAll(async () => {
    ctx = await createTestContext();
    const session = await signIn(ctx.app);
    platformEmail = session.email;
    platform = as(ctx.app, session.cookie);
    storeA = await storeIn("Europe/Stockholm", storeAName);
    storeB = await storeIn("Europe/Stockholm", "Grannbutiken");
    const admin = await signIn(ctx.app, "store_admin", [storeA]);
    storeAdminEmail = admin.email;
    storeAdmin = as(ctx.app, admin.cookie);
    nobody = as(ctx.app, null);
    await more();
  });
  afterAll(() => ctx?.close());
}
