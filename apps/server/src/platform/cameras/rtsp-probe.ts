import type net from "node:net";
import { authorization, type Credentials, parseChallenges, pickChallenge } from "./auth-header.ts";
import { type Deadline, openSocket } from "./deadline.ts";
import { at, CameraError, networkFailure, type Where } from "./errors.ts";

/**
 * The RTSP connection check (RFC 2326): OPTIONS, then DESCRIBE, answering a
 * 401 with Digest (or Basic) credentials. A 200 to DESCRIBE proves the
 * server, the path and the credentials; its SDP says what the stream is.
 * No media is asked for.
 */

export type RtspTarget = { host: string; address: string; port: number; path: string };
type RtspResponse = { status: number; headers: Map<string, string[]>; body: string };

const MAX_RESPONSE_BYTES = 64 * 1024;
const USER_AGENT = "Glide camera check";

/** One RTSP connection: requests go out one at a time, answers are read by Content-Length. */
class RtspConnection {
  private buffer = Buffer.alloc(0);
  private waiting: { resolve: (r: RtspResponse) => void; reject: (e: Error) => void } | null = null;
  private closed = false;
  private readonly socket: net.Socket;

  constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.take();
    });
    const end = (err?: Error) => {
      this.closed = true;
      const w = this.waiting;
      this.waiting = null;
      w?.reject(err ?? Object.assign(new Error("The server closed the connection"), { code: "ECONNRESET" }));
    };
    socket.on("error", end);
    socket.on("close", () => end());
  }

  get isOpen() {
    return !this.closed && !this.socket.destroyed;
  }

  private take() {
    if (!this.waiting) return;
    const head = this.buffer.indexOf("\r\n\r\n");
    if (head < 0) {
      if (this.buffer.length > MAX_RESPONSE_BYTES) this.fail(new NotRtsp());
      return;
    }
    const lines = this.buffer.subarray(0, head).toString("latin1").split("\r\n");
    const status = /^RTSP\/1\.\d (\d{3})/.exec(lines[0] ?? "");
    if (!status) return this.fail(new NotRtsp());
    const headers = new Map<string, string[]>();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
    }
    const length = Number(headers.get("content-length")?.[0] ?? 0) || 0;
    if (length > MAX_RESPONSE_BYTES) return this.fail(new NotRtsp());
    if (this.buffer.length < head + 4 + length) return;
    const body = this.buffer.subarray(head + 4, head + 4 + length).toString("utf8");
    this.buffer = this.buffer.subarray(head + 4 + length);
    const w = this.waiting;
    this.waiting = null;
    w.resolve({ status: Number(status[1]), headers, body });
  }

  private fail(err: Error) {
    const w = this.waiting;
    this.waiting = null;
    this.socket.destroy();
    w?.reject(err);
  }

  request(lines: string[]): Promise<RtspResponse> {
    return new Promise((resolve, reject) => {
      if (!this.isOpen) {
        reject(Object.assign(new Error("The connection is closed"), { code: "ECONNRESET" }));
        return;
      }
      this.waiting = { resolve, reject };
      this.socket.write(`${lines.join("\r\n")}\r\n\r\n`);
      this.take();
    });
  }

  close() {
    this.socket.destroy();
  }
}

class NotRtsp extends Error {}

export type DescribeResult = { sdp: string };

/** OPTIONS then DESCRIBE; throws CameraError naming the step that failed. */
export async function rtspDescribe(
  target: RtspTarget,
  credentials: Credentials | null,
  deadline: Deadline,
  base: Omit<Where, "step" | "doing">,
): Promise<DescribeResult> {
  const url = `rtsp://${target.host.includes(":") ? `[${target.host}]` : target.host}:${target.port}${target.path}`;
  const connectWhere: Where = { ...base, step: "connect", doing: "connecting" };
  let connection = new RtspConnection(await openSocket(target.address, deadline, connectWhere));
  let cseq = 0;
  const send = async (method: string, where: Where, extra: string[] = []) => {
    if (!connection.isOpen) {
      // Some servers close the connection after a 401; the next request gets a new one.
      connection = new RtspConnection(await openSocket(target.address, deadline, connectWhere));
    }
    cseq++;
    const lines = [`${method} ${url} RTSP/1.0`, `CSeq: ${cseq}`, `User-Agent: ${USER_AGENT}`, ...extra];
    try {
      return await deadline.race(connection.request(lines), where);
    } catch (err) {
      if (err instanceof NotRtsp) {
        throw new CameraError(
          "not_rtsp",
          "connect",
          `${at(target)} answers, but not in RTSP. Check the port: RTSP is usually on 554.`,
        );
      }
      throw networkFailure(err, where);
    }
  };

  try {
    await send("OPTIONS", { ...base, step: "connect", doing: "asking for the RTSP methods (OPTIONS)" });
    const describeWhere: Where = { ...base, step: "path", doing: "reading the stream description (DESCRIBE)" };
    const accept = ["Accept: application/sdp"];
    let answer = await send("DESCRIBE", describeWhere, accept);
    if (answer.status === 401) {
      const authWhere: Where = { ...base, step: "authenticate", doing: "signing in (DESCRIBE)" };
      const challenge = pickChallenge(parseChallenges(answer.headers.get("www-authenticate") ?? []));
      if (!credentials || !challenge) {
        throw new CameraError(
          "wrong_credentials",
          "authenticate",
          credentials
            ? `${at(target)} asks for a sign-in method we do not support.`
            : `${at(target)} asks for a user name and password; none is set for this system.`,
        );
      }
      const header = authorization(challenge, credentials, { method: "DESCRIBE", uri: url });
      answer = await send("DESCRIBE", authWhere, [...accept, `Authorization: ${header}`]);
      if (answer.status === 401) {
        throw new CameraError(
          "wrong_credentials",
          "authenticate",
          `Wrong user name or password: ${at(target)} refused the sign-in.`,
        );
      }
    }
    if (answer.status === 404) {
      throw new CameraError(
        "wrong_path",
        "path",
        `There is no stream at ${target.path} on ${at(target)}. Check the stream path and the channel.`,
      );
    }
    // Any other answer is not repeated (its status or words): the test is no probe of other services.
    if (answer.status !== 200) {
      throw new CameraError(
        "bad_answer",
        "path",
        `${at(target)} gave no stream description for ${target.path}. Check the stream path and the channel.`,
      );
    }
    return { sdp: answer.body };
  } finally {
    connection.close();
  }
}
