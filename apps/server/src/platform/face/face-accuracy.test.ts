import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorRates, type SampleFace, sampleFaces, VARIANTS } from "../../test/face-samples.ts";
import { FACE_MATCH_THRESHOLD, faceDistance } from "./face-match.ts";
import { createFaceModel, type FaceModel } from "./face-model.ts";

/**
 * The face check's error rates on a labelled set made from an npm package's
 * sample photos (test/face-samples.ts): 22 people, 9 pictures each (scale,
 * light, JPEG quality, tilt, crop). docs/face-check.md reports these figures;
 * this test holds the model and the threshold to them.
 */
let model: FaceModel;
let set: SampleFace[];
let described: { person: number; variant: string; descriptor: Float32Array | null }[];

beforeAll(async () => {
  model = createFaceModel({ nice: 0 });
  set = await sampleFaces(model);
  described = [];
  for (const sample of set) {
    const { faces } = await model.find(sample.picture);
    described.push({ person: sample.person, variant: sample.variant, descriptor: faces[0]?.descriptor ?? null });
  }
}, 600_000);
afterAll(() => model.close());

describe("the face check's error rates (docs/face-check.md)", () => {
  it("is made of 22 people in 9 pictures each, one face in each picture", () => {
    expect(new Set(set.map((s) => s.person)).size).toBe(22);
    expect(set).toHaveLength(22 * VARIANTS.length);
  });

  it("accepts no impostor, with room to spare below the nearest two people", () => {
    const rates = errorRates(described, faceDistance, FACE_MATCH_THRESHOLD);
    expect(rates.impostorPairs).toBe(18_711);
    expect(rates.falseAccepts).toBe(0);
    // Written in docs/face-check.md: the nearest two different people are at least 0.78 apart (0.81 measured).
    expect(rates.impostorMin).toBeGreaterThanOrEqual(0.78);
    expect(rates.impostorMin - FACE_MATCH_THRESHOLD).toBeGreaterThanOrEqual(0.1);
  });

  it("rejects at most 3 % of genuine pairs (2.1 % measured), and finds a face in all but one picture", () => {
    const rates = errorRates(described, faceDistance, FACE_MATCH_THRESHOLD);
    expect(rates.genuinePairs).toBe(22 * 36);
    expect(rates.noFace).toBeLessThanOrEqual(1);
    expect(rates.falseRejects / rates.genuinePairs).toBeLessThanOrEqual(0.03);
    // Each person is known from the ordinary picture in every other picture but at most two.
    for (let person = 0; person < 22; person++) {
      const base = described.find((d) => d.person === person && d.variant === "base")?.descriptor;
      expect(base, `person ${person}`).toBeTruthy();
      const missed = described.filter(
        (d) =>
          d.person === person &&
          d.variant !== "base" &&
          !(d.descriptor && faceDistance(base as Float32Array, d.descriptor) < FACE_MATCH_THRESHOLD),
      );
      expect(missed.length, `person ${person}: ${missed.map((d) => d.variant).join(", ")}`).toBeLessThanOrEqual(2);
    }
  });
});
