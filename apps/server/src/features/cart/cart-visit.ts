import type { Db, Tx } from "../../db/client.ts";
import { conflict, forbidden, notFound } from "../../platform/errors.ts";
import { visitAbandoned } from "../sessions/session-events.ts";
import { loadVisit, type Visit, visitSelect } from "../visits/visit-loader.ts";
import { mustTransition } from "../visits/visit-state.ts";

/**
 * Who changes a cart: the shopper's phone (scans and line changes), or the
 * store's recognition worker (workerChange).
 */
export type CartActor = { kind: "shopper"; customerId: string } | { kind: "device"; storeId: string };

/** The store's modules a cart rule asks about: age limits, and the recognition worker. */
const CART_MODULES = ["age_verification", "ai_product_recognition"] as const;

/** The visit with what every cart rule needs. */
export type SessionRow = Visit<(typeof CART_MODULES)[number]>;

/**
 * The visit's select for the cart. `lock`: FOR KEY SHARE, which waits for a
 * checkout that holds the visit (FOR UPDATE) and then reads the state it
 * left: a change is either in the cart the checkout charges, or refused
 * because the cart is frozen. Changes do not wait for each other. "skip
 * locked": a visit a checkout holds is not waited for but not found.
 */
export const sessionSelect = (sessionId: string, lock: boolean | "skip locked" = false) =>
  visitSelect({ sessionId }, cartView(lock));

const cartView = (lock: boolean | "skip locked") => ({
  modules: CART_MODULES,
  ...(lock === "skip locked" ? { lock: "key share skip locked" as const } : lock ? { lock: "key share" as const } : {}),
});

/** The visit as sessionSelect reads it; undefined when there is no such visit. */
export function loadSession(db: Db | Tx, sessionId: string, lock = false): Promise<SessionRow | undefined> {
  return loadVisit(db, { sessionId }, cartView(lock));
}

/** The visit, checked for the actor and for a cart that may change (checkSession). */
export async function openSession(db: Db | Tx, actor: CartActor, sessionId: string, lock = false): Promise<SessionRow> {
  return checkSession(actor, await loadSession(db, sessionId, lock));
}

/** The checks in the order a shopper would hear them: whose visit, then where the visit stands. */
export function checkSession(actor: CartActor, session: SessionRow | undefined): SessionRow {
  if (!session) throw notFound("Sessionen finns inte.", "unknown_session");
  if (actor.kind === "shopper" && session.customer_id !== actor.customerId)
    throw forbidden("Det här är inte din session.");
  if (actor.kind === "device" && session.store_id !== actor.storeId)
    throw forbidden("The session belongs to another store", "wrong_store");
  // Closed by the sweep with an empty cart: the shopper hears why.
  if (session.state === "ended_empty" && session.abandoned_at) throw visitAbandoned();
  mustTransition(session.state, "cart_change", { hasGoods: false, gone: false });
  if (!session.store_active) throw conflict("Butiken är stängd just nu.", "store_inactive");
  return session;
}
