import type { CampaignStatus, PriceCampaign } from "@glide/contracts";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { datedStatusAt, literalLike, visibleRulesTo } from "../pricing/dated-rules.ts";

/**
 * Reading campaigns as the console lists them, each with its status on its
 * own today: the store's calendar day for a store's campaign, Sweden's for a
 * chain-wide one (it has no single store; the platform's home is Sweden).
 */

type Row = {
  id: string;
  product_id: string;
  sku: string;
  product_name: string;
  ordinary_ore: number;
  store_id: string | null;
  store_name: string | null;
  price_ore: number;
  starts_on: string;
  ends_on: string;
  members_only: boolean;
  status: CampaignStatus;
};

const toCampaign = (row: Row): PriceCampaign => ({
  id: row.id,
  product_id: row.product_id,
  sku: row.sku,
  product_name: row.product_name,
  ordinary_price: row.ordinary_ore / 100,
  store_id: row.store_id,
  store_name: row.store_name,
  price: row.price_ore / 100,
  starts_on: row.starts_on,
  ends_on: row.ends_on,
  members_only: row.members_only,
  status: row.status,
});

const FROM = sql`from campaigns c join products p on p.id = c.product_id left join stores st on st.id = c.store_id`;

const select = (at: Date) => sql`select c.id, c.product_id, p.sku, p.name as product_name,
    p.price_ore as ordinary_ore, c.store_id, st.name as store_name, c.price_ore,
    c.starts_on::text as starts_on, c.ends_on::text as ends_on, c.members_only, ${datedStatusAt(at)} as status ${FROM}`;

/** One campaign as listed, or null when there is none by that id. */
export async function readCampaign(db: Db | Tx, id: string): Promise<PriceCampaign | null> {
  const [row] = await queryRows<Row>(db, sql`${select(new Date())} where c.id = ${id}`);
  return row ? toCampaign(row) : null;
}

/** GET /api/v1/campaigns: the latest first day first, a page at a time, with the number of all matches. */
export async function listCampaigns(opts: {
  db: Db;
  actor: AdminActor;
  query: { store_id?: string; status?: CampaignStatus; search?: string; limit: number; offset: number };
}): Promise<{ items: PriceCampaign[]; total: number }> {
  const { query } = opts;
  const at = new Date();
  const search = query.search?.trim();
  const conditions = [
    visibleRulesTo(opts.actor, query.store_id),
    query.status ? sql`${datedStatusAt(at)} = ${query.status}` : sql`true`,
    search ? sql`(lower(p.name) like ${literalLike(search)} or lower(p.sku) like ${literalLike(search)})` : sql`true`,
  ];
  const where = sql.join(conditions, sql` and `);
  const [count] = await queryRows<{ n: number }>(opts.db, sql`select count(*)::int as n ${FROM} where ${where}`);
  const rows = await queryRows<Row>(
    opts.db,
    sql`${select(at)} where ${where}
        order by c.starts_on desc, c.created_at desc, c.id limit ${query.limit} offset ${query.offset}`,
  );
  return { items: rows.map(toCampaign), total: count!.n };
}
