import type { CampaignStatus, MultiBuyOffer, MultiBuyOfferKind } from "@glide/contracts";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { datedStatusAt, literalLike, visibleRulesTo } from "../pricing/dated-rules.ts";

/**
 * Reading multi-buy offers as the console lists them, each with its products
 * (by name) and its status on its own today, as campaigns are.
 */

type Row = {
  id: string;
  label: string;
  kind: MultiBuyOfferKind;
  buy: number;
  amount_ore: number | null;
  products: { id: string; sku: string; name: string; price_ore: number }[];
  store_id: string | null;
  store_name: string | null;
  starts_on: string;
  ends_on: string;
  limit_per_visit: number | null;
  members_only: boolean;
  status: CampaignStatus;
};

const toOffer = (row: Row): MultiBuyOffer => ({
  id: row.id,
  label: row.label,
  kind: row.kind,
  buy: row.buy,
  amount: row.amount_ore === null ? null : row.amount_ore / 100,
  products: row.products.map((p) => ({ id: p.id, sku: p.sku, name: p.name, price: p.price_ore / 100 })),
  store_id: row.store_id,
  store_name: row.store_name,
  starts_on: row.starts_on,
  ends_on: row.ends_on,
  limit_per_visit: row.limit_per_visit,
  members_only: row.members_only,
  status: row.status,
});

const FROM = sql`from offers o left join stores st on st.id = o.store_id`;

const PRODUCTS = sql`(select coalesce(json_agg(json_build_object('id', p.id, 'sku', p.sku, 'name', p.name,
    'price_ore', p.price_ore) order by p.name, p.sku), '[]'::json)
    from offer_products op join products p on p.id = op.product_id where op.offer_id = o.id)`;

const select = (at: Date) => sql`select o.id, o.label, o.kind, o.buy, o.amount_ore, ${PRODUCTS} as products,
    o.store_id, st.name as store_name, o.starts_on::text as starts_on, o.ends_on::text as ends_on,
    o.limit_per_visit, o.members_only, ${datedStatusAt(at, "o")} as status ${FROM}`;

/** One offer as listed, or null when there is none by that id. */
export async function readOffer(db: Db | Tx, id: string): Promise<MultiBuyOffer | null> {
  const [row] = await queryRows<Row>(db, sql`${select(new Date())} where o.id = ${id}`);
  return row ? toOffer(row) : null;
}

/** GET /api/v1/offers: the latest first day first, a page at a time, with the number of all matches. */
export async function listOffers(opts: {
  db: Db;
  actor: AdminActor;
  query: { store_id?: string; status?: CampaignStatus; search?: string; limit: number; offset: number };
}): Promise<{ items: MultiBuyOffer[]; total: number }> {
  const { query } = opts;
  const at = new Date();
  const search = query.search?.trim();
  const like = search ? literalLike(search) : "";
  const conditions = [
    visibleRulesTo(opts.actor, query.store_id, "o"),
    query.status ? sql`${datedStatusAt(at, "o")} = ${query.status}` : sql`true`,
    search
      ? sql`(lower(o.label) like ${like} or exists (select 1 from offer_products op join products p on p.id = op.product_id
          where op.offer_id = o.id and (lower(p.name) like ${like} or lower(p.sku) like ${like})))`
      : sql`true`,
  ];
  const where = sql.join(conditions, sql` and `);
  const [count] = await queryRows<{ n: number }>(opts.db, sql`select count(*)::int as n ${FROM} where ${where}`);
  const rows = await queryRows<Row>(
    opts.db,
    sql`${select(at)} where ${where}
        order by o.starts_on desc, o.created_at desc, o.id limit ${query.limit} offset ${query.offset}`,
  );
  return { items: rows.map(toOffer), total: count!.n };
}
