import { createHmac } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";

/** Opens a store's entrance. The service tells it; how the lock is driven is the controller's business. */
export interface DoorController {
  /** How the lock is driven, for the visit's timeline. */
  readonly kind: "webhook" | "simulated";
  open(request: { storeId: string; sessionId: string }): Promise<void>;
}

/**
 * A door controller reached by HTTP: POSTs `door.open` as JSON, signed with
 * HMAC-SHA256 of the body in `X-Glide-Signature`, and expects a 2xx.
 */
export function webhookDoor(opts: { url: string; secret: string; timeoutMs?: number }): DoorController {
  return {
    kind: "webhook",
    async open({ storeId, sessionId }) {
      const body = JSON.stringify({
        event: "door.open",
        store_id: storeId,
        session_id: sessionId,
        at: new Date().toISOString(),
      });
      const signature = createHmac("sha256", opts.secret).update(body).digest("hex");
      const res = await fetch(opts.url, {
        method: "POST",
        headers: { "content-type": "application/json", "x-glide-signature": `sha256=${signature}` },
        body,
        signal: AbortSignal.timeout(opts.timeoutMs ?? 3000),
      });
      if (!res.ok) throw new Error(`door controller answered ${res.status}`);
    },
  };
}

/** The demo's door: there is no lock, so the opening is logged. */
export function simulatedDoor(logger: FastifyBaseLogger): DoorController {
  return {
    kind: "simulated",
    async open({ storeId, sessionId }) {
      logger.info({ storeId, sessionId }, "door opened (simulated door)");
    },
  };
}
