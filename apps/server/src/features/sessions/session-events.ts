import { eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db, Tx } from "../../db/client.ts";
import { sessionEvents, shoppingSessions } from "../../db/schema/index.ts";
import { conflict } from "../../platform/errors.ts";
import type { EventBus } from "../../platform/event-bus.ts";

/** Who or what did something in a visit. */
export type EventSource = "phone" | "camera_worker" | "staff" | "door" | "exit_gate" | "system";

export type SessionEvent = {
  sessionId: string;
  storeId: string | null;
  /** entry_issued, door_opened, item_added, quantity_changed, item_removed, exit_qr, face_check, charged, refund… */
  kind: string;
  source: EventSource;
  adminId?: string | null;
  detail?: Record<string, unknown> | null;
  /** false for events that are not the shopper's own activity (the abandoned sweep ignores those). */
  activity?: boolean;
};

/**
 * How stale a visit's last_activity_at may be: a scan moves it only when it is
 * older than this, so a busy visit's row is not rewritten (and its indexes
 * with it) on every scan. Abandonment is judged in minutes (5 at the least).
 */
export const ACTIVITY_PRECISION = "30 seconds";

/** The bus topic the Sessions screen listens on: { store_id, session_id, kind }. */
export const SESSIONS_TOPIC = "sessions.changed";

/** What SESSIONS_TOPIC carries: which visit changed and how; the screen reloads what it shows of it. */
export type SessionChange = { store_id: string | null; session_id: string; kind: string };

/** Tells the Sessions screens that a visit changed; call it after the change committed. */
export type AnnounceSession = (change: SessionChange) => Promise<void>;

/**
 * Adds one event to a visit's timeline (and, for the shopper's own activity,
 * moves its last_activity_at). Call it inside the transaction that makes the
 * change; announce it on SESSIONS_TOPIC after that transaction commits.
 */
export async function recordSessionEvent(tx: Db | Tx, event: SessionEvent): Promise<void> {
  await tx.insert(sessionEvents).values({
    sessionId: event.sessionId,
    storeId: event.storeId,
    kind: event.kind,
    source: event.source,
    adminId: event.adminId ?? null,
    detail: event.detail ?? null,
  });
  if (event.activity !== false) {
    await tx
      .update(shoppingSessions)
      .set({ lastActivityAt: sql`now()` })
      .where(eq(shoppingSessions.id, event.sessionId));
  }
}

/**
 * The announcer of one instance. The change is already committed and the
 * screens reload on the next message or reconnect anyway, so a failure to
 * publish is logged, never answered as an error (as cart events are).
 */
export function sessionAnnouncer(bus: EventBus, log: FastifyBaseLogger): AnnounceSession {
  return async (change) => {
    try {
      await bus.publish(SESSIONS_TOPIC, change);
    } catch (err) {
      log.warn({ err: (err as Error).message, kind: change.kind }, "session change not published");
    }
  };
}

/** For callers without a bus (scripts, unit tests of a service). */
export const announceNothing: AnnounceSession = async () => {};

/** The shopper's answer when a visit closed by the abandoned sweep is used again: its cart is kept, never charged. */
export const visitAbandoned = () =>
  conflict("Besöket avslutades efter en stund utan aktivitet och debiteras inte.", "visit_abandoned");
