import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { createHttpAuth } from "../../../../tools/camera-simulator/http-auth.ts";
import { envelope, fault } from "../../../../tools/camera-simulator/onvif-common.ts";
import { passwordDigest } from "../../../../tools/camera-simulator/ws-security.ts";

/**
 * For the tests of cameras: a listener on loopback that is not a camera, only
 * records what it is sent (every connection, every request with its headers
 * and body) and answers as told. It is the stranger a camera's address may be
 * changed to: what it records is what would have leaked.
 */

export type Heard = { method: string; target: string; headers: Record<string, string>; body: string };
export type Answer = { status: number; headers?: Record<string, string>; body?: string };

export type Listener = {
  host: string;
  port: number;
  /** TCP connections accepted, whatever was sent on them. */
  connections: number;
  heard: Heard[];
  /** Whether anything it heard carries a credential: an Authorization header or a WS-Security token. */
  sawCredential(): boolean;
  /** Whether a credential it heard proves `password` (Basic, HTTP or RTSP Digest, WS-Security digest). */
  sawPassword(user: string, password: string): boolean;
  close(): Promise<void>;
};

const AUTH = createHttpAuth({ realm: "Not a camera" });

/** A 401 asking for `scheme` until the request carries an Authorization header, then a 404. */
export const challenging =
  (scheme: "basic" | "digest") =>
  (heard: Heard): Answer =>
    heard.headers.authorization
      ? { status: 404 }
      : { status: 401, headers: { "www-authenticate": AUTH.challenge(scheme, { qop: true }) } };

/** Enough of ONVIF to be asked a second time: the clock unsigned, then everything refused as not authorized. */
export const onvifAnswer = (heard: Heard): Answer => {
  if (/GetSystemDateAndTime\b/.test(heard.body) && !/GetSystemDateAndTimeResponse/.test(heard.body)) {
    const d = new Date();
    const time =
      `<tt:Time><tt:Hour>${d.getUTCHours()}</tt:Hour><tt:Minute>${d.getUTCMinutes()}</tt:Minute><tt:Second>${d.getUTCSeconds()}</tt:Second></tt:Time>` +
      `<tt:Date><tt:Year>${d.getUTCFullYear()}</tt:Year><tt:Month>${d.getUTCMonth() + 1}</tt:Month><tt:Day>${d.getUTCDate()}</tt:Day></tt:Date>`;
    const xml = envelope(
      `<tds:GetSystemDateAndTimeResponse><tds:SystemDateAndTime><tt:DateTimeType>NTP</tt:DateTimeType>` +
        `<tt:UTCDateTime>${time}</tt:UTCDateTime></tds:SystemDateAndTime></tds:GetSystemDateAndTimeResponse>`,
    );
    return { status: 200, headers: { "content-type": "application/soap+xml" }, body: xml };
  }
  const refused = fault(400, "Sender", ["ter:NotAuthorized"], "Sender not authorized");
  return { status: refused.status, headers: { "content-type": "application/soap+xml" }, body: refused.xml };
};

function judge(heard: Heard[], user: string, password: string): boolean {
  return heard.some((h) => {
    const header = h.headers.authorization;
    if (header) {
      const scheme = /^basic /i.test(header) ? "basic" : "digest";
      const qop = /qop=/i.test(header);
      const uri = h.target;
      if (AUTH.check(header, { method: h.method, uri }, { user, password }, { scheme, qop }) === "ok") return true;
    }
    const token =
      /<Username>([^<]*)<\/Username>.*?>([^<]+)<\/Password>.*?>([^<]+)<\/Nonce>.*?>([^<]+)<\/Created>/s.exec(h.body);
    return (
      token !== null &&
      token[1] === user &&
      passwordDigest(Buffer.from(token[3]!, "base64"), token[4]!, password) === token[2]
    );
  });
}

function listener(server: net.Server, host: string, heard: Heard[], counted: { connections: number }) {
  const address = server.address() as AddressInfo;
  return {
    host,
    port: address.port,
    get connections() {
      return counted.connections;
    },
    heard,
    sawCredential: () => heard.some((h) => h.headers.authorization !== undefined || /UsernameToken/.test(h.body)),
    sawPassword: (user: string, password: string) => judge(heard, user, password),
    close: async () => {
      if (server instanceof http.Server) server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

const listen = (server: net.Server, host: string, port: number) =>
  new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });

/** An HTTP listener (ONVIF is SOAP over HTTP) answering every request with `answer`. */
export async function startHttpListener(
  answer: (heard: Heard) => Answer,
  at: { host?: string; port?: number } = {},
): Promise<Listener> {
  const heard: Heard[] = [];
  const counted = { connections: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const h: Heard = {
        method: req.method ?? "",
        target: req.url ?? "",
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      heard.push(h);
      const a = answer(h);
      res.writeHead(a.status, { connection: "close", ...a.headers }).end(a.body ?? "");
    });
  });
  server.on("connection", () => counted.connections++);
  const host = at.host ?? "127.0.0.1";
  await listen(server, host, at.port ?? 0);
  return listener(server, host, heard, counted);
}

/** An RTSP listener: requests have no body; each is answered with `answer` in RTSP/1.0. */
export async function startRtspListener(answer: (heard: Heard) => Answer): Promise<Listener> {
  const heard: Heard[] = [];
  const counted = { connections: 0 };
  const server = net.createServer((socket) => {
    counted.connections++;
    let buffer = "";
    socket.on("error", () => undefined);
    socket.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("latin1");
      for (let end = buffer.indexOf("\r\n\r\n"); end >= 0; end = buffer.indexOf("\r\n\r\n")) {
        const [line = "", ...rest] = buffer.slice(0, end).split("\r\n");
        buffer = buffer.slice(end + 4);
        const headers = Object.fromEntries(
          rest.map((l) => [l.slice(0, l.indexOf(":")).trim().toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
        );
        const [method = "", target = ""] = line.split(" ");
        const h: Heard = { method, target, headers, body: "" };
        heard.push(h);
        const a = method === "OPTIONS" ? { status: 200, headers: { public: "OPTIONS, DESCRIBE" } } : answer(h);
        const body = a.body ?? "";
        const lines = [`RTSP/1.0 ${a.status} ${a.status === 200 ? "OK" : "Refused"}`, `CSeq: ${headers.cseq ?? 0}`];
        for (const [name, value] of Object.entries(a.headers ?? {})) lines.push(`${name}: ${value}`);
        lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
        socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`);
      }
    });
  });
  await listen(server, "127.0.0.1", 0);
  return listener(server, "127.0.0.1", heard, counted);
}
