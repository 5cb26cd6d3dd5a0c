import { z } from "zod";

/** Whether the shopper agreed to the face check at the exit, and since when. */
export const faceConsentSchema = z.object({ consent: z.boolean(), given_at: z.string().nullable() });
export type FaceConsent = z.infer<typeof faceConsentSchema>;

/** PUT /api/v1/face/consent: give (true) or withdraw (false) consent. */
export const faceConsentUpdateSchema = z.object({ consent: z.boolean() });

/** POST /api/v1/face/verify: the spec's body; it must name the signed-in shopper. */
export const faceVerifySchema = z.object({ user_id: z.uuid("user_id must be a UUID") });

/** The face check's answer: ok, or why not (the exit then asks for the QR code). */
export const faceVerifyResponseSchema = z.object({
  status: z.enum(["ok", "not_verified"]),
  /**
   * verified; or why not: no_consent, module_off, no_visit; not_enrolled (no face was learnt at the door);
   * no_camera (no exit camera answered); no_face, no_match, ambiguous (another face or visit as near);
   * unreadable (the picture), busy (too many checks at once), timeout.
   */
  reason: z.enum([
    "verified",
    "no_consent",
    "module_off",
    "no_visit",
    "not_enrolled",
    "no_camera",
    "no_face",
    "no_match",
    "ambiguous",
    "unreadable",
    "busy",
    "timeout",
  ]),
});
export type FaceVerifyResponse = z.infer<typeof faceVerifyResponseSchema>;
