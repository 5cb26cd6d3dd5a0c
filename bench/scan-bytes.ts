/**
 * What one scan brings to the shopper's phone, in bytes: its HTTP answers
 * and the live cart's messages, for carts of 1, 10 and 30 lines. Once the
 * way the phone used to do it (the scan's answer, then the whole cart again
 * by GET) and once the way it does now: the answer applied to the phone's
 * copy by the phone's own code (apps/web/src/shopper/cart/cart-sync.ts),
 * a GET only when the copy cannot take it. Returns its section of
 * bench/results.md.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import { isDeepStrictEqual } from "node:util";
import type { Cart } from "@glide/contracts";
import {
  type AddedProduct,
  type CartKeeper,
  cartKeeper,
  type ScanAnswer,
} from "../apps/web/src/shopper/cart/cart-sync.ts";
import { openVisits, prepareShop, SCAN_PATH, shopperToken } from "./cart-setup.ts";
import { call, type Skipped, withServer } from "./lib.ts";

/** Lines in the cart before the measured scan, one case each. */
const LINES = [1, 10, 30];

/** Seconds the section may take before the bench gives up: a safety net, far above a normal run. */
export const scanBytesTimeLimit = 180;

/** One HTTP answer: its bytes on the wire (status line, headers, body) and its body's. */
type Answer = { wire: number; body: number; encoding: string; text: string };

type Way = {
  post: Answer;
  gets: Answer[];
  /** Socket frames from the scan to its cart_updated: bytes per message type. */
  socket: Record<string, number>;
  /** After: the phone's cart right after the answer equals the cart_updated that follows. */
  matches?: boolean;
};

type BytesCase = { lines: number; before: Way; after: Way };

/** A request as the phone makes it, on a connection of its own; the answer's bytes as they arrived. */
function request(base: string, method: string, path: string, token: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      accept: "application/json",
      "accept-encoding": "gzip, deflate, br",
      authorization: `Bearer ${token}`,
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    const req = http.request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks);
        if ((res.statusCode ?? 0) >= 300) return reject(new Error(`${method} ${path} answered ${res.statusCode}`));
        // The header block as it was sent: no compression and a Content-Length, so no chunk framing either.
        let head = Buffer.byteLength(`HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage}\r\n\r\n`);
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          head += Buffer.byteLength(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}\r\n`);
        const encoding = String(res.headers["content-encoding"] ?? "identity");
        resolve({ wire: head + text.length, body: text.length, encoding, text: text.toString() });
      });
    });
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** A server-to-client frame: 2 bytes of header, more for a longer payload, no mask. */
const frameBytes = (payload: number) => payload + 2 + (payload >= 65_536 ? 8 : payload >= 126 ? 2 : 0);

type Message = { type: string; bytes: number; cart?: Cart; product?: AddedProduct };

/** The phone's live cart socket: every message it hears, and the cart it was first told. */
async function phoneSocket(base: string, sessionId: string, token: string) {
  const socket = new WebSocket(`${base.replace("http", "ws")}/ws/cart?session_id=${sessionId}`);
  const messages: Message[] = [];
  let listener: (message: Message) => void = () => {};
  const ready = await new Promise<Cart>((resolve, reject) => {
    socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "auth", access_token: token })));
    socket.addEventListener("message", (event) => {
      const text = String(event.data);
      const message = { ...(JSON.parse(text) as Omit<Message, "bytes">), bytes: frameBytes(Buffer.byteLength(text)) };
      messages.push(message);
      listener(message);
      if (message.type === "ready") resolve(message.cart!);
    });
    socket.addEventListener("close", (event) => reject(new Error(`the phone's socket closed with ${event.code}`)));
  });
  const untilUpdated = async (from: number) => {
    const deadline = Date.now() + 5000;
    while (!messages.slice(from).some((m) => m.type === "cart_updated")) {
      if (Date.now() > deadline) throw new Error("no cart_updated within 5 s of the scan");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const heard = messages.slice(from);
    const bytes: Record<string, number> = {};
    for (const m of heard) bytes[m.type] = (bytes[m.type] ?? 0) + m.bytes;
    return { bytes, cart: heard.findLast((m) => m.type === "cart_updated")!.cart! };
  };
  return {
    ready,
    untilUpdated,
    mark: () => messages.length,
    listen: (next: (message: Message) => void) => {
      listener = next;
    },
    close: () => socket.close(1000),
  };
}

async function measureCase(base: string, token: string, sessionId: string, barcodes: string[], lines: number) {
  for (const barcode of barcodes.slice(0, lines))
    await request(base, "POST", SCAN_PATH, token, { session_id: sessionId, barcode, scan_id: randomUUID() });
  const phone = await phoneSocket(base, sessionId, token);
  const scan = { session_id: sessionId, barcode: barcodes[0]!, scan_id: "" };
  try {
    // Before: the answer, then the whole cart by GET.
    let from = phone.mark();
    const post = await request(base, "POST", SCAN_PATH, token, { ...scan, scan_id: randomUUID() });
    const get = await request(base, "GET", `/api/v1/cart/${sessionId}`, token);
    const heard = await phone.untilUpdated(from);
    const before: Way = { post, gets: [get], socket: heard.bytes };

    // After: the phone's own code keeps its copy from the answer and the socket's messages.
    let shown: Cart | null = null;
    const keeper: CartKeeper = cartKeeper((cart) => {
      shown = cart;
    });
    keeper.socketCart(heard.cart);
    phone.listen((m) => {
      if (m.type === "product_added") keeper.productAdded(m.product!);
      else if (m.type === "cart_updated") keeper.socketCart(m.cart!);
    });
    from = phone.mark();
    const answer = await keeper.change(() =>
      request(base, "POST", SCAN_PATH, token, { ...scan, scan_id: randomUUID() }),
    );
    const gets: Answer[] = [];
    if (!keeper.scanAnswered(JSON.parse(answer.text) as ScanAnswer)) {
      gets.push(await request(base, "GET", `/api/v1/cart/${sessionId}`, token));
      keeper.answerCart(JSON.parse(gets[0]!.text) as Cart);
    }
    const afterAnswer = shown;
    const updated = await phone.untilUpdated(from);
    const after: Way = {
      post: answer,
      gets,
      socket: updated.bytes,
      matches: isDeepStrictEqual(afterAnswer, updated.cart),
    };
    return { lines, before, after };
  } finally {
    phone.close();
  }
}

export async function scanBytesBench(): Promise<string> {
  const measured = await withServer({ DEV_TOOLS: "true" }, async (server) => {
    const shop = await prepareShop(server, Math.max(...LINES), LINES.length);
    // Only the cart's contents matter here: no limit on its total.
    for (const { storeId } of shop.stores)
      await call(`${server.base}/api/v1/settings/stores/${storeId}`, {
        method: "PUT",
        json: { settings: { store: { max_cart_total: 999_999 } } },
        cookie: server.session,
      });
    const token = await shopperToken(server.base);
    const visits = await openVisits(server.base, shop, token, LINES.length);
    const cases: BytesCase[] = [];
    for (const [i, lines] of LINES.entries())
      cases.push(await measureCase(server.base, token, visits[i]!, shop.barcodes, lines));
    return cases;
  }).catch((err: Error): Skipped => ({ skipped: err.message }));
  return scanBytesReport(measured);
}

const n = (value: number) => value.toLocaleString("en-US");
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const httpBytes = (way: Way) => way.post.wire + sum(way.gets.map((get) => get.wire));
const socketBytes = (way: Way) => sum(Object.values(way.socket));
const total = (way: Way) => httpBytes(way) + socketBytes(way);

function row(lines: number, name: string, way: Way): string {
  const get = way.gets.length ? n(sum(way.gets.map((g) => g.wire))) : "–";
  const cells = [
    n(lines),
    name,
    n(way.post.wire),
    get,
    n(httpBytes(way)),
    n(way.socket.product_added ?? 0),
    n(way.socket.cart_updated ?? 0),
    n(total(way)),
    n(way.gets.length + 1),
  ];
  return `| ${cells.join(" | ")} |`;
}

export function scanBytesReport(measured: BytesCase[] | Skipped): string {
  const heading = "## Scan bytes: what one scan brings to the phone";
  if ("skipped" in measured) return `${heading}\n\nSkipped: ${measured.skipped}\n`;
  const lines = measured.map((c) => {
    const saved = 1 - total(c.after) / total(c.before);
    return `- ${n(c.lines)} ${c.lines === 1 ? "line" : "lines"}: before **${n(total(c.before))} B**, now **${n(total(c.after))} B** (${Math.round(saved * 100)} % less); over HTTP ${n(httpBytes(c.before))} → ${n(httpBytes(c.after))} B, GETs ${c.before.gets.length} → ${c.after.gets.length}; the phone's cart right after the answer equals the socket's next \`cart_updated\`: ${c.after.matches ? "yes" : "**no**"}.`;
  });
  const first = measured[0]!;
  return `${heading}

The phone used to read the whole cart by GET after every scan; now it applies the scan's answer (the line as it stands) and the socket's \`product_added\` to its copy, and reads the cart only when they do not fit (apps/web/src/shopper/cart/cart-sync.ts).

${lines.join("\n")}

| lines in the cart | way | POST answer B | GET B | HTTP B | socket \`product_added\` B | socket \`cart_updated\` B | all B | HTTP answers |
|---:|---|---:|---:|---:|---:|---:|---:|---:|
${measured.flatMap((c) => [row(c.lines, "before: answer + GET", c.before), row(c.lines, "now: answer applied", c.after)]).join("\n")}

### How it was measured

- The real server (\`node apps/server/src/main.ts\`, NODE_ENV=production, DEV_TOOLS=true) on PGlite in a fresh data folder; ${LINES.length} visits of the development shopper, each through the door of a store of its own, filled by scanning ${LINES.map(n).join(", ")} different products of the bench catalogue (bench/catalogue.ts: no images); then, with the phone's socket open, one scan of the cart's first product each way (the line gets one more; the cart keeps its lines).
- HTTP: each request as the phone sends it (\`Accept: application/json\`, \`Accept-Encoding: gzip, deflate, br\`, the bearer token), on a connection of its own from the bench process; bytes on the wire are the status line, the header lines and the body (answers came with encoding \`${first.before.post.encoding}\` and a Content-Length). Of an answer's bytes ${n(first.before.post.wire - first.before.post.body)} are its status line and headers (the security headers the server sends on every answer); the bodies alone, ${n(first.lines)} line: POST answer ${n(first.before.post.body)} B, GET ${n(first.before.gets[0]!.body)} B.
- Socket: Node's WebSocket client on \`/ws/cart\`, signed in with the same token; every frame from the scan's request to the \`cart_updated\` after it, counted as its payload plus the frame header the server sends (2 bytes, 4 from 126 bytes of payload; no compression). The server sends the same \`product_added\` and \`cart_updated\` either way: \`cart_updated\` carries the whole cart after every change (docs/live-cart.md), so the whole cart still reaches the phone once per scan.
- "now": the phone's own code (\`cartKeeper\` in apps/web/src/shopper/cart/cart-sync.ts, as \`useCart\` drives it) fed the socket's messages and the scan's answer; a GET is made only when it says the answer does not fit its copy. Bytes are counted once per scan (one scan each way and case); they vary only with the digits of quantities and totals.
`;
}
