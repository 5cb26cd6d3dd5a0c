import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { BRAND_PATHS, channelOfPath, ONVIF_SNAPSHOT_PATH } from "./brands.ts";
import type { HttpAuth } from "./http-auth.ts";
import { ONVIF_PATHS, type OnvifService } from "./onvif-common.ts";
import { handleSoap } from "./onvif-soap.ts";
import { renderPicture } from "./snapshot.ts";
import { deviceNow, remember, type SimState, slowTurn } from "./state.ts";
import type { createTokenChecker } from "./ws-security.ts";
import { soapOperation } from "./xml.ts";

/**
 * The camera's web port: the ONVIF services (SOAP over POST) and the
 * pictures, at the brand's snapshot path and at the address GetSnapshotUri
 * gives. An unknown path is a 404 before any credentials are asked for;
 * a known picture path asks for Digest (qop=auth) or Basic credentials.
 */

const MAX_BODY_BYTES = 256 * 1024;
const SERVICES = Object.entries(ONVIF_PATHS) as [OnvifService, string][];

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(null));
  });
}

function hostOf(req: IncomingMessage, state: SimState): { host: string; hostname: string } {
  const fallback = `127.0.0.1:${state.httpPort}`;
  try {
    const url = new URL(`http://${req.headers.host ?? fallback}`);
    return { host: url.host, hostname: url.hostname };
  } catch {
    return { host: fallback, hostname: "127.0.0.1" };
  }
}

export function createCameraHttpServer(
  state: SimState,
  auth: HttpAuth,
  checkToken: ReturnType<typeof createTokenChecker>,
) {
  function send(res: ServerResponse, status: number, type: string, body: string | Buffer, headers = {}) {
    if (res.destroyed) return;
    res.writeHead(status, {
      "content-type": type,
      "content-length": Buffer.byteLength(body),
      date: new Date(deviceNow(state)).toUTCString(),
      ...headers,
    });
    res.end(body);
  }

  function onvif(req: IncomingMessage, res: ServerResponse, service: OnvifService, body: string | null) {
    if (req.method !== "POST")
      return send(res, 405, "text/plain", "ONVIF services take SOAP over POST", { allow: "POST" });
    if (body === null) return send(res, 413, "text/plain", "Request too large");
    const answer = handleSoap(service, body, hostOf(req, state), state, checkToken);
    send(res, answer.status, "application/soap+xml; charset=utf-8", answer.xml);
  }

  function picture(req: IncomingMessage, res: ServerResponse, channel: number) {
    const scheme = state.httpAuth;
    const check = auth.check(
      req.headers.authorization,
      { method: req.method ?? "GET", uri: req.url ?? "/" },
      { user: state.user, password: state.password },
      { scheme, qop: true },
    );
    if (check !== "ok") {
      const challenge = auth.challenge(scheme, { qop: true, stale: check === "stale" });
      return send(res, 401, "text/plain", "Authorization required", { "www-authenticate": challenge });
    }
    const c = state.channels[channel - 1]!;
    const now = Date.now();
    const jpeg =
      state.shown.get(channel) ??
      renderPicture({
        channel,
        streamWidth: c.spec.width,
        streamHeight: c.spec.height,
        fps: c.spec.fps,
        ptz: c.spec.ptz,
        position: c.position(now),
        deviceTime: deviceNow(state),
      });
    send(res, 200, "image/jpeg", req.method === "HEAD" ? Buffer.alloc(0) : jpeg, { "cache-control": "no-store" });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const target = req.url ?? "/";
    remember(state.requests.http, `${req.method} ${target}`);
    if (state.fault === "hang") return;
    // The request is taken in whole before the delay, so a slow camera still acts on a request whose
    // client gave up waiting for the answer, as a real one does.
    const body = await readBody(req);
    const path = target.split("?")[0]!;
    const service = SERVICES.find(([, p]) => p === path)?.[0];
    await slowTurn(state, service ? (soapOperation(body ?? "") ?? "") : (req.method ?? "GET"));
    if (service) return onvif(req, res, service, body);
    if (req.method === "GET" || req.method === "HEAD") {
      const count = state.channels.length;
      const channel =
        channelOfPath(BRAND_PATHS[state.brand].snapshot, target, count) ??
        channelOfPath(ONVIF_SNAPSHOT_PATH, target, count);
      if (channel !== null) return picture(req, res, channel);
    }
    send(res, 404, "text/html; charset=utf-8", "<!DOCTYPE html><title>404 Not Found</title><h1>Not Found</h1>");
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, "text/plain", "Simulator error");
    });
  });
  server.keepAliveTimeout = 2000;
  return server;
}
