import { type Db, queryRows, sql } from "../../db/client.ts";
import { decrypt, deriveKey, encrypt } from "../../platform/crypto.ts";
import { clearExpired, type ExpiryJob } from "../../platform/housekeeping.ts";

/**
 * Where a visit's face descriptor is kept while its shopper is in the store:
 * sealed with a key of its own (derived from SECRET_KEY for this purpose
 * only) and bound to the visit, so a sealed value copied to another visit's
 * row does not open. The database's triggers (migration 0029) delete it when
 * the visit leaves the store or consent is withdrawn; `sweepDescriptors`
 * deletes any the triggers could not reach.
 */

export type DescriptorSeal = {
  seal(sessionId: string, descriptor: Float32Array): string;
  /** Null when it does not open (another key, another visit, tampered with). */
  open(sessionId: string, sealed: string): Float32Array | null;
};

export function descriptorSeal(secretKey: string): DescriptorSeal {
  const key = deriveKey(secretKey, "face-descriptor-seal");
  return {
    seal: (sessionId, descriptor) =>
      encrypt(
        key,
        Buffer.from(descriptor.buffer, descriptor.byteOffset, descriptor.byteLength).toString("base64"),
        sessionId,
      ),
    open: (sessionId, sealed) => {
      try {
        const bytes = Buffer.from(decrypt(key, sealed, sessionId), "base64");
        if (bytes.length === 0 || bytes.length % 4 !== 0) return null;
        return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      } catch {
        return null;
      }
    },
  };
}

/**
 * Keeps a visit's descriptor, only while the visit is in the store, not past
 * the gate, and its shopper's consent stands; answers whether it was kept.
 * The visit's and the shopper's rows are read FOR SHARE: a withdrawal or an
 * exit at the same moment waits for this statement, then its trigger deletes
 * what it wrote; or this one waits for them and writes nothing.
 */
export async function keepDescriptor(
  db: Db,
  entry: { sessionId: string; sealed: string; model: string },
): Promise<boolean> {
  const rows = await queryRows<{ session_id: string }>(
    db,
    sql`insert into face_descriptors (session_id, sealed, model)
        select s.id, ${entry.sealed}, ${entry.model}
          from shopping_sessions s join customers c on c.id = s.customer_id
         where s.id = ${entry.sessionId} and s.state = 'in_store' and s.exited_at is null
           and c.face_consent_at is not null
         for share of s, c
        on conflict (session_id) do update set sealed = excluded.sealed, model = excluded.model, created_at = now()
        returning session_id`,
  );
  return rows.length > 0;
}

/**
 * The visit's own descriptor and those of the store's other visits inside,
 * of the same model: a face at the exit must be nearer its own visit's than
 * any other's.
 */
export async function descriptorsAtExit(
  db: Db,
  visit: { sessionId: string; storeId: string },
  model: string,
): Promise<{ own: { sealed: string } | null; others: { session_id: string; sealed: string }[] }> {
  const rows = await queryRows<{ session_id: string; sealed: string }>(
    db,
    sql`select d.session_id, d.sealed
          from face_descriptors d join shopping_sessions s on s.id = d.session_id
         where s.store_id = ${visit.storeId} and s.state in ('in_store', 'charging') and s.exited_at is null
           and d.model = ${model}`,
  );
  const own = rows.find((row) => row.session_id === visit.sessionId) ?? null;
  return { own, others: rows.filter((row) => row.session_id !== visit.sessionId) };
}

/**
 * Descriptors whose visit is no longer in the store, or whose shopper no
 * longer consents: none should exist (the triggers delete them), so any found
 * is deleted. Housekeeping runs it with the other expiry jobs.
 */
export const faceDescriptorExpiry: ExpiryJob = {
  table: "face_descriptors",
  deleteExpired: sql`delete from face_descriptors d
       using shopping_sessions s join customers c on c.id = s.customer_id
       where s.id = d.session_id
         and (s.state not in ('in_store', 'charging') or s.exited_at is not null or c.face_consent_at is null)`,
};

/** Runs the sweep now; answers how many it deleted. */
export async function sweepDescriptors(db: Db): Promise<number> {
  return (await clearExpired(db, [faceDescriptorExpiry])).face_descriptors ?? 0;
}
