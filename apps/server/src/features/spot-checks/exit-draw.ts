import { type Db, queryRows, sql } from "../../db/client.ts";
import { type AnnounceSession, recordSessionEvent } from "../sessions/session-events.ts";

/**
 * Whether an exit is picked for a staff check: with probability `share`
 * (0–0.2, the store's setting), never on the shopper's first visit to the
 * store. `draw` is uniform in [0, 1).
 */
export function pickForSpotCheck(share: number, firstVisit: boolean, draw: number): boolean {
  return !firstVisit && share > 0 && draw < share;
}

let draw: () => number = Math.random;
/** Tests seed the draws; the returned function puts Math.random back. */
export function useSpotCheckRandom(random: () => number): () => void {
  draw = random;
  return () => {
    draw = Math.random;
  };
}

/**
 * After a paid exit, at the gate or paid from the phone (a face check, or
 * "Kunde inte scanna? Tryck här"): the visit's one draw, taken by whichever
 * exit comes first, so neither a repeated gate read nor paying again gives a
 * second chance. Picked with the store's share, never on the shopper's first
 * visit to the store. True when the visit was flagged.
 */
export async function flagAtExit(opts: {
  db: Db;
  announce: AnnounceSession;
  sessionId: string;
  storeId: string;
  customerId: string;
  /** Read before any transaction: store/spot_check_share. */
  share: number;
}): Promise<boolean> {
  if (opts.share <= 0) return false;
  const [visit] = await queryRows<{ earlier: boolean }>(
    opts.db,
    sql`update shopping_sessions set spot_check_drawn_at = now()
        where id = ${opts.sessionId} and spot_check_drawn_at is null
        returning exists (select 1 from shopping_sessions s where s.customer_id = ${opts.customerId}
                            and s.store_id = ${opts.storeId} and s.id <> ${opts.sessionId}
                            and s.checked_out_at is not null) as earlier`,
  );
  if (!visit) return false;
  if (!pickForSpotCheck(opts.share, !visit.earlier, draw())) return false;
  const flagged = await opts.db.transaction(async (tx) => {
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`insert into spot_checks (session_id, order_id, store_id, customer_id)
          select ${opts.sessionId}, (select id from orders where session_id = ${opts.sessionId}), ${opts.storeId}, ${opts.customerId}
          on conflict (session_id) do nothing returning id`,
    );
    if (rows.length === 0) return false;
    await recordSessionEvent(tx, {
      sessionId: opts.sessionId,
      storeId: opts.storeId,
      kind: "spot_check_flagged",
      source: "system",
      activity: false,
      detail: { spot_check_id: rows[0]!.id },
    });
    return true;
  });
  if (flagged) await opts.announce({ store_id: opts.storeId, session_id: opts.sessionId, kind: "spot_check_flagged" });
  return flagged;
}

/** What the exit page tells a shopper whose visit was picked (GET /api/v1/exit/status). */
export const SPOT_CHECK_NOTICE = "Personalen gör en snabb kontroll vid utgången.";

/** The notice while the visit's check is waiting for staff; null when it was not picked or is decided. */
export async function spotCheckNotice(db: Db, sessionId: string): Promise<string | null> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from spot_checks where session_id = ${sessionId} and outcome is null`,
  );
  return rows.length > 0 ? SPOT_CHECK_NOTICE : null;
}
