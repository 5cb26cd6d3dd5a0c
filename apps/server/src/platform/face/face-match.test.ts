import { describe, expect, it } from "vitest";
import { enrolmentFace, FACE_MATCH_MARGIN, FACE_MATCH_THRESHOLD, faceDistance, matchAtExit } from "./face-match.ts";
import type { FoundFace } from "./face-model.ts";

/** A unit descriptor at `angle` from the first axis, in the plane of the first two: distances are exact. */
const at = (angle: number, scale = 1) => {
  const d = new Float32Array(8);
  d[0] = Math.cos(angle) * scale;
  d[1] = Math.sin(angle) * scale;
  return d;
};
/** The angle whose unit vectors lie `distance` apart: |a − b| = 2 sin(θ/2). */
const apart = (distance: number) => 2 * Math.asin(distance / 2);
const face = (descriptor: Float32Array, box: FoundFace["box"] = [100, 100, 100, 100]): FoundFace => ({
  box,
  score: 0.9,
  descriptor,
});

describe("face distance", () => {
  it("is 0 for one face, 2 for opposite ones, the same whatever the length, and infinite when it cannot compare", () => {
    expect(faceDistance(at(0), at(0, 5))).toBeCloseTo(0, 6);
    expect(faceDistance(at(0), at(Math.PI))).toBeCloseTo(2, 6);
    expect(faceDistance(at(0), at(apart(0.5)))).toBeCloseTo(0.5, 6);
    expect(faceDistance(at(apart(0.3)), at(0))).toBeCloseTo(0.3, 6);
    expect(faceDistance(at(0), new Float32Array(8))).toBe(Number.POSITIVE_INFINITY);
    expect(faceDistance(new Float32Array(8), at(0))).toBe(Number.POSITIVE_INFINITY);
    expect(faceDistance(at(0), new Float32Array(4))).toBe(Number.POSITIVE_INFINITY);
    expect(faceDistance(new Float32Array(0), new Float32Array(0))).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("the face learnt at the door", () => {
  it("is the largest; of two about as large, the one nearer the middle", () => {
    const big = face(at(0), [500, 100, 200, 200]);
    const small = face(at(1), [600, 100, 100, 100]);
    expect(enrolmentFace([small, big], 1280)).toBe(big);
    // 80 % of the largest's area is as near: the one in the middle wins.
    const side = face(at(2), [0, 100, 200, 200]);
    const middle = face(at(3), [540, 100, 200, 160]);
    expect(enrolmentFace([side, middle], 1280)).toBe(middle);
    const smaller = face(at(3), [540, 100, 200, 159]);
    expect(enrolmentFace([side, smaller], 1280)).toBe(side);
    expect(enrolmentFace([], 1280)).toBeNull();
    expect(enrolmentFace([face(at(0), [0, 0, 0, 0])], 1280)).toBeNull();
  });
});

describe("the face at the exit", () => {
  const visit = at(0);
  it("matches one face within the threshold, and none at it", () => {
    const near = face(at(apart(FACE_MATCH_THRESHOLD - 0.001)));
    expect(matchAtExit(visit, [near])).toEqual({ ok: true, distance: expect.closeTo(FACE_MATCH_THRESHOLD - 0.001, 5) });
    const edge = face(at(apart(FACE_MATCH_THRESHOLD + 1e-6)));
    expect(matchAtExit(visit, [edge])).toMatchObject({ ok: false, reason: "no_match" });
    expect(matchAtExit(visit, [])).toEqual({ ok: false, reason: "no_face", distance: null });
  });

  it("finds the visit's face among others in the picture", () => {
    const faces = [face(at(2)), face(at(apart(0.2))), face(at(2.5))];
    expect(matchAtExit(visit, faces)).toMatchObject({ ok: true, distance: expect.closeTo(0.2, 5) });
  });

  it("refuses two faces that both match the visit", () => {
    const faces = [face(at(apart(0.2))), face(at(-apart(FACE_MATCH_THRESHOLD - 0.01)))];
    expect(matchAtExit(visit, faces)).toMatchObject({ ok: false, reason: "ambiguous" });
  });

  it("refuses a face about as near another visit inside, and takes one clearly nearer its own", () => {
    const seen = face(at(apart(0.3)));
    // Another visit's descriptor at 0.3 + margin − a little from the face seen: as near, nobody's.
    const rival = at(apart(0.3) + apart(0.3 + FACE_MATCH_MARGIN - 0.01));
    expect(faceDistance(rival, seen.descriptor)).toBeCloseTo(0.3 + FACE_MATCH_MARGIN - 0.01, 4);
    expect(matchAtExit(visit, [seen], [rival])).toMatchObject({ ok: false, reason: "ambiguous" });
    const farther = at(apart(0.3) + apart(0.3 + FACE_MATCH_MARGIN + 0.01));
    expect(matchAtExit(visit, [seen], [farther])).toMatchObject({ ok: true });
    expect(matchAtExit(visit, [seen], [at(2), farther])).toMatchObject({ ok: true });
  });
});
