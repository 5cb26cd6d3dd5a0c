import type { campaignInputSchema, PriceCampaign } from "@glide/contracts";
import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { type Db, queryRows, type Tx } from "../../db/client.ts";
import { campaigns } from "../../db/schema/index.ts";
import { notFound } from "../../platform/errors.ts";
import { toOre } from "../../platform/money.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { named, recordAudit, recordUpdate } from "../audit/audit.ts";
import { assertMayWriteRule, fieldProblem, UUID } from "../pricing/dated-rules.ts";
import { readCampaign } from "./campaigns.query.ts";

/**
 * Campaigns as admins keep them. A chain-wide campaign (no store) is the
 * platform admins'; a store's campaign is its admins' too. The price must be
 * below the product's catalogue price: a campaign that raised a price would
 * not be one. The product and store are locked while the write checks them,
 * so neither the price nor the store can change under it before it commits.
 */

type Input = z.output<typeof campaignInputSchema>;

const kr = (ore: number) => `${(ore / 100).toFixed(2)} kr`;

/**
 * "Mjölk 1 l (MJ-1) at 12.90 kr in every store from 2026-12-01 to 2026-12-24"
 * (", members only" after it for one): how the audit log names a campaign.
 */
const describeCampaign = (c: PriceCampaign) =>
  `${c.product_name} (${c.sku}) at ${c.price.toFixed(2)} kr in ${c.store_name ?? "every store"} from ${c.starts_on} to ${c.ends_on}${c.members_only ? ", members only" : ""}`;

/** Who may write a campaign of `storeId`: a chain-wide one only platform admins, a store's its admins. */
const assertMayWrite = (actor: AdminActor, storeId: string | null) =>
  assertMayWriteRule(actor, storeId, "set a campaign for every store");

/**
 * The campaign price in öre after the body's product and store are found
 * (422 for one that is not) and locked: the product against a price change,
 * the store against its deletion, until the write commits.
 */
async function checkedPrice(tx: Tx, input: Input): Promise<number> {
  const [product] = await queryRows<{ price_ore: number }>(
    tx,
    sql`select price_ore from products where id = ${input.product_id} for share`,
  );
  if (!product) throw fieldProblem("product_id", `Product ${input.product_id} not found`);
  if (input.store_id !== null) {
    const [store] = await queryRows(tx, sql`select id from stores where id = ${input.store_id} for key share`);
    if (!store) throw fieldProblem("store_id", `Store ${input.store_id} not found`);
  }
  const priceOre = toOre(input.price);
  if (priceOre >= product.price_ore) {
    throw fieldProblem("price", `a campaign price must be below the ordinary price of ${kr(product.price_ore)}`);
  }
  return priceOre;
}

const columnsOf = (input: Input, priceOre: number) => ({
  productId: input.product_id,
  storeId: input.store_id,
  priceOre,
  startsOn: input.starts_on,
  endsOn: input.ends_on,
  membersOnly: input.members_only,
});

/** The campaign by id, locked for the write; 404 for an id that names none. */
async function lockedCampaign(tx: Tx, id: string): Promise<PriceCampaign> {
  const missing = () => notFound(`Campaign ${id} not found`);
  if (!UUID.test(id)) throw missing();
  const [locked] = await queryRows(tx, sql`select id from campaigns where id = ${id} for update`);
  const campaign = locked ? await readCampaign(tx, id) : null;
  if (!campaign) throw missing();
  return campaign;
}

export async function createCampaign(opts: { db: Db; actor: AdminActor; input: Input }): Promise<PriceCampaign> {
  assertMayWrite(opts.actor, opts.input.store_id);
  return opts.db.transaction(async (tx) => {
    const priceOre = await checkedPrice(tx, opts.input);
    const [row] = await tx.insert(campaigns).values(columnsOf(opts.input, priceOre)).returning({ id: campaigns.id });
    const created = (await readCampaign(tx, row!.id))!;
    await recordAudit(tx, {
      actor: opts.actor,
      action: "campaign.create",
      entityType: "campaign",
      entityId: created.id,
      storeId: created.store_id,
      summary: `Campaign ${describeCampaign(created)} created`,
      after: created,
    });
    return created;
  });
}

/**
 * Replaces a campaign with the body. The admin must be allowed both the
 * campaign as it is and as it will be: a store admin cannot move one to a
 * store that is not theirs, nor make it chain-wide.
 */
export async function replaceCampaign(opts: {
  db: Db;
  actor: AdminActor;
  id: string;
  input: Input;
}): Promise<PriceCampaign> {
  return opts.db.transaction(async (tx) => {
    const before = await lockedCampaign(tx, opts.id);
    assertMayWrite(opts.actor, before.store_id);
    assertMayWrite(opts.actor, opts.input.store_id);
    const priceOre = await checkedPrice(tx, opts.input);
    await tx
      .update(campaigns)
      .set({ ...columnsOf(opts.input, priceOre), updatedAt: sql`now()` })
      .where(eq(campaigns.id, opts.id));
    const after = (await readCampaign(tx, opts.id))!;
    await recordUpdate(tx, {
      actor: opts.actor,
      action: "campaign.update",
      entityType: "campaign",
      entityId: opts.id,
      storeId: after.store_id,
      label: named("Campaign", describeCampaign(before)),
      before,
      after,
    });
    return after;
  });
}

export async function deleteCampaign(opts: { db: Db; actor: AdminActor; id: string }): Promise<void> {
  await opts.db.transaction(async (tx) => {
    const before = await lockedCampaign(tx, opts.id);
    assertMayWrite(opts.actor, before.store_id);
    await tx.delete(campaigns).where(eq(campaigns.id, opts.id));
    await recordAudit(tx, {
      actor: opts.actor,
      action: "campaign.delete",
      entityType: "campaign",
      entityId: opts.id,
      storeId: before.store_id,
      summary: `Campaign ${describeCampaign(before)} deleted`,
      before,
    });
  });
}
