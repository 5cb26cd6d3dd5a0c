import type { WebSocket } from "@fastify/websocket";
import type { FastifyInstance } from "fastify";
import { verifyShopperAccess } from "../shopper-auth/shopper-tokens.ts";
import { cartTopic } from "./cart.events.ts";
import { getCart } from "./cart.service.ts";

/** Close codes of /ws/cart beside the standard ones. */
export const WS_CLOSE = { unauthorized: 4401, forbidden: 4403, badRequest: 4400 } as const;
/** The first message must arrive this soon after connecting. */
export const AUTH_TIMEOUT_MS = 10_000;
/** A ping this often; a peer that has not answered the previous one by the next is dropped (within 60 s). */
export const HEARTBEAT_MS = 25_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The shopper's live cart. Protocol (also in docs/live-cart.md):
 * connect to /ws/cart?session_id=…, send {"type":"auth","access_token":"…"}
 * first (never a token in the address: addresses end up in logs); the server
 * answers {"type":"ready","cart":{…}} or closes with 4401 (not signed in) or
 * 4403 (not your session). Then it pushes product_added / product_removed as
 * they happen, each followed by cart_updated with the whole cart, so a client
 * that missed a message is right again at the next one.
 */
export function registerCartSocket(app: FastifyInstance, heartbeatMs = HEARTBEAT_MS): void {
  const sockets = new Set<WebSocket & { alive?: boolean }>();
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
  app.addHook("onClose", async () => {
    clearInterval(heartbeat);
    for (const socket of sockets) socket.close(1001, "server shutting down");
  });

  app.get(
    "/ws/cart",
    { websocket: true, schema: { hide: true } },
    (socket: WebSocket & { alive?: boolean }, request) => {
      const sessionId = (request.query as { session_id?: unknown }).session_id;
      if (typeof sessionId !== "string" || !UUID.test(sessionId)) {
        socket.close(WS_CLOSE.badRequest, "session_id must be a UUID");
        return;
      }
      let stop: (() => void) | null = null;
      // Messages go out in order: each push waits for the one before.
      let queue: Promise<void> = Promise.resolve();
      const send = (message: unknown) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
      };
      const authTimer = setTimeout(() => socket.close(WS_CLOSE.unauthorized, "auth expected first"), AUTH_TIMEOUT_MS);
      socket.alive = true;
      socket.on("pong", () => {
        socket.alive = true;
      });
      socket.on("close", () => {
        clearTimeout(authTimer);
        sockets.delete(socket);
        stop?.();
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
        const customerId =
          typeof token === "string" ? await verifyShopperAccess(app.db, app.shopperKeys.jwt, token) : null;
        if (!customerId) {
          socket.close(WS_CLOSE.unauthorized, "sign in first");
          return;
        }
        // Pushes wait for "ready": a change made while the first cart is read would otherwise reach the
        // phone first and then be overwritten by the older cart in "ready".
        let markReady = () => {};
        queue = new Promise<void>((resolve) => {
          markReady = resolve;
        });
        try {
          // Subscribe before reading, so no change falls between the read and the subscription.
          stop = app.bus.subscribe(cartTopic(sessionId), (event) => {
            queue = queue
              .then(async () => {
                send(event);
                send({ type: "cart_updated", cart: await getCart({ db: app.db, customerId, sessionId }) });
              })
              .catch((err: unknown) => request.log.warn({ err: (err as Error).message }, "cart push failed"));
          });
          const cart = await getCart({ db: app.db, customerId, sessionId });
          sockets.add(socket);
          send({ type: "ready", cart });
          markReady();
        } catch (err) {
          stop?.();
          stop = null;
          const code = (err as { status?: number }).status;
          socket.close(
            code === 403 || code === 404 ? WS_CLOSE.forbidden : 1011,
            code === 403 || code === 404 ? "not your session" : "try again",
          );
        }
        // Anything after auth is ignored: the socket only pushes.
      });
    },
  );
}
