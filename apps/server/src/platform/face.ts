/**
 * The face check, as the rest of the server sees it (app.faceCheck): the
 * door asks it to learn a visit's face, the exit asks whether the visit's
 * shopper is the one at the exit camera. It is given ids, never pictures;
 * it asks the cameras itself, keeps only a sealed descriptor while the visit
 * is in the store, and only for shoppers who consented, in stores with the
 * face_checkout module (features/face).
 */

export type VisitRef = { sessionId: string; storeId: string };

/** What the door's request to learn a face came to (on the visit's timeline, never with the face). */
export type EnrolOutcome = "kept" | "not_asked" | "no_camera" | "no_face" | "unreadable" | "busy" | "visit_gone";

export type ExitOutcome =
  | { ok: true }
  | {
      ok: false;
      reason: "not_enrolled" | "no_camera" | "no_face" | "no_match" | "ambiguous" | "unreadable" | "busy" | "timeout";
    };

export interface FaceCheck {
  /** The door opened for a visit: learn its shopper's face, if they consented. Never throws. */
  enrol(visit: VisitRef): Promise<EnrolOutcome>;
  /** Whether the visit's shopper is at the exit, within `signal`'s time. Never throws. */
  atExit(visit: VisitRef, signal: AbortSignal): Promise<ExitOutcome>;
  /** Resolves once the learning already asked for is done (for tests and shutdown). */
  settled(): Promise<void>;
  close(): Promise<void>;
}
