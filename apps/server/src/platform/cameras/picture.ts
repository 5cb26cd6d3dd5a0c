import type { Credentials } from "./auth-header.ts";
import type { Deadline } from "./deadline.ts";
import { at, CameraError, type Where } from "./errors.ts";
import { type HttpTarget, httpGet } from "./http-get.ts";

/**
 * Fetches one JPEG picture from a camera's web port and checks that it is
 * one: status 200, a JPEG content type (or none, as some cameras send), the
 * JPEG start bytes, and no bigger than the limit.
 */

export type Picture = { jpeg: Buffer; width: number | null; height: number | null };

/** Width and height from the first start-of-frame marker of a JPEG. */
export function jpegSize(jpeg: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < jpeg.length) {
    if (jpeg[i] !== 0xff) return null;
    const marker = jpeg[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    const length = jpeg.readUInt16BE(i + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: jpeg.readUInt16BE(i + 5), width: jpeg.readUInt16BE(i + 7) };
    i += 2 + length;
  }
  return null;
}

export const isJpeg = (bytes: Buffer) =>
  bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

export async function fetchPicture(
  target: HttpTarget,
  credentials: Credentials | null,
  deadline: Deadline,
  base: Omit<Where, "step" | "doing">,
  maxBytes: number,
): Promise<Picture> {
  const where: Where = { ...base, step: "path", doing: `fetching the picture at ${target.path}` };
  const answer = await httpGet(target, credentials, deadline, where, maxBytes);
  if (answer.status === 401) {
    throw new CameraError(
      "wrong_credentials",
      "authenticate",
      credentials
        ? `Wrong user name or password: ${at(base)} refused the sign-in.`
        : `${at(base)} asks for a user name and password; none is set for this system.`,
    );
  }
  if (answer.status === 403) {
    throw new CameraError(
      "wrong_credentials",
      "authenticate",
      `${at(base)} does not let this user fetch pictures. Give the user the right to, or use another.`,
    );
  }
  if (answer.status === 404) {
    throw new CameraError(
      "wrong_path",
      "path",
      `There is no picture at ${target.path} on ${at(base)}. Check the brand and the path.`,
    );
  }
  // Whatever else answered is not repeated (its status, type or words): the test is no probe of other services.
  if (answer.status !== 200) {
    throw new CameraError("bad_answer", "path", `${at(base)} gave no picture. Check the brand and the path.`);
  }
  const type = String(answer.headers["content-type"] ?? "")
    .split(";")[0]!
    .trim()
    .toLowerCase();
  const typeOk = type === "" || type === "image/jpeg" || type === "image/jpg" || type === "application/octet-stream";
  if (!typeOk || !isJpeg(answer.body)) {
    throw new CameraError(
      "bad_answer",
      "path",
      `${at(base)} did not send a JPEG picture. Check the brand and the path.`,
    );
  }
  const size = jpegSize(answer.body);
  return { jpeg: answer.body, width: size?.width ?? null, height: size?.height ?? null };
}
