import type { FastifyBaseLogger } from "fastify";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { safeError } from "../../platform/errors.ts";
import { enrolmentFace, matchAtExit } from "../../platform/face/face-match.ts";
import { FACE_MODEL_ID, type FaceModel, FaceModelError } from "../../platform/face/face-model.ts";
import type { EnrolOutcome, ExitOutcome, FaceCheck, VisitRef } from "../../platform/face.ts";
import type { ZonePicture } from "../cameras/zone-picture.ts";
import { type AnnounceSession, announceNothing, recordSessionEvent } from "../sessions/session-events.ts";
import { moduleEnabled } from "../stores/store-modules.ts";
import { type DescriptorSeal, descriptorsAtExit, keepDescriptor } from "./face-descriptors.ts";

/** How long the door's picture and its face may take; past it the visit is simply not learnt. */
export const ENROL_LIMIT_MS = 10_000;

export type FaceCheckDeps = {
  db: Db;
  model: FaceModel;
  picture: ZonePicture;
  seal: DescriptorSeal;
  log: Pick<FastifyBaseLogger, "warn">;
  announce?: AnnounceSession;
};

const failureOf = (err: unknown): "unreadable" | "busy" | "timeout" => {
  if (err instanceof FaceModelError) {
    if (err.failure === "busy") return "busy";
    if (err.failure === "timeout") return "timeout";
  }
  return "unreadable";
};

/**
 * The face check of features/face: at the door, the entrance camera's
 * picture of a consenting shopper becomes a sealed descriptor bound to the
 * visit; at the exit, the exit camera's picture is compared with it (and
 * with the store's other visits inside). Pictures are looked at and let go;
 * nothing about a face is logged or put on the timeline, only what came of it.
 */
export function createFaceCheck(deps: FaceCheckDeps): FaceCheck {
  const { db, model, seal, log } = deps;
  const announce = deps.announce ?? announceNothing;
  const learning = new Set<Promise<unknown>>();

  async function learn(visit: VisitRef): Promise<EnrolOutcome> {
    const [row] = await queryRows<{ module: boolean; consent: boolean; inside: boolean }>(
      db,
      sql`select ${moduleEnabled("face_checkout", sql`s.store_id`)} as module,
                 c.face_consent_at is not null as consent,
                 s.state = 'in_store' and s.exited_at is null as inside
            from shopping_sessions s join customers c on c.id = s.customer_id
           where s.id = ${visit.sessionId} and s.store_id = ${visit.storeId}`,
    );
    if (!row) return "visit_gone";
    if (!row.module || !row.consent) return "not_asked";
    if (!row.inside) return "visit_gone";
    const signal = AbortSignal.timeout(ENROL_LIMIT_MS);
    const picture = await deps.picture(visit.storeId, "entrance", { signal });
    if (!picture) return "no_camera";
    let found: Awaited<ReturnType<FaceModel["find"]>>;
    try {
      found = await model.find(picture, { signal });
    } catch (err) {
      const failure = failureOf(err);
      return failure === "timeout" ? "no_camera" : failure;
    }
    const face = enrolmentFace(found.faces, found.width);
    if (!face) return "no_face";
    const sealed = seal.seal(visit.sessionId, face.descriptor);
    const kept = await keepDescriptor(db, { sessionId: visit.sessionId, sealed, model: FACE_MODEL_ID });
    // Consent withdrawn or the visit gone while the picture was looked at: nothing is kept.
    return kept ? "kept" : "visit_gone";
  }

  async function record(visit: VisitRef, kind: "face_enrolment", outcome: EnrolOutcome) {
    try {
      await recordSessionEvent(db, {
        sessionId: visit.sessionId,
        storeId: visit.storeId,
        kind,
        source: "door",
        detail: { outcome },
        activity: false,
      });
      await announce({ store_id: visit.storeId, session_id: visit.sessionId, kind });
    } catch (err) {
      log.warn({ err: safeError(err), session_id: visit.sessionId }, "could not record the face enrolment");
    }
  }

  return {
    enrol(visit) {
      const run = learn(visit)
        .catch((err: unknown): EnrolOutcome => {
          log.warn({ err: safeError(err), session_id: visit.sessionId }, "the face enrolment failed");
          return "unreadable";
        })
        .then(async (outcome) => {
          if (outcome !== "not_asked") await record(visit, "face_enrolment", outcome);
          return outcome;
        });
      learning.add(run);
      void run.finally(() => learning.delete(run));
      return run;
    },

    async atExit(visit, signal): Promise<ExitOutcome> {
      try {
        const { own, others } = await descriptorsAtExit(db, visit, FACE_MODEL_ID);
        const enrolled = own ? seal.open(visit.sessionId, own.sealed) : null;
        if (!enrolled) return { ok: false, reason: "not_enrolled" };
        const picture = await deps.picture(visit.storeId, "exit", { signal });
        if (!picture) return { ok: false, reason: signal.aborted ? "timeout" : "no_camera" };
        const found = await model.find(picture, { signal });
        const rivals = others
          .map((other) => seal.open(other.session_id, other.sealed))
          .filter((descriptor) => descriptor !== null);
        const match = matchAtExit(enrolled, found.faces, rivals);
        return match.ok ? { ok: true } : { ok: false, reason: match.reason };
      } catch (err) {
        if (!(err instanceof FaceModelError)) {
          log.warn({ err: safeError(err), session_id: visit.sessionId }, "the face check at the exit failed");
        }
        return { ok: false, reason: failureOf(err) };
      }
    },

    async settled() {
      while (learning.size > 0) await Promise.allSettled([...learning]);
    },

    async close() {
      await Promise.allSettled([...learning]);
      await model.close();
    },
  };
}
