import type { Cart } from "@glide/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { EventBus } from "../../platform/event-bus.ts";

/** What a cart change tells the shopper's screens; small, so it fits any transport. */
export type CartEvent =
  | { type: "product_added"; product: { id: string; name: string; image_url: string | null; price: number } }
  | { type: "product_removed"; product_id: string }
  | { type: "cart_changed" };

export const cartTopic = (sessionId: string) => `cart:${sessionId}`;

/**
 * Tells every instance that a cart changed. The change is already committed;
 * a lost event only delays the screen until its next message or reconnect,
 * so a failure to publish is logged, never answered as an error.
 */
export async function announce(
  bus: EventBus,
  log: FastifyBaseLogger,
  sessionId: string,
  events: CartEvent[],
): Promise<void> {
  for (const event of events) {
    try {
      await bus.publish(cartTopic(sessionId), event);
    } catch (err) {
      log.warn({ err: (err as Error).message }, "cart event not published");
    }
  }
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
    },
  };
}
