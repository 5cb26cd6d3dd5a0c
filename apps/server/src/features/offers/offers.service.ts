import { type MultiBuyOffer, multiBuyDealText, type multiBuyOfferInputSchema } from "@glide/contracts";
import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { type Db, queryRows, type Tx } from "../../db/client.ts";
import { offerProducts, offers } from "../../db/schema/index.ts";
import { notFound } from "../../platform/errors.ts";
import { toOre } from "../../platform/money.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { named, recordAudit, recordUpdate } from "../audit/audit.ts";
import { assertMayWriteRule, fieldProblem, UUID } from "../pricing/dated-rules.ts";
import { readOffer } from "./offers.query.ts";

/**
 * Multi-buy offers as admins keep them, with the campaigns' rules of who may
 * write what. A fixed price must be below what `buy` units of the cheapest
 * product it takes cost at catalogue price: an "offer" that cost as much or
 * more would be none. The products and store are locked while the write
 * checks them, so no price or store changes under it before it commits.
 */

type Input = z.output<typeof multiBuyOfferInputSchema>;

const kr = (ore: number) => `${(ore / 100).toFixed(2)} kr`;

/**
 * '"Kaffe 3 för 2" (3 för 2) on Kaffe, Te in every store from 2026-12-01 to
 * 2026-12-24' (", members only" after it for one): how the audit log names an offer.
 */
const describeOffer = (o: MultiBuyOffer) =>
  `"${o.label}" (${multiBuyDealText(o)}) on ${o.products.map((p) => p.name).join(", ")} in ${o.store_name ?? "every store"} from ${o.starts_on} to ${o.ends_on}${o.members_only ? ", members only" : ""}`;

const assertMayWrite = (actor: AdminActor, storeId: string | null) =>
  assertMayWriteRule(actor, storeId, "set an offer for every store");

/**
 * The fixed price in öre (null for one_free) after the body's products and
 * store are found (422 naming the first that is not) and locked.
 */
async function checkedAmount(tx: Tx, input: Input): Promise<number | null> {
  const found = await queryRows<{ id: string; price_ore: number }>(
    tx,
    sql`select id, price_ore from products
        where id in (select unnest(${`{${input.product_ids.join(",")}}`}::uuid[])) order by id for share`,
  );
  const missing = input.product_ids.find((id) => !found.some((p) => p.id === id));
  if (missing) throw fieldProblem("product_ids", `Product ${missing} not found`);
  if (input.store_id !== null) {
    const [store] = await queryRows(tx, sql`select id from stores where id = ${input.store_id} for key share`);
    if (!store) throw fieldProblem("store_id", `Store ${input.store_id} not found`);
  }
  if (input.kind !== "amount") return null;
  const amountOre = toOre(input.amount!);
  const full = input.buy * Math.min(...found.map((p) => p.price_ore));
  if (amountOre >= full) {
    throw fieldProblem(
      "amount",
      `a fixed price must be below what ${input.buy} of the cheapest product cost, ${kr(full)}`,
    );
  }
  return amountOre;
}

const columnsOf = (input: Input, amountOre: number | null) => ({
  label: input.label,
  kind: input.kind,
  buy: input.buy,
  amountOre,
  storeId: input.store_id,
  startsOn: input.starts_on,
  endsOn: input.ends_on,
  limitPerVisit: input.limit_per_visit,
  membersOnly: input.members_only,
});

async function writeProducts(tx: Tx, offerId: string, productIds: readonly string[]): Promise<void> {
  await tx.delete(offerProducts).where(eq(offerProducts.offerId, offerId));
  await tx.insert(offerProducts).values(productIds.map((productId) => ({ offerId, productId })));
}

/** The offer by id, locked for the write; 404 for an id that names none. */
async function lockedOffer(tx: Tx, id: string): Promise<MultiBuyOffer> {
  const missing = () => notFound(`Offer ${id} not found`);
  if (!UUID.test(id)) throw missing();
  const [locked] = await queryRows(tx, sql`select id from offers where id = ${id} for update`);
  const offer = locked ? await readOffer(tx, id) : null;
  if (!offer) throw missing();
  return offer;
}

export async function createOffer(opts: { db: Db; actor: AdminActor; input: Input }): Promise<MultiBuyOffer> {
  assertMayWrite(opts.actor, opts.input.store_id);
  return opts.db.transaction(async (tx) => {
    const amountOre = await checkedAmount(tx, opts.input);
    const [row] = await tx.insert(offers).values(columnsOf(opts.input, amountOre)).returning({ id: offers.id });
    await writeProducts(tx, row!.id, opts.input.product_ids);
    const created = (await readOffer(tx, row!.id))!;
    await recordAudit(tx, {
      actor: opts.actor,
      action: "offer.create",
      entityType: "offer",
      entityId: created.id,
      storeId: created.store_id,
      summary: `Offer ${describeOffer(created)} created`,
      after: created,
    });
    return created;
  });
}

/**
 * Replaces an offer, its products too. The admin must be allowed both the
 * offer as it is and as it will be: a store admin cannot move one to a store
 * that is not theirs, nor make it chain-wide.
 */
export async function replaceOffer(opts: {
  db: Db;
  actor: AdminActor;
  id: string;
  input: Input;
}): Promise<MultiBuyOffer> {
  return opts.db.transaction(async (tx) => {
    const before = await lockedOffer(tx, opts.id);
    assertMayWrite(opts.actor, before.store_id);
    assertMayWrite(opts.actor, opts.input.store_id);
    const amountOre = await checkedAmount(tx, opts.input);
    await tx
      .update(offers)
      .set({ ...columnsOf(opts.input, amountOre), updatedAt: sql`now()` })
      .where(eq(offers.id, opts.id));
    await writeProducts(tx, opts.id, opts.input.product_ids);
    const after = (await readOffer(tx, opts.id))!;
    await recordUpdate(tx, {
      actor: opts.actor,
      action: "offer.update",
      entityType: "offer",
      entityId: opts.id,
      storeId: after.store_id,
      label: named("Offer", describeOffer(before)),
      before,
      after,
    });
    return after;
  });
}

export async function deleteOffer(opts: { db: Db; actor: AdminActor; id: string }): Promise<void> {
  await opts.db.transaction(async (tx) => {
    const before = await lockedOffer(tx, opts.id);
    assertMayWrite(opts.actor, before.store_id);
    await tx.delete(offers).where(eq(offers.id, opts.id));
    await recordAudit(tx, {
      actor: opts.actor,
      action: "offer.delete",
      entityType: "offer",
      entityId: opts.id,
      storeId: before.store_id,
      summary: `Offer ${describeOffer(before)} deleted`,
      before,
    });
  });
}
