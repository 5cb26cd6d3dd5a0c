import http from "node:http";
import net, { type AddressInfo } from "node:net";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CLOSE_HANDSHAKE_MS, WS_CLOSE } from "../features/cart/cart.socket.ts";
import { createTestContext, type TestContext } from "../test/harness.ts";
import { connect, enteredVisit, liveShop, shopperTokens, socketUrl } from "../test/live-cart-harness.ts";
import { closeProgress, drainAndClose, onCloseStep } from "./shutdown.ts";

/**
 * An instance's way out in a rolling restart: readiness fails at once while
 * requests are still served, a request in flight gets its answer, live cart
 * sockets close with 1012 (the phone comes back at once, to another
 * instance), and then no connection is taken.
 */
let ctx: TestContext;
let port: number;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(() => ctx.close());

/** A plain request on a connection of its own; resolves with the status and body, rejects on a refused or reset connection. */
function request(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path, agent: false }, (res) => {
      let body = "";
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
  });
}

/** A login whose body is still arriving: its first half now, the rest when `finish` is called. */
function slowLogin(path = "/api/v1/admin/login") {
  const body = JSON.stringify({ email: "nobody@example.se", password: "not the password at all" });
  const req = http.request({
    host: "127.0.0.1",
    port,
    path,
    method: "POST",
    agent: false,
    headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
  });
  const answered = new Promise<number>((resolve, reject) => {
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
  });
  req.write(body.slice(0, 10));
  return { answered, finish: () => req.end(body.slice(10)) };
}

describe("shutting down (SIGTERM)", () => {
  it("fails readiness first, answers what is in flight, closes sockets with 1012, then takes no connection", async () => {
    expect(await request("/api/ready")).toEqual({ status: 200, body: JSON.stringify({ status: "ready" }) });
    const { newStore } = await liveShop(ctx.app);
    const token = (await shopperTokens(ctx.app)).access_token;
    const visit = await enteredVisit(ctx.app, await newStore(), token);
    const live = await connect(`${socketUrl(ctx.app)}?session_id=${visit}`, { type: "auth", access_token: token });
    expect((await live.until(1))[0]).toMatchObject({ type: "ready" });
    const inFlight = slowLogin();

    const closed = drainAndClose(ctx.app, 300);
    // Out of the load balancer's rotation at once, but alive and still serving.
    expect(await request("/api/ready")).toEqual({ status: 503, body: JSON.stringify({ status: "draining" }) });
    expect((await request("/api/health")).status).toBe(200);
    expect(live.isOpen()).toBe(true);

    inFlight.finish();
    // A wrong password: answered as ever, not reset.
    expect(await inFlight.answered).toBe(401);
    await closed;
    expect(await live.closing(2_000)).toEqual({ code: WS_CLOSE.restart, reason: "server restarting" });
    await expect(request("/api/ready")).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  it("tells each client during the drain to close its keep-alive connection, so none is cut when the server closes", async () => {
    // The app above is closed; a fresh one for this case.
    const other = await createTestContext();
    await other.app.listen({ port: 0, host: "127.0.0.1" });
    port = (other.app.server.address() as AddressInfo).port;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const onTheAgent = (path: string) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, path, agent }, (res) => {
            res.resume();
            res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
          })
          .on("error", reject);
      });
    expect(await onTheAgent("/api/health")).toEqual({ status: 200, connection: "keep-alive" });
    const closed = drainAndClose(other.app, 300);
    expect(await onTheAgent("/api/health")).toEqual({ status: 200, connection: "close" });
    // A new connection is still taken and served while the load balancer notices.
    expect(await onTheAgent("/api/v1/public/config")).toEqual({ status: 200, connection: "close" });
    await closed;
    agent.destroy();
    await other.close();
  });

  it("answers a request whose body is still arriving when the close begins, with the database still there", async () => {
    const other = await createTestContext();
    await other.app.listen({ port: 0, host: "127.0.0.1" });
    port = (other.app.server.address() as AddressInfo).port;
    // The close begins once the server has taken the connection: before that, a busy machine's closing listener
    // would refuse it (a reset, not the case this test is about).
    const accepted = new Promise((resolve) => other.app.server.once("connection", resolve));
    const inFlight = slowLogin();
    await accepted;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = drainAndClose(other.app, 0);
    setTimeout(inFlight.finish, 200);
    // The login looks the address up in the database: a 401, not a 500 or a reset.
    expect(await inFlight.answered).toBe(401);
    await closed;
    await other.close();
  });

  it("says what a slow close is waiting for (the requests in flight, without their query), again until it ends", async () => {
    const other = await createTestContext();
    await other.app.listen({ port: 0, host: "127.0.0.1" });
    port = (other.app.server.address() as AddressInfo).port;
    const warned: { fields: Record<string, unknown>; message: string }[] = [];
    vi.spyOn(other.app.log, "warn").mockImplementation((fields: unknown, message?: unknown) => {
      warned.push({ fields: fields as Record<string, unknown>, message: String(message) });
    });
    const accepted = new Promise((resolve) => other.app.server.once("connection", resolve));
    const inFlight = slowLogin("/api/v1/admin/login?token=not-for-the-log");
    await accepted;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = drainAndClose(other.app, 0, 100);
    await vi.waitFor(() => expect(warned.length).toBeGreaterThanOrEqual(2), { timeout: 2_000, interval: 20 });
    expect(warned[0]).toMatchObject({
      message: "the close is still waiting",
      fields: {
        connections: 1,
        live_sockets: 0,
        requests_in_flight: 1,
        requests: ["POST /api/v1/admin/login"],
        steps: [],
      },
    });
    expect(warned[0]!.fields.waited_ms).toBeGreaterThanOrEqual(90);
    expect(warned[0]!.fields.waited_ms).toBeLessThan(1_000);
    expect(warned[1]!.fields.waited_ms).toBeGreaterThan(warned[0]!.fields.waited_ms as number);
    inFlight.finish();
    expect(await inFlight.answered).toBe(401);
    await closed;
    const after = warned.length;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(warned.length).toBe(after);
    await other.close();
  });

  it("names the close step still running, and only while it runs", async () => {
    const lines: Record<string, unknown>[] = [];
    const bare = Fastify({
      logger: { level: "warn", stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    onCloseStep(bare, "mail round", () => held);
    onCloseStep(bare, "quick step", () => undefined);
    await bare.ready();
    const closed = drainAndClose(bare, 0, 50);
    await vi.waitFor(() => expect(lines.length).toBeGreaterThan(0), { timeout: 2_000, interval: 10 });
    expect(lines[0]).toMatchObject({ msg: "the close is still waiting", steps: ["mail round"], requests_in_flight: 0 });
    release();
    await closed;
    expect(bare.closing.steps.size).toBe(0);
  });

  it("drops a live cart socket whose phone never answers the close frame after CLOSE_HANDSHAKE_MS, not ws's 30 s", async () => {
    const other = await createTestContext();
    await other.app.listen({ port: 0, host: "127.0.0.1" });
    port = (other.app.server.address() as AddressInfo).port;
    // A phone gone out of coverage: it opens the socket, then reads what comes and never answers.
    const silent = net.connect(port, "127.0.0.1");
    let received = Buffer.alloc(0);
    silent.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
    });
    const dropped = new Promise<number>((resolve) => silent.on("close", () => resolve(Date.now())));
    silent.write(
      [
        `GET /ws/cart?session_id=${crypto.randomUUID()} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
        "",
        "",
      ].join("\r\n"),
    );
    await vi.waitFor(() => expect(received.toString("latin1")).toContain("101 Switching Protocols"), {
      timeout: 2_000,
    });
    const started = Date.now();
    await drainAndClose(other.app, 0);
    const closedAt = await dropped;
    // The close frame came (0x88, then the code 1012 after the 2-byte length header), and the close waited it out.
    const frame = received.subarray(received.indexOf("\r\n\r\n", 0, "latin1") + 4);
    expect(frame[0]).toBe(0x88);
    expect(frame.readUInt16BE(2)).toBe(WS_CLOSE.restart);
    expect(closedAt - started).toBeGreaterThanOrEqual(CLOSE_HANDSHAKE_MS - 50);
    expect(closedAt - started).toBeLessThan(CLOSE_HANDSHAKE_MS + 3_000);
    silent.destroy();
    await other.close();
  });

  it("counts a live cart socket among the requests in flight while it is open, and forgets it once it closes", async () => {
    const other = await createTestContext();
    await other.app.listen({ port: 0, host: "127.0.0.1" });
    const { newStore } = await liveShop(other.app);
    const token = (await shopperTokens(other.app)).access_token;
    const visit = await enteredVisit(other.app, await newStore(), token);
    const live = await connect(`${socketUrl(other.app)}?session_id=${visit}`, { type: "auth", access_token: token });
    expect((await live.until(1))[0]).toMatchObject({ type: "ready" });
    expect([...other.app.closing.requests].map((request) => request.url?.split("?")[0])).toEqual(["/ws/cart"]);
    expect(await closeProgress(other.app)).toMatchObject({
      live_sockets: 1,
      requests_in_flight: 1,
      requests: ["GET /ws/cart"],
    });
    live.socket.close();
    await vi.waitFor(() => expect(other.app.closing.requests.size).toBe(0), { timeout: 2_000, interval: 20 });
    await other.close();
  });

  it("names at most 10 of the requests in flight, and counts them all", async () => {
    const other = await createTestContext();
    await other.app.listen({ port: 0, host: "127.0.0.1" });
    port = (other.app.server.address() as AddressInfo).port;
    const slow = Array.from({ length: 11 }, () => slowLogin());
    await vi.waitFor(() => expect(other.app.closing.requests.size).toBe(11), { timeout: 2_000, interval: 20 });
    const progress = await closeProgress(other.app);
    expect(progress).toMatchObject({ connections: 11, requests_in_flight: 11 });
    expect(progress.requests).toEqual(Array(10).fill("POST /api/v1/admin/login"));
    for (const request of slow) request.finish();
    // Each answered (a wrong password, or the address's login limit past its fifth), none reset.
    for (const status of await Promise.all(slow.map((request) => request.answered)))
      expect([401, 429]).toContain(status);
    await other.close();
  });
});
