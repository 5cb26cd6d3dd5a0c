import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { AppError } from "../../platform/errors.ts";

/** Product photos are resized to fit this square; larger is wasted on a phone. */
const MAX_SIDE = 800;
const ACCEPTED = new Set(["jpeg", "png", "webp"]);

export const imagesDir = (dataDir: string) => path.join(dataDir, "images");

/**
 * Checks the bytes really are a JPEG, PNG or WebP, resizes, strips metadata
 * (phone photos carry GPS positions) and stores a WebP named by its content.
 */
export async function storeProductImage(dataDir: string, body: Buffer): Promise<string> {
  let format: string | undefined;
  try {
    format = (await sharp(body).metadata()).format;
  } catch {
    format = undefined;
  }
  if (!format || !ACCEPTED.has(format)) {
    throw new AppError(415, "unsupported_media_type", "The file is not a JPEG, PNG or WebP image");
  }
  const webp = await sharp(body)
    .rotate()
    .resize(MAX_SIDE, MAX_SIDE, { fit: "inside", withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer();
  const name = `${createHash("sha256").update(webp).digest("hex").slice(0, 32)}.webp`;
  await mkdir(imagesDir(dataDir), { recursive: true });
  await writeFile(path.join(imagesDir(dataDir), name), webp);
  return `/api/v1/products/images/${name}`;
}
