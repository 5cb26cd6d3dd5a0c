import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { BRANDS, type Brand } from "./brands.ts";
import type { PtzCommand } from "./channels.ts";
import type { CameraSimulatorSettings } from "./settings.ts";
import { FAULTS, type Fault } from "./state.ts";

/**
 * The control API, on its own loopback port so that it stays reachable
 * while the camera ports refuse connections (JSON):
 *
 *   GET    /control            brand, user, fault, channels with position and presets, refused tokens
 *   POST   /control            {fault, delay_ms, slow_only, wrong_clock_ms, brand, user, password,
 *                               http_auth, time_needs_auth, sdp_hints} — any of them; answers as GET
 *   GET    /control/commands   PTZ commands that reached the camera (?channel=N)
 *   DELETE /control/commands   forgets them
 *   GET    /control/requests   ONVIF operations, HTTP and RTSP requests seen
 *   PUT    /control/channels/N/picture   the body (a JPEG, at most 5 MB) is what channel N shows from now on
 *   DELETE /control/channels/N/picture   channel N shows its drawn picture again
 */

export type Controllable = {
  configure(settings: CameraSimulatorSettings): Promise<unknown>;
  summary(): unknown;
  commands(channel?: number): PtzCommand[];
  clearCommands(): void;
  requests(): unknown;
  showPicture(channel: number, jpeg: Buffer | null): void;
};

const MAX_PICTURE_BYTES = 5 * 1024 * 1024;

type Parsed = { ok: true; settings: CameraSimulatorSettings } | { ok: false; error: string };

export function parseSettings(body: unknown): Parsed {
  if (!body || typeof body !== "object" || Array.isArray(body)) return { ok: false, error: "Send a JSON object" };
  const b = body as Record<string, unknown>;
  const s: CameraSimulatorSettings = {};
  const whole = (v: unknown, max: number) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= max;
  const text = (v: unknown) => typeof v === "string" && v.length > 0 && v.length <= 200;
  if (b.fault !== undefined) {
    if (!FAULTS.includes(b.fault as Fault)) return { ok: false, error: `fault: one of ${FAULTS.join(", ")}` };
    s.fault = b.fault as Fault;
  }
  if (b.delay_ms !== undefined) {
    if (!whole(b.delay_ms, 600_000)) return { ok: false, error: "delay_ms: 0 to 600000" };
    s.delayMs = b.delay_ms as number;
  }
  if (b.slow_only !== undefined) {
    const list = b.slow_only;
    const names = Array.isArray(list) && list.length <= 50 && list.every((v) => typeof v === "string" && text(v));
    if (list !== null && !names) return { ok: false, error: "slow_only: null or a list of operation names" };
    s.slowOnly = list as string[] | null;
  }
  if (b.wrong_clock_ms !== undefined) {
    if (!Number.isInteger(b.wrong_clock_ms)) return { ok: false, error: "wrong_clock_ms: a whole number" };
    s.wrongClockMs = b.wrong_clock_ms as number;
  }
  if (b.brand !== undefined) {
    if (!BRANDS.includes(b.brand as Brand)) return { ok: false, error: `brand: one of ${BRANDS.join(", ")}` };
    s.brand = b.brand as Brand;
  }
  if (b.user !== undefined) {
    if (!text(b.user)) return { ok: false, error: "user: 1 to 200 characters" };
    s.user = b.user as string;
  }
  if (b.password !== undefined) {
    if (!text(b.password)) return { ok: false, error: "password: 1 to 200 characters" };
    s.password = b.password as string;
  }
  if (b.http_auth !== undefined) {
    if (b.http_auth !== "digest" && b.http_auth !== "basic") return { ok: false, error: "http_auth: digest or basic" };
    s.httpAuth = b.http_auth;
  }
  for (const [key, field] of [
    ["time_needs_auth", "timeNeedsAuth"],
    ["sdp_hints", "sdpHints"],
  ] as const) {
    if (b[key] === undefined) continue;
    if (typeof b[key] !== "boolean") return { ok: false, error: `${key}: true or false` };
    s[field] = b[key] as boolean;
  }
  return { ok: true, settings: s };
}

const loopback = (req: IncomingMessage) => {
  const a = req.socket.remoteAddress ?? "";
  return a === "::1" || a.startsWith("127.") || a.startsWith("::ffff:127.");
};

/** The body, or null past `max` bytes. */
async function readBody(req: IncomingMessage, max = 64 * 1024): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > max) return null;
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const body = await readBody(req);
  try {
    return body === null ? null : JSON.parse(body.toString("utf8") || "{}");
  } catch {
    return null;
  }
}

const isJpeg = (b: Buffer) => b.length > 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

export function createControlServer(sim: Controllable) {
  function send(res: ServerResponse, status: number, body: unknown) {
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (!loopback(req)) return send(res, 403, { error: "The control API answers loopback callers only" });
    const url = new URL(req.url ?? "/", "http://control");
    const route = `${req.method} ${url.pathname.replace(/\/$/, "")}`;
    const picture = /^(PUT|DELETE) \/control\/channels\/(\d{1,3})\/picture$/.exec(route);
    if (picture) return showPicture(req, res, picture[1] as string, Number(picture[2]));
    switch (route) {
      case "GET /control":
        return send(res, 200, sim.summary());
      case "POST /control": {
        const parsed = parseSettings(await readJson(req));
        if (!parsed.ok) return send(res, 400, { error: parsed.error });
        return send(res, 200, await sim.configure(parsed.settings));
      }
      case "GET /control/commands": {
        const channel = url.searchParams.has("channel") ? Number(url.searchParams.get("channel")) : undefined;
        return send(res, 200, { commands: sim.commands(channel) });
      }
      case "DELETE /control/commands":
        sim.clearCommands();
        return send(res, 200, { commands: [] });
      case "GET /control/requests":
        return send(res, 200, sim.requests());
      default:
        return send(res, 404, { error: `No route ${route}` });
    }
  }

  async function showPicture(req: IncomingMessage, res: ServerResponse, method: string, channel: number) {
    let jpeg: Buffer | null = null;
    if (method === "PUT") {
      jpeg = await readBody(req, MAX_PICTURE_BYTES);
      if (!jpeg || !isJpeg(jpeg)) return send(res, 400, { error: "Send a JPEG picture of at most 5 MB" });
    }
    try {
      sim.showPicture(channel, jpeg);
    } catch (err) {
      return send(res, 404, { error: (err as Error).message });
    }
    return send(res, 200, { channel, picture: jpeg ? "shown" : "drawn" });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: Error) => send(res, 500, { error: err.message }));
  });
  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
