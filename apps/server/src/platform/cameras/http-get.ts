import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { authorization, type Credentials, parseChallenges, pickChallenge } from "./auth-header.ts";
import type { Deadline } from "./deadline.ts";
import { at, CameraError, networkFailure, type Where } from "./errors.ts";

/**
 * GET from a camera's web port with its credentials: first without, then
 * answering the 401's challenge (Digest or Basic). The body is capped: a
 * bigger answer is cut off and refused, never held in memory.
 */

export type HttpAnswer = { status: number; headers: IncomingHttpHeaders; body: Buffer };
/** `host` as configured (for the Host header and TLS); `address` the IP it was checked to have, which is connected to. */
export type HttpTarget = { secure: boolean; host: string; address: string; port: number; path: string };

function once(
  target: HttpTarget,
  headers: Record<string, string>,
  deadline: Deadline,
  where: Where,
  maxBytes: number,
): Promise<HttpAnswer & { challenges: string[] }> {
  return new Promise((resolve, reject) => {
    const lib = target.secure ? https : http;
    const name = target.host.replace(/^\[(.*)\]$/, "$1");
    const req = lib.request(
      {
        host: target.address,
        port: target.port,
        path: target.path,
        method: "GET",
        agent: false,
        signal: deadline.signal,
        ...(target.secure && !isIP(name) ? { servername: name } : {}),
        headers: {
          host: `${isIP(name) === 6 ? `[${name}]` : name}:${target.port}`,
          accept: "image/jpeg, */*;q=0.5",
          connection: "close",
          ...headers,
        },
      },
      (res) => {
        const challenges: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i]!.toLowerCase() === "www-authenticate") challenges.push(res.rawHeaders[i + 1]!);
        }
        const status = res.statusCode ?? 0;
        // Only a picture's body matters; any other answer is judged by its status.
        const keep = status === 200 ? maxBytes : 0;
        const declared = Number(res.headers["content-length"]);
        if (keep > 0 && Number.isFinite(declared) && declared > keep) {
          res.destroy();
          return reject(tooLarge(where, maxBytes));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (keep === 0) return;
          if (size > keep) {
            res.destroy();
            reject(tooLarge(where, maxBytes));
            return;
          }
          chunks.push(c);
        });
        res.on("end", () => resolve({ status, headers: res.headers, body: Buffer.concat(chunks), challenges }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
const tooLarge = (w: Where, max: number) =>
  new CameraError("bad_answer", "path", `${at(w)} sent more than ${size(max)} for one picture.`);

export async function httpGet(
  target: HttpTarget,
  credentials: Credentials | null,
  deadline: Deadline,
  where: Where,
  maxBytes: number,
): Promise<HttpAnswer> {
  const attempt = (headers: Record<string, string>) =>
    deadline.race(once(target, headers, deadline, where, maxBytes), where).catch((err: unknown) => {
      throw networkFailure(err, where);
    });
  const first = await attempt({});
  if (first.status !== 401 || !credentials) return first;
  const challenge = pickChallenge(parseChallenges(first.challenges));
  if (!challenge) return first;
  return attempt({ authorization: authorization(challenge, credentials, { method: "GET", uri: target.path }) });
}
