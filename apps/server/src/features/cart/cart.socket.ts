import type { WebSocket } from "@fastify/websocket";
import type { FastifyInstance } from "fastify";
import { onCloseStep } from "../../platform/shutdown.ts";
import type { SignInEnd, WatchedSignIn } from "../shopper-auth/sign-in-watch.ts";
import { type CartPeer, createCartFanout, type Refusal } from "./cart.fanout.ts";
import { cartVersion, getCart } from "./cart.service.ts";

export { MAX_SOCKETS_PER_VISIT } from "./cart.fanout.ts";

/**
 * Close codes of /ws/cart beside the standard ones. 4409 tells the phone a
 * newer socket of its visit took its place: it must not connect again by
 * itself, or two tabs would take turns closing each other.
 */
/** restart: this instance is shutting down (1012, "service restart"); the phone connects again at once, to another. */
export const WS_CLOSE = {
  unauthorized: 4401,
  forbidden: 4403,
  badRequest: 4400,
  replaced: 4409,
  restart: 1012,
} as const;
/** The first message must arrive this soon after connecting. */
export const AUTH_TIMEOUT_MS = 10_000;
/**
 * How long a socket closed by the server waits for the peer's answer to its
 * close frame before it is dropped (ws waits 30 s by default): a phone that
 * went out of coverage must not hold an instance's close past its bound.
 */
export const CLOSE_HANDSHAKE_MS = 2_000;
/** A ping this often; a peer that has not answered the previous one by the next is dropped (within 60 s). */
export const HEARTBEAT_MS = 25_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const REFUSALS: Record<Refusal, [number, string]> = {
  replaced: [WS_CLOSE.replaced, "replaced by a newer connection"],
  forbidden: [WS_CLOSE.forbidden, "not your session"],
  unavailable: [1011, "try again"],
};
const ENDS: Record<SignInEnd, string> = { signed_out: "signed out", expired: "access token expired" };

type CartSocket = WebSocket & { alive?: boolean };

/**
 * The shopper's live cart. Protocol (also in docs/live-cart.md):
 * connect to /ws/cart?session_id=…, send {"type":"auth","access_token":"…"}
 * first (never a token in the address: addresses end up in logs); the server
 * answers {"type":"ready","cart":{…}} or closes with 4401 (not signed in) or
 * 4403 (not your session). Then it pushes product_added / product_removed as
 * they happen, each followed by cart_updated with the whole cart, so a client
 * that missed a message is right again at the next one. The socket lasts as
 * long as the sign-in: sign-out, a reused refresh token or the access token's
 * expiry close it with 4401. A visit keeps its newest MAX_SOCKETS_PER_VISIT
 * sockets on an instance; an older one is closed with 4409.
 */
export function registerCartSocket(app: FastifyInstance, heartbeatMs = HEARTBEAT_MS): void {
  const sockets = new Set<CartSocket>();
  const fanout = createCartFanout({
    bus: app.bus,
    // The version first: the cart read after it holds every change up to it, maybe more.
    read: async (customerId, sessionId) => {
      const version = await cartVersion(app.db, sessionId);
      const cart = await getCart({ db: app.db, customerId, sessionId, at: app.saleClock(), book: app.offerBook });
      return { cart, version };
    },
    logger: app.log,
  });
  const heartbeat = setInterval(() => {
    for (const socket of sockets) {
      if (socket.alive === false) {
        socket.terminate();
        continue;
      }
      socket.alive = false;
      socket.ping();
    }
  }, heartbeatMs);
  heartbeat.unref();
  onCloseStep(app, "live cart", () => {
    clearInterval(heartbeat);
    fanout.close();
    for (const socket of sockets) socket.close(WS_CLOSE.restart, "server restarting");
  });

  app.get("/ws/cart", { websocket: true, schema: { hide: true } }, (socket: CartSocket, request) => {
    const sessionId = (request.query as { session_id?: unknown }).session_id;
    if (typeof sessionId !== "string" || !UUID.test(sessionId)) {
      socket.close(WS_CLOSE.badRequest, "session_id must be a UUID");
      return;
    }
    let stopWatching = () => {};
    let leave = () => {};
    const authTimer = setTimeout(() => socket.close(WS_CLOSE.unauthorized, "auth expected first"), AUTH_TIMEOUT_MS);
    socket.alive = true;
    socket.on("pong", () => {
      socket.alive = true;
    });
    socket.on("close", () => {
      clearTimeout(authTimer);
      sockets.delete(socket);
      stopWatching();
      leave();
    });
    socket.on("error", () => socket.terminate());

    socket.once("message", async (raw: unknown) => {
      clearTimeout(authTimer);
      let token: unknown;
      try {
        const message = JSON.parse(String(raw)) as { type?: unknown; access_token?: unknown };
        token = message.type === "auth" ? message.access_token : undefined;
      } catch {
        token = undefined;
      }
      let signIn: WatchedSignIn | null;
      try {
        signIn =
          typeof token === "string"
            ? await app.signIns.admit(token, (why) => socket.close(WS_CLOSE.unauthorized, ENDS[why]))
            : null;
      } catch (err) {
        request.log.warn({ err: (err as Error).message }, "live cart sign-in not checked");
        socket.close(...REFUSALS.unavailable);
        return;
      }
      if (!signIn) {
        socket.close(WS_CLOSE.unauthorized, "sign in first");
        return;
      }
      // Closed while the sign-in was checked: its close handler has already run.
      if (socket.readyState !== socket.OPEN) {
        signIn.stop();
        return;
      }
      stopWatching = signIn.stop;
      const peer: CartPeer = {
        customerId: signIn.customerId,
        send: (text) => {
          if (socket.readyState === socket.OPEN) socket.send(text);
        },
        refuse: (why) => socket.close(...REFUSALS[why]),
      };
      sockets.add(socket);
      leave = fanout.join(sessionId, peer);
      // Anything after auth is ignored: the socket only pushes.
    });
  });
}
