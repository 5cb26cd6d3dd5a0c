/**
 * A labelled set of face pictures for the face check's tests and bench, made
 * from the sample photos that ship in the @vladmandic/face-api npm package
 * (six group photos, 22 faces, each a different person). Each face is cut
 * out with room around it and changed the ways a camera changes it: scale,
 * light, JPEG quality, a small tilt, a tighter crop. Pictures of one face are
 * genuine pairs; pictures of two faces are impostors. Nothing is written to
 * disk: the set is made in memory from the package's files.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import sharp from "sharp";
import type { FaceModel } from "../platform/face/face-model.ts";

const require = createRequire(import.meta.url);
const DEMO = path.join(path.dirname(require.resolve("@vladmandic/face-api/package.json")), "demo");

/** The package's group photos, scaled to 1280 pixels wide (as a camera's picture is). */
export async function groupPhotos(): Promise<Buffer[]> {
  return Promise.all(
    [1, 2, 3, 4, 5, 6].map(async (n) =>
      sharp(await readFile(path.join(DEMO, `sample${n}.jpg`)))
        .resize({ width: 1280 })
        .jpeg({ quality: 90 })
        .toBuffer(),
    ),
  );
}

export type SampleFace = { person: number; variant: string; picture: Buffer };

export const VARIANTS = ["base", "small", "large", "dark", "bright", "q25", "tilt-left", "tilt-right", "crop"] as const;

function variant(face: Buffer, width: number, height: number, kind: (typeof VARIANTS)[number]) {
  const grey = { r: 128, g: 128, b: 128 };
  switch (kind) {
    case "base":
      return sharp(face).jpeg({ quality: 92 });
    case "small":
      return sharp(face)
        .resize({ width: Math.round(width * 0.6) })
        .jpeg({ quality: 85 });
    case "large":
      return sharp(face)
        .resize({ width: Math.round(width * 1.5) })
        .jpeg({ quality: 85 });
    case "dark":
      return sharp(face).modulate({ brightness: 0.6 }).jpeg({ quality: 85 });
    case "bright":
      return sharp(face).modulate({ brightness: 1.4 }).jpeg({ quality: 85 });
    case "q25":
      return sharp(face).jpeg({ quality: 25 });
    case "tilt-left":
      return sharp(face).rotate(-8, { background: grey }).jpeg({ quality: 85 });
    case "tilt-right":
      return sharp(face).rotate(8, { background: grey }).jpeg({ quality: 85 });
    case "crop":
      return sharp(face)
        .extract({
          left: Math.round(width * 0.1),
          top: Math.round(height * 0.08),
          width: Math.round(width * 0.85),
          height: Math.round(height * 0.85),
        })
        .jpeg({ quality: 85 });
  }
}

/**
 * The people of one group photo, left to right, each cut out with 60 % room
 * on each side and the photo's other faces painted over first, so each
 * picture shows one person. Also each cut-out's size.
 */
export async function peopleOf(
  model: FaceModel,
  photo: Buffer,
): Promise<{ picture: Buffer; width: number; height: number }[]> {
  const { width: photoWidth = 0, height: photoHeight = 0 } = await sharp(photo).metadata();
  const { faces } = await model.find(photo);
  // Left to right, so a person's number does not hang on the detector's order.
  faces.sort((a, b) => a.box[0] - b.box[0]);
  const people = [];
  for (const face of faces) {
    const others = faces
      .filter((other) => other !== face)
      .map((other) => paintOver(other.box, photoWidth, photoHeight));
    const alone = await sharp(photo).composite(others).toBuffer();
    const [x, y, w, h] = face.box;
    const left = Math.max(0, Math.round(x - w * 0.6));
    const top = Math.max(0, Math.round(y - h * 0.6));
    const width = Math.min(photoWidth - left, Math.round(w * 2.2));
    const height = Math.min(photoHeight - top, Math.round(h * 2.2));
    people.push({
      picture: await sharp(alone).extract({ left, top, width, height }).jpeg({ quality: 92 }).toBuffer(),
      width,
      height,
    });
  }
  return people;
}

/** Every person of the group photos in every variant. */
export async function sampleFaces(model: FaceModel): Promise<SampleFace[]> {
  const out: SampleFace[] = [];
  let person = 0;
  for (const photo of await groupPhotos()) {
    for (const cut of await peopleOf(model, photo)) {
      for (const kind of VARIANTS) {
        out.push({
          person,
          variant: kind,
          picture: await variant(cut.picture, cut.width, cut.height, kind).toBuffer(),
        });
      }
      person++;
    }
  }
  return out;
}

/** A grey patch over a face's box and a little around it, kept inside the photo. */
function paintOver(box: [number, number, number, number], photoWidth: number, photoHeight: number) {
  const [x, y, w, h] = box;
  const left = Math.max(0, Math.round(x - w * 0.15));
  const top = Math.max(0, Math.round(y - h * 0.15));
  const width = Math.min(photoWidth - left, Math.round(w * 1.3));
  const height = Math.min(photoHeight - top, Math.round(h * 1.3));
  return {
    input: { create: { width, height, channels: 3 as const, background: { r: 128, g: 128, b: 128 } } },
    left,
    top,
  };
}

export type ErrorRates = {
  genuinePairs: number;
  impostorPairs: number;
  falseAccepts: number;
  falseRejects: number;
  /** Pictures in which no face was found: each genuine pair with one counts as a false reject. */
  noFace: number;
  genuineMax: number;
  impostorMin: number;
};

/** False accepts and rejects over every pair of pictures at a threshold (a pair matches below it). */
export function errorRates(
  described: { person: number; descriptor: Float32Array | null }[],
  distance: (a: Float32Array, b: Float32Array) => number,
  threshold: number,
): ErrorRates {
  const rates: ErrorRates = {
    genuinePairs: 0,
    impostorPairs: 0,
    falseAccepts: 0,
    falseRejects: 0,
    noFace: described.filter((d) => d.descriptor === null).length,
    genuineMax: 0,
    impostorMin: Number.POSITIVE_INFINITY,
  };
  for (let i = 0; i < described.length; i++) {
    for (let j = i + 1; j < described.length; j++) {
      const a = described[i] as (typeof described)[0];
      const b = described[j] as (typeof described)[0];
      const same = a.person === b.person;
      if (same) rates.genuinePairs++;
      else rates.impostorPairs++;
      if (!a.descriptor || !b.descriptor) {
        if (same) rates.falseRejects++;
        continue;
      }
      const d = distance(a.descriptor, b.descriptor);
      if (same) {
        rates.genuineMax = Math.max(rates.genuineMax, d);
        if (!(d < threshold)) rates.falseRejects++;
      } else {
        rates.impostorMin = Math.min(rates.impostorMin, d);
        if (d < threshold) rates.falseAccepts++;
      }
    }
  }
  return rates;
}
