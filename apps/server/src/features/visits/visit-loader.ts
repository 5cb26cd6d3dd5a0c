import type { VisitState } from "@glide/contracts";
import type { SQL } from "drizzle-orm";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import { moduleEnabled, type StoreModuleId } from "../stores/store-modules.ts";

/**
 * Which visit: one by its id, or the shopper's open visit (inside the store,
 * or being paid) that went through the door last.
 */
export type VisitKey = { sessionId: string } | { openOf: string };

/**
 * The row lock a reader takes on the visit. "update": the checkout, which
 * freezes the cart. "key share": a cart change, which waits for a checkout
 * that holds the visit but not for other changes. "key share skip locked":
 * the same, except that a visit a checkout holds is passed over at once, as
 * if there were none (a batch of scans, which must not wait on one visit).
 */
export type VisitLock = "update" | "key share" | "key share skip locked";

const LOCK_CLAUSES: Record<VisitLock, string> = {
  update: " for update of s",
  "key share": " for key share of s",
  "key share skip locked": " for key share of s skip locked",
};

export type VisitOptions<M extends StoreModuleId> = {
  lock?: VisitLock;
  /** The store's modules to answer, each as a boolean column named by its id. */
  modules?: readonly M[];
  /** Also what a charge needs: the store's details for the receipt, and the shopper's saved card. */
  charge?: boolean;
};

/** A visit with its store and shopper, as every reader gets it. */
export type Visit<M extends StoreModuleId = never> = {
  id: string;
  customer_id: string;
  store_id: string;
  state: VisitState;
  abandoned_at: Date | string | null;
  /** The shopper left through the exit, or the sweep closed the visit. */
  gone: boolean;
  store_active: boolean;
  timezone: string;
  birth_date: string;
  /** The shopper agreed to the face check at the exit. */
  face_consent: boolean;
  /** The shopper is a member of the chain: members-only campaigns and offers apply. */
  member: boolean;
} & { [K in M]: boolean };

/** What a charge adds to the visit (`charge: true`). */
export type ChargeDetails = {
  store_name: string;
  legal_name: string | null;
  organization_number: string | null;
  address: string | null;
  postal_code: string | null;
  city: string | null;
  currency: string;
  /** Which country's VAT table applies, and the store's own rate where it has no entry. */
  country: string;
  vat_rate_bp: number;
  payment_customer_id: string | null;
  payment_method_id: string | null;
};

/** The visit's select, for a statement that uses it as a part (a `with` clause) as well as for loadVisit. */
export function visitSelect<M extends StoreModuleId>(key: VisitKey, opts: VisitOptions<M> = {}): SQL {
  const modules = (opts.modules ?? []).map(
    (id) => sql`, ${moduleEnabled(id, sql`s.store_id`)} as ${sql.identifier(id)}`,
  );
  const charge = opts.charge
    ? sql`, st.name as store_name, st.legal_name, st.organization_number, st.address, st.postal_code, st.city,
          st.currency, st.country, st.vat_rate_bp, c.payment_customer_id, c.payment_method_id`
    : sql``;
  const which =
    "sessionId" in key
      ? sql`where s.id = ${key.sessionId}`
      : // Nulls first: a visit not yet through the door counts as the latest, as it always has here.
        sql`where s.customer_id = ${key.openOf} and s.state in ('in_store', 'charging')
          order by s.door_opened_at desc limit 1`;
  const lock = opts.lock ? sql.raw(LOCK_CLAUSES[opts.lock]) : sql``;
  return sql`select s.id, s.customer_id, s.store_id, s.state, s.abandoned_at,
        (s.exited_at is not null or s.abandoned_at is not null) as gone,
        st.is_active as store_active, st.timezone, c.birth_date::text as birth_date,
        c.face_consent_at is not null as face_consent, c.member_since is not null as member${sql.join(modules)}${charge}
      from shopping_sessions s
      join stores st on st.id = s.store_id
      join customers c on c.id = s.customer_id
      ${which}${lock}`;
}

/**
 * The one way features read a shopper's visit: the cart (each change, under
 * FOR KEY SHARE), the checkout (under FOR UPDATE, with what a charge needs)
 * and the face check (the shopper's open visit). Undefined when there is none.
 */
export async function loadVisit<M extends StoreModuleId = never>(
  db: Db | Tx,
  key: VisitKey,
  opts: VisitOptions<M> & { charge: true },
): Promise<(Visit<M> & ChargeDetails) | undefined>;
export async function loadVisit<M extends StoreModuleId = never>(
  db: Db | Tx,
  key: VisitKey,
  opts?: VisitOptions<M>,
): Promise<Visit<M> | undefined>;
export async function loadVisit<M extends StoreModuleId>(
  db: Db | Tx,
  key: VisitKey,
  opts: VisitOptions<M> = {},
): Promise<Visit<M> | undefined> {
  const [row] = await queryRows<Visit<M>>(db, visitSelect(key, opts));
  return row;
}
