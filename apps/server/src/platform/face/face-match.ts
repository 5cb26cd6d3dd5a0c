/**
 * Whether two face descriptors are one person's, and which face of a picture
 * to take. The threshold was chosen for false accepts first (a false accept
 * opens the gate for another person's visit and charges them); its measured
 * error rates are in docs/face-check.md and held by face-accuracy.test.ts.
 */
import type { FoundFace } from "./face-model.ts";

/** Distance at or above which two descriptors are taken as two people. */
export const FACE_MATCH_THRESHOLD = 0.65;

/**
 * How much nearer the visit's face must be than any other open visit's for a
 * match to count: a face about as near to two visits is nobody's.
 */
export const FACE_MATCH_MARGIN = 0.1;

/** A face within this share of the largest face's area is as near the camera as it. */
const AS_NEAR = 0.8;

/** The distance of two descriptors as unit vectors (0 the same, 2 opposite); infinite when they cannot be compared. */
export function faceDistance(a: Float32Array, b: Float32Array): number {
  if (a.length === 0 || a.length !== b.length) return Number.POSITIVE_INFINITY;
  let aa = 0;
  let bb = 0;
  let ab = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    aa += x * x;
    bb += y * y;
    ab += x * y;
  }
  if (aa === 0 || bb === 0) return Number.POSITIVE_INFINITY;
  // |a/|a| - b/|b||² = 2 - 2 cos(a, b)
  return Math.sqrt(Math.max(0, 2 - (2 * ab) / Math.sqrt(aa * bb)));
}

/**
 * The face to learn from a picture at the door: the largest, the shopper at
 * the scanner being nearest the camera. When another face is about as large,
 * the one nearer the middle of the picture, where the scanner is.
 */
export function enrolmentFace(faces: readonly FoundFace[], width: number): FoundFace | null {
  const area = (face: FoundFace) => face.box[2] * face.box[3];
  const largest = Math.max(0, ...faces.map(area));
  const near = faces.filter((face) => largest > 0 && area(face) >= largest * AS_NEAR);
  const offMiddle = (face: FoundFace) => Math.abs(face.box[0] + face.box[2] / 2 - width / 2);
  return near.sort((a, b) => offMiddle(a) - offMiddle(b))[0] ?? null;
}

export type ExitMatch =
  | { ok: true; distance: number }
  | { ok: false; reason: "no_face" | "no_match" | "ambiguous"; distance: number | null };

/**
 * Whether the visit's shopper is among the faces at the exit: exactly one
 * face within the threshold of the visit's descriptor, and no other open
 * visit's descriptor about as near that face.
 */
export function matchAtExit(
  enrolled: Float32Array,
  faces: readonly FoundFace[],
  otherVisits: readonly Float32Array[] = [],
): ExitMatch {
  if (faces.length === 0) return { ok: false, reason: "no_face", distance: null };
  const distances = faces.map((face) => ({ face, distance: faceDistance(enrolled, face.descriptor) }));
  distances.sort((a, b) => a.distance - b.distance);
  const [best, second] = distances as [(typeof distances)[0], ...typeof distances];
  if (!(best.distance < FACE_MATCH_THRESHOLD)) return { ok: false, reason: "no_match", distance: best.distance };
  if (second && second.distance < FACE_MATCH_THRESHOLD) {
    return { ok: false, reason: "ambiguous", distance: best.distance };
  }
  const rival = otherVisits.some(
    (other) => faceDistance(other, best.face.descriptor) < best.distance + FACE_MATCH_MARGIN,
  );
  if (rival) return { ok: false, reason: "ambiguous", distance: best.distance };
  return { ok: true, distance: best.distance };
}
