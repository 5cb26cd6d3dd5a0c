import net from "node:net";
import { BRAND_PATHS, channelOfPath } from "./brands.ts";
import { describeSdp } from "./h264.ts";
import type { HttpAuth } from "./http-auth.ts";
import { remember, type SimState, slowTurn } from "./state.ts";

/**
 * The RTSP side (RFC 2326) as far as a connection check goes: OPTIONS
 * answers anyone; DESCRIBE asks for Digest credentials (no qop, as cameras
 * do), then checks the path against the brand's stream paths (404 when no
 * channel has it) and answers with the channel's SDP. No media is sent:
 * SETUP and PLAY are answered 501.
 */

const PUBLIC = "OPTIONS, DESCRIBE, TEARDOWN, GET_PARAMETER";
const MAX_HEADER_BYTES = 16 * 1024;

type RtspRequest = { method: string; uri: string; headers: Map<string, string> };

function parseRequest(head: string): RtspRequest | null {
  const [line, ...rest] = head.split("\r\n");
  const m = /^([A-Z_]+) (\S+) RTSP\/1\.0$/.exec(line ?? "");
  if (!m) return null;
  const headers = new Map<string, string>();
  for (const h of rest) {
    const colon = h.indexOf(":");
    if (colon > 0) headers.set(h.slice(0, colon).trim().toLowerCase(), h.slice(colon + 1).trim());
  }
  return { method: m[1]!, uri: m[2]!, headers };
}

const REASONS: Record<number, string> = {
  200: "OK",
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  501: "Not Implemented",
};

export function createRtspServer(state: SimState, auth: HttpAuth) {
  const sockets = new Set<net.Socket>();

  function answer(req: RtspRequest | null, local: string): { status: number; headers: string[]; body?: string } {
    if (!req) return { status: 400, headers: [] };
    if (req.method === "OPTIONS") return { status: 200, headers: [`Public: ${PUBLIC}`] };
    if (req.method === "TEARDOWN" || req.method === "GET_PARAMETER") return { status: 200, headers: [] };
    if (req.method !== "DESCRIBE") return { status: 501, headers: [] };
    const check = auth.check(
      req.headers.get("authorization"),
      { method: "DESCRIBE", uri: req.uri },
      { user: state.user, password: state.password },
      { scheme: "digest", qop: false },
    );
    if (check !== "ok") {
      const challenge = auth.challenge("digest", { qop: false, stale: check === "stale" });
      return { status: 401, headers: [`WWW-Authenticate: ${challenge}`] };
    }
    let target: string;
    try {
      const url = new URL(req.uri);
      target = `${url.pathname}${url.search}`;
    } catch {
      target = req.uri;
    }
    const channel = channelOfPath(BRAND_PATHS[state.brand].stream, target, state.channels.length);
    if (channel === null) return { status: 404, headers: [] };
    const spec = state.channels[channel - 1]!.spec;
    const body = describeSdp({ channel, ...spec, serverAddress: local, hints: state.sdpHints });
    const base = req.uri.endsWith("/") ? req.uri : `${req.uri}/`;
    return { status: 200, headers: ["Content-Type: application/sdp", `Content-Base: ${base}`], body };
  }

  function response(req: RtspRequest | null, local: string): string {
    const { status, headers, body } = answer(req, local);
    const lines = [
      `RTSP/1.0 ${status} ${REASONS[status]}`,
      `CSeq: ${req?.headers.get("cseq") ?? "0"}`,
      "Server: Glide camera simulator",
      `Date: ${new Date().toUTCString()}`,
      ...headers,
      ...(body ? [`Content-Length: ${Buffer.byteLength(body)}`] : []),
    ];
    return `${lines.join("\r\n")}\r\n\r\n${body ?? ""}`;
  }

  function write(socket: net.Socket, req: RtspRequest, local: string) {
    if (!socket.destroyed) socket.write(response(req, local));
  }

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    const local = (socket.localAddress ?? "127.0.0.1").replace(/^::ffff:/, "");
    let buffer = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end < 0) {
          if (buffer.length > MAX_HEADER_BYTES) socket.destroy();
          return;
        }
        const req = parseRequest(buffer.subarray(0, end).toString("latin1"));
        const length = Number(req?.headers.get("content-length") ?? 0) || 0;
        if (buffer.length < end + 4 + length) return;
        buffer = buffer.subarray(end + 4 + length);
        if (req) remember(state.requests.rtsp, `${req.method} ${req.uri}`);
        if (state.fault === "hang") continue;
        // A request that is not RTSP (an HTTP client on the wrong port) gets its 400 and the connection closes.
        const reply = () => (req ? write(socket, req, local) : socket.end(response(null, local)));
        const turn = slowTurn(state, req?.method ?? "");
        if (turn) void turn.then(reply);
        else reply();
        if (!req) return;
      }
    });
  });

  return {
    server,
    /** Drops every open connection (for the refuse fault and for close). */
    dropConnections() {
      for (const s of sockets) s.destroy();
    },
  };
}
