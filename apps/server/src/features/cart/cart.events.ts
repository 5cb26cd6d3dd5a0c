import type { Cart } from "@glide/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { EventBus } from "../../platform/event-bus.ts";
import {
  type AnnounceSession,
  announceNothing,
  SESSIONS_TOPIC,
  type SessionChange,
} from "../sessions/session-events.ts";

/** What a cart change tells the shopper's screens; small, so it fits any transport. */
export type CartEvent =
  | {
      type: "product_added";
      product: {
        id: string;
        name: string;
        image_url: string | null;
        price: number;
        /** The line's jämförpris, as the cart's answer gives it. */
        comparison_price: Cart["items"][number]["product"]["comparison_price"];
      };
    }
  | { type: "product_removed"; product_id: string }
  | { type: "cart_changed" };

export const cartTopic = (sessionId: string) => `cart:${sessionId}`;

/**
 * A cart event as the bus carries it: with, when the change knows it, the
 * visit's cart_version after the change. A socket whose cart was read at
 * that version or later already shows the change and is not told it again
 * (cart.fanout.ts). The field never reaches the phone.
 */
export type CartNews = CartEvent & { cart_version?: string };

/**
 * Tells every instance that a cart changed, and with it (in the same message:
 * one NOTIFY) whatever the console's Sessions screen is to hear of it. The
 * change is already committed; a lost event only delays a screen until its
 * next message or reconnect, so a failure to publish is logged, never
 * answered as an error. `version`: the visit's cart_version once a change of
 * the lines committed (that change's, or a later one); null for a change the
 * version does not count (vouchers, prices) or that changed nothing.
 */
export async function announce(
  bus: EventBus,
  log: FastifyBaseLogger,
  sessionId: string,
  events: CartEvent[],
  sessionChanges: SessionChange[] = [],
  version: string | null = null,
): Promise<void> {
  try {
    await bus.publishMany([
      ...events.map((event) => ({
        topic: cartTopic(sessionId),
        message: (version === null ? event : { ...event, cart_version: version }) satisfies CartNews,
      })),
      ...sessionChanges.map((message) => ({ topic: SESSIONS_TOPIC, message })),
    ]);
  } catch (err) {
    log.warn({ err: (err as Error).message }, "cart event not published");
  }
}

/**
 * An announcer that keeps the visit's changes for `announce` to send with
 * the cart's own events, instead of a message of their own.
 */
export function collectSessionChanges(): { announce: AnnounceSession; changes: SessionChange[] } {
  const changes: SessionChange[] = [];
  return {
    changes,
    announce: async (change) => {
      changes.push(change);
    },
  };
}

/** The events a new cart state implies, compared with the line that changed. */
export function addedEvent(item: Cart["items"][number]): CartEvent {
  return {
    type: "product_added",
    product: {
      id: item.product.id,
      name: item.product.name,
      image_url: item.product.image_url,
      price: item.unit_price,
      comparison_price: item.product.comparison_price,
    },
  };
}

/** Tells the console's Sessions screen (through `announce`) that a line of the visit's cart changed. */
export const announceLine = (
  announce: AnnounceSession | undefined,
  visit: { sessionId: string; storeId: string },
  kind: string,
) => (announce ?? announceNothing)({ store_id: visit.storeId, session_id: visit.sessionId, kind });
