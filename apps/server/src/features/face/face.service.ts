import { type FaceConsent, type FaceVerifyResponse, SHOPPER_TIMING } from "@glide/contracts";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { AppError } from "../../platform/errors.ts";
import type { FaceCheck } from "../../platform/face.ts";
import { countHit } from "../../platform/rate-limit.ts";
import { singleFlight } from "../../platform/single-flight.ts";
import { type GateExit, leaveAndPay } from "../exit/exit.service.ts";
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

/** The store's limit on the exit's picture and its faces; the exit page waits a little longer for the answer. */
export const VERIFY_LIMIT_MS = SHOPPER_TIMING.faceVerifyWaitMs - 2_000;

/** How many face checks a shopper may ask for in a minute (the page asks once per exit); past it, the QR code. */
export const FACE_CHECKS_PER_MINUTE = 10;

/** One check per shopper at a time in an instance: a burst of the same request shares one picture and one look. */
const inFlight = singleFlight<FaceVerifyResponse>();

/** The camera and the model are asked only with the store's module and the shopper's consent, a few times a minute. */
async function faceCheck(
  db: Db,
  check: FaceCheck,
  visit: Visit<"face_checkout">,
  signal: AbortSignal,
): Promise<FaceVerifyResponse> {
  if (!visit.face_checkout) return { status: "not_verified", reason: "module_off" };
  if (!visit.face_consent) return { status: "not_verified", reason: "no_consent" };
  const { count } = await countHit(db, `face-verify:${visit.customer_id}`, 60_000);
  if (count > FACE_CHECKS_PER_MINUTE) return { status: "not_verified", reason: "busy" };
  const outcome = await check.atExit({ sessionId: visit.id, storeId: visit.store_id }, signal);
  return outcome.ok ? { status: "ok", reason: "verified" } : { status: "not_verified", reason: outcome.reason };
}

/**
 * The face check at the exit for the shopper's open visit: ok only with
 * consent, in a store with face_checkout, when the exit camera shows the face
 * learnt at the door. Then the shopper leaves as with the exit QR code: what
 * they owe is paid (once) and the gate opens; a charge refused there is the
 * phone's checkout's to tell (the spec's exit pays after an ok). The answer
 * goes on the visit's timeline, so staff see why the exit asked for the QR
 * code instead.
 */
export async function verifyFace(opts: {
  db: Db;
  check: FaceCheck;
  customerId: string;
  announce: AnnounceSession;
  exit: GateExit;
  signal?: AbortSignal;
}): Promise<FaceVerifyResponse> {
  return inFlight(opts.db, opts.customerId, () => verifyOnce(opts));
}

async function verifyOnce(opts: Parameters<typeof verifyFace>[0]): Promise<FaceVerifyResponse> {
  const visit = await loadVisit(opts.db, { openOf: opts.customerId }, { modules: ["face_checkout"] });
  if (!visit) return { status: "not_verified", reason: "no_visit" };
  const signal = opts.signal ?? AbortSignal.timeout(VERIFY_LIMIT_MS);
  const answer = await faceCheck(opts.db, opts.check, visit, signal);
  await recordSessionEvent(opts.db, {
    sessionId: visit.id,
    storeId: visit.store_id,
    kind: "face_check",
    source: "phone",
    detail: { ...answer },
  });
  if (answer.status !== "ok") {
    await opts.announce({ store_id: visit.store_id, session_id: visit.id, kind: "face_check" });
    return answer;
  }
  try {
    await leaveAndPay(opts.exit, visit, "face_check", opts.announce);
  } catch (err) {
    // The face was the shopper's; the payment is not: the phone's checkout, which follows, says what stops it.
    if (!(err instanceof AppError)) throw err;
    await opts.announce({ store_id: visit.store_id, session_id: visit.id, kind: "face_check" });
  }
  return answer;
}
