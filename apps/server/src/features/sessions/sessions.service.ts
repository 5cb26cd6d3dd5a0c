import type { EntrySession, VisitState } from "@glide/contracts";
import { and, eq } from "drizzle-orm";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import { doorEvents, shoppingSessions, storeDeviceKeys, stores } from "../../db/schema/index.ts";
import { randomToken, safeEqual, sha256 } from "../../platform/crypto.ts";
import type { DoorController } from "../../platform/door.ts";
import {
  AppError,
  conflict,
  forbidden,
  isForeignKeyViolation,
  isUniqueViolation,
  notFound,
  unauthorized,
} from "../../platform/errors.ts";
import { mustTransition, transition } from "../visits/visit-state.ts";
import { unpaidVisits } from "../visits/visits.ts";
import { type AnnounceSession, announceNothing, recordSessionEvent } from "./session-events.ts";

/** Kronor as a Swedish shopper reads them: "83,70 kr". */
const kronor = (amount: number) =>
  `${amount.toLocaleString("sv-SE", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} kr`;

const noCard = () =>
  conflict("Lägg till ett betalkort innan du går in, så betalas köpet automatiskt när du går ut.", "no_payment_method");

/** Whether the shopper has a card on file; undefined for a shopper who is not there. */
async function hasCard(db: Db | Tx, customerId: string): Promise<boolean | undefined> {
  const [row] = await queryRows<{ has_card: boolean }>(
    db,
    sql`select payment_method_id is not null as has_card from customers where id = ${customerId}`,
  );
  return row?.has_card;
}

/**
 * A new entry code. A visit the shopper left with goods and no payment must
 * be paid first, in any store. Where the shopper already has an open visit
 * in this store, the code is a way back into that same visit (one open visit
 * per store; the door never opens a second). Otherwise it starts a new
 * visit, and the shopper's earlier unused codes stop working in every store:
 * the phone shows one code at a time, so an older one can only be a
 * screenshot or a forgotten tab. Where the store asks for a card on file
 * (store/require_card_at_door), a shopper without one gets no code: they
 * would get in and could not pay their way out.
 */
export async function createEntrySession(opts: {
  db: Db;
  customerId: string;
  storeId: string;
  ttlSeconds: number;
  /** The store's store/require_card_at_door, where a payment provider is configured. */
  requireCard?: boolean;
  announce?: AnnounceSession;
}): Promise<EntrySession> {
  const [store] = await opts.db.select({ isActive: stores.isActive }).from(stores).where(eq(stores.id, opts.storeId));
  if (!store) throw notFound("Butiken finns inte.", "unknown_store");
  if (!store.isActive) throw conflict("Butiken är stängd just nu.", "store_inactive");
  const [unpaid] = await unpaidVisits(opts.db, opts.customerId);
  if (unpaid)
    throw conflict(
      `Du har ett obetalt besök i ${unpaid.store_name} (${kronor(unpaid.total)}). ` +
        "Betala det i appen innan du går in igen, eller kontakta butiken.",
      "unpaid_visit",
    );
  // An unknown customer (deleted while the token still verified) is told to sign in, below.
  if (opts.requireCard && (await hasCard(opts.db, opts.customerId)) === false) throw noCard();
  const token = randomToken(24);
  const expiresAt = new Date(Date.now() + opts.ttlSeconds * 1000);
  try {
    const session = await opts.db.transaction(async (tx) => {
      // Every unused code of the shopper stops working: a visit not yet through the door is cancelled, a way back
      // into an open visit is dropped (the visit stays open). The update locks each row: a scan of one of them
      // either finished first (the code is used, the row is left alone) or waits and then finds it revoked.
      const replaced = await queryRows<{ id: string; storeId: string }>(
        tx,
        sql`update shopping_sessions
            set state = case when state = 'entering' then 'cancelled' else state end, entry_revoked_at = now()
            where customer_id = ${opts.customerId} and state in ('entering', 'in_store', 'charging')
              and entry_used_at is null and entry_revoked_at is null
            returning id, store_id as "storeId"`,
      );
      for (const old of replaced)
        await recordSessionEvent(tx, {
          sessionId: old.id,
          storeId: old.storeId,
          kind: "entry_revoked",
          source: "phone",
          detail: { reason: "replaced" },
        });
      const [open] = await queryRows<{ id: string; state: VisitState }>(
        tx,
        sql`select id, state from shopping_sessions
            where customer_id = ${opts.customerId} and store_id = ${opts.storeId} and state in ('in_store', 'charging')
            for update`,
      );
      if (open) {
        mustTransition(open.state, "entry_again", { hasGoods: false, gone: false });
        await tx.execute(
          sql`update shopping_sessions set entry_token_hash = ${sha256(token)}, entry_expires_at = ${expiresAt},
                entry_used_at = null, entry_revoked_at = null
              where id = ${open.id}`,
        );
        await recordSessionEvent(tx, {
          sessionId: open.id,
          storeId: opts.storeId,
          kind: "entry_issued",
          source: "phone",
          detail: { continued: true },
        });
        return { id: open.id, replaced };
      }
      const [row] = await tx
        .insert(shoppingSessions)
        .values({
          customerId: opts.customerId,
          storeId: opts.storeId,
          entryTokenHash: sha256(token),
          entryExpiresAt: expiresAt,
        })
        .returning({ id: shoppingSessions.id });
      await recordSessionEvent(tx, {
        sessionId: row!.id,
        storeId: opts.storeId,
        kind: "entry_issued",
        source: "phone",
      });
      return { id: row!.id, replaced };
    });
    const announce = opts.announce ?? announceNothing;
    for (const old of session.replaced)
      await announce({ store_id: old.storeId, session_id: old.id, kind: "entry_revoked" });
    await announce({ store_id: opts.storeId, session_id: session.id, kind: "entry_issued" });
    return {
      session_id: session.id,
      session_token: token,
      store_id: opts.storeId,
      expires_at: expiresAt.toISOString(),
    };
  } catch (err) {
    // The customer was deleted while their token still verified.
    if (isForeignKeyViolation(err)) throw unauthorized("Logga in med BankID först.", "unauthorized");
    throw err;
  }
}

/**
 * The shopper dropped an entry code ("Avbryt", "Börja om"): it no longer
 * opens the door. Cancelling twice is fine; a code that already opened the
 * door cannot be taken back. A way back into an open visit is dropped the
 * same way, and the visit stays open.
 */
export async function cancelEntrySession(opts: {
  db: Db;
  customerId: string;
  sessionId: string;
  announce?: AnnounceSession;
}): Promise<void> {
  const cancelled = await opts.db.transaction(async (tx) => {
    const [visit] = await queryRows<{
      id: string;
      customer_id: string;
      store_id: string;
      state: VisitState;
      entry_used_at: Date | null;
      entry_revoked_at: Date | null;
    }>(
      tx,
      sql`select id, customer_id, store_id, state, entry_used_at, entry_revoked_at
          from shopping_sessions where id = ${opts.sessionId} for update`,
    );
    if (!visit) throw notFound("Sessionen finns inte.", "unknown_session");
    if (visit.customer_id !== opts.customerId) throw forbidden("Det här är inte din session.");
    if (visit.entry_used_at) throw conflict("Dörren har redan öppnats för det här besöket.", "door_opened");
    const next = transition(visit.state, "cancel", { hasGoods: false, gone: false });
    if (!next.ok) throw conflict("Dörren har redan öppnats för det här besöket.", "door_opened");
    // Only the first cancel is an event.
    if (visit.entry_revoked_at) return null;
    await tx.execute(
      sql`update shopping_sessions set state = ${next.to}, entry_revoked_at = now() where id = ${visit.id}`,
    );
    await recordSessionEvent(tx, {
      sessionId: visit.id,
      storeId: visit.store_id,
      kind: "entry_revoked",
      source: "phone",
      detail: { reason: "cancelled" },
    });
    return visit;
  });
  if (cancelled)
    await (opts.announce ?? announceNothing)({
      store_id: cancelled.store_id,
      session_id: cancelled.id,
      kind: "entry_revoked",
    });
}

/** Who is asking to open the door: the store's scanner (device key) or, with DEV_TOOLS, the shopper's test button. */
export type DoorCaller = { kind: "device"; key: string } | { kind: "shopper"; customerId: string };

async function checkDeviceKey(db: Db, key: string, storeId: string): Promise<void> {
  const [device] = await db
    .select({ id: storeDeviceKeys.id, storeId: storeDeviceKeys.storeId })
    .from(storeDeviceKeys)
    .where(and(eq(storeDeviceKeys.keyHash, sha256(key)), eq(storeDeviceKeys.kind, "door_scanner")));
  if (!device) throw unauthorized("Unknown device key", "invalid_device_key");
  if (device.storeId !== storeId) throw forbidden("This scanner belongs to another store", "wrong_store");
  await db.update(storeDeviceKeys).set({ lastUsedAt: sql`now()` }).where(eq(storeDeviceKeys.id, device.id));
}

/**
 * The door scanner read an entry QR code. The token must match, be unused
 * and in time, and be for this store; then the door opens, once.
 */
export async function scanAtDoor(opts: {
  db: Db;
  door: DoorController;
  caller: DoorCaller;
  sessionId: string;
  sessionToken: string;
  storeId: string;
  /**
   * The store's store/require_card_at_door, asked only once the caller is known (read before the
   * transaction: PGlite has one connection). A card removed after the entry code was given is missed
   * otherwise, and its shopper would be inside with no way to pay out.
   */
  requireCard?: () => Promise<boolean>;
  announce?: AnnounceSession;
}): Promise<{ door_opened: true; session_id: string }> {
  const { db, caller } = opts;
  if (caller.kind === "device") await checkDeviceKey(db, caller.key, opts.storeId);
  const requireCard = (await opts.requireCard?.()) ?? false;
  const opened = await db.transaction(async (tx) => {
    const [session] = await tx
      .select()
      .from(shoppingSessions)
      .where(eq(shoppingSessions.id, opts.sessionId))
      .for("update");
    if (!session) throw notFound("Okänd QR-kod.", "unknown_session");
    if (caller.kind === "shopper" && session.customerId !== caller.customerId)
      throw forbidden("Det här är inte din session.");
    if (session.storeId !== opts.storeId) throw forbidden("QR-koden gäller en annan butik.", "wrong_store");
    // A cancelled or replaced code is as invalid as a made-up one.
    if (!safeEqual(session.entryTokenHash, sha256(opts.sessionToken)) || session.entryRevokedAt)
      throw forbidden("Ogiltig QR-kod.", "invalid_token");
    if (session.entryUsedAt) throw conflict("QR-koden är redan använd.", "token_used");
    if (session.entryExpiresAt.getTime() < Date.now())
      throw new AppError(410, "token_expired", "QR-koden har gått ut. Vänligen börja om.");
    const next = mustTransition(session.state, "door", { hasGoods: false, gone: false });
    if (requireCard && !(await hasCard(tx, session.customerId))) throw noCard();
    const reentry = session.state === "in_store";
    try {
      await tx.execute(
        sql`update shopping_sessions set state = ${next.to}, entry_used_at = now(),
              door_opened_at = coalesce(door_opened_at, now())
            where id = ${session.id}`,
      );
    } catch (err) {
      // Another code of this shopper opened the door to this store a moment ago: one open visit per store.
      if (isUniqueViolation(err))
        throw conflict("Du har redan ett pågående besök i den här butiken. Fortsätt handla i det.", "visit_open");
      throw err;
    }
    await tx.insert(doorEvents).values({ storeId: session.storeId, sessionId: session.id, via: caller.kind });
    await recordSessionEvent(tx, {
      sessionId: session.id,
      storeId: session.storeId,
      kind: "door_opened",
      source: "door",
      // Which door (a webhook to the lock or the demo's simulated one) and who asked (the scanner or the test button).
      detail: {
        via: opts.door.kind,
        caller: caller.kind === "device" ? "scanner" : "test_button",
        ...(reentry ? { reentry: true } : {}),
      },
    });
    // Last, so a refusal above never opens it; a door that does not answer undoes the whole entry.
    try {
      await opts.door.open({ storeId: session.storeId, sessionId: session.id });
    } catch (err) {
      throw new AppError(502, "door_unavailable", `Kunde inte öppna dörren. Försök igen. (${(err as Error).message})`);
    }
    return { door_opened: true as const, session_id: session.id, store_id: session.storeId };
  });
  await (opts.announce ?? announceNothing)({
    store_id: opened.store_id,
    session_id: opened.session_id,
    kind: "door_opened",
  });
  return { door_opened: true, session_id: opened.session_id };
}

export async function doorStatus(opts: {
  db: Db;
  customerId: string;
  sessionId: string;
}): Promise<{ door_opened: boolean }> {
  const [session] = await opts.db
    .select({ customerId: shoppingSessions.customerId, doorOpenedAt: shoppingSessions.doorOpenedAt })
    .from(shoppingSessions)
    .where(eq(shoppingSessions.id, opts.sessionId));
  if (!session) throw notFound("Sessionen finns inte.", "unknown_session");
  if (session.customerId !== opts.customerId) throw forbidden("Det här är inte din session.");
  // A way back into an open visit counts as opened: the phone goes straight back to the shop.
  return { door_opened: session.doorOpenedAt !== null };
}
