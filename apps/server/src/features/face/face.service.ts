import type { FaceConsent, FaceVerifyResponse } from "@glide/contracts";
import { type Db, queryRows, sql } from "../../db/client.ts";
import type { FaceVerifier } from "../../platform/face.ts";
import { type AnnounceSession, recordSessionEvent } from "../sessions/session-events.ts";
import { loadVisit, type Visit } from "../visits/visit-loader.ts";

/** Whether the shopper agreed to the face check at the exit, and since when. */
export async function faceConsent(db: Db, customerId: string): Promise<FaceConsent> {
  const [row] = await queryRows<{ face_consent_at: Date | string | null }>(
    db,
    sql`select face_consent_at from customers where id = ${customerId}`,
  );
  const at = row?.face_consent_at ?? null;
  return { consent: at !== null, given_at: at === null ? null : new Date(at).toISOString() };
}

/** Gives consent (kept from the first time it was given) or withdraws it, at once; answers the consent as it now is. */
export async function setFaceConsent(db: Db, customerId: string, consent: boolean): Promise<FaceConsent> {
  await db.execute(
    consent
      ? sql`update customers set face_consent_at = coalesce(face_consent_at, now()) where id = ${customerId}`
      : sql`update customers set face_consent_at = null where id = ${customerId}`,
  );
  return faceConsent(db, customerId);
}

/** The verifier is asked only with the store's module and the shopper's consent. */
async function faceCheck(
  verifier: FaceVerifier,
  customerId: string,
  visit: Visit<"face_checkout">,
): Promise<FaceVerifyResponse> {
  if (!visit.face_checkout) return { status: "not_verified", reason: "module_off" };
  if (!visit.face_consent) return { status: "not_verified", reason: "no_consent" };
  const ok = await verifier.verify({ customerId, sessionId: visit.id, storeId: visit.store_id });
  return ok ? { status: "ok", reason: "verified" } : { status: "not_verified", reason: "no_match" };
}

/**
 * The face check at the exit for the shopper's open visit: ok only with
 * consent, in a store with face_checkout, when the verifier agrees. The
 * answer goes on the visit's timeline, so staff see why the exit asked for
 * the QR code instead.
 */
export async function verifyFace(opts: {
  db: Db;
  verifier: FaceVerifier;
  customerId: string;
  announce: AnnounceSession;
}): Promise<FaceVerifyResponse> {
  const visit = await loadVisit(opts.db, { openOf: opts.customerId }, { modules: ["face_checkout"] });
  if (!visit) return { status: "not_verified", reason: "no_visit" };
  const answer = await faceCheck(opts.verifier, opts.customerId, visit);
  await recordSessionEvent(opts.db, {
    sessionId: visit.id,
    storeId: visit.store_id,
    kind: "face_check",
    source: "phone",
    detail: { ...answer },
  });
  await opts.announce({ store_id: visit.store_id, session_id: visit.id, kind: "face_check" });
  return answer;
}
