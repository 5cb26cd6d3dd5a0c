import { eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { sessionEvents, shoppingSessions } from "../../db/schema/index.ts";

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

/** The bus topic the Sessions screen listens on: { store_id, session_id }. */
export const SESSIONS_TOPIC = "sessions.changed";

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
