import type { Cart } from "@glide/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { EventBus } from "../../platform/event-bus.ts";
import { type CartNews, cartTopic } from "./cart.events.ts";

/**
 * Sockets one visit may hold on an instance. A shopper has one phone; a
 * second tab, or a reconnect that comes before the server has noticed the
 * old socket die (a dead phone is dropped within 60 s, see HEARTBEAT_MS),
 * adds one or two more. Five covers that with room to spare, and bounds
 * what anyone holding the visit's token can make a change cost.
 */
export const MAX_SOCKETS_PER_VISIT = 5;

/** A signed-in socket as the fan-out sees it. */
export type CartPeer = {
  customerId: string;
  /** Sends a message already turned into JSON; nothing once the socket is closing. */
  send(text: string): void;
  /** Closes the socket, saying why: a newer one took its place, not the shopper's visit, or the read failed. */
  refuse(why: Refusal): void;
};

export type Refusal = "replaced" | "forbidden" | "unavailable";

type Visit = {
  /** Ready, oldest first. */
  members: CartPeer[];
  /** Signed in, waiting for their first cart. */
  joining: CartPeer[];
  /** Heard, not yet sent. */
  events: Heard[];
  draining: boolean;
  unsubscribe: () => void;
};

/** An event as the phone gets it, and the cart_version its change committed at (null: not known). */
type Heard = { text: string; version: bigint | null };

/** A cart as read, and the visit's cart_version read just before it: every change up to it is in the cart. */
export type ReadCart = { cart: Cart; version: string | null };

const heard = (message: unknown): Heard => {
  const { cart_version, ...event } = (message ?? {}) as CartNews;
  const version = typeof cart_version === "string" && /^\d{1,19}$/.test(cart_version) ? BigInt(cart_version) : null;
  return { text: JSON.stringify(event), version };
};

export interface CartFanout {
  /**
   * Adds a socket whose sign-in was checked: it gets `ready` with the cart
   * once it is read (or is closed: not the shopper's visit), then every
   * change. Returns the function that takes it out again.
   */
  join(sessionId: string, peer: CartPeer): () => void;
  close(): void;
}

/**
 * The live cart's sockets of each visit on this instance. One bus
 * subscription and one queue per visit: each change is read from the
 * database once, and the same JSON goes to every socket of the visit.
 * Changes heard while a read is under way are sent together, followed by
 * one cart_updated; a newcomer's `ready` comes from the same read, after
 * the events it already shows, so an older cart never overwrites a newer.
 * A change whose event is heard only after a socket's cart was read with it
 * in (the bus delivers a NOTIFY a moment after its commit) is not told to
 * that socket again: the read's cart_version says what its cart holds.
 */
export function createCartFanout(opts: {
  bus: EventBus;
  read: (customerId: string, sessionId: string) => Promise<ReadCart>;
  logger: FastifyBaseLogger;
}): CartFanout {
  const visits = new Map<string, Visit>();
  // A newcomer that left while its cart was read is not admitted.
  const left = new WeakSet<CartPeer>();
  const stillJoining = (peer: CartPeer) => !left.has(peer);
  // The cart_version of the newest cart each socket was sent: changes up to it are on its screen. A visit's reads
  // run one after another, so each finds the version where the last left it or higher.
  const shown = new WeakMap<CartPeer, bigint>();
  const sawUpTo = (peer: CartPeer, version: string | null) => {
    // No version: the visit is gone, and so is the cart this read was for.
    if (version !== null) shown.set(peer, BigInt(version));
  };
  /** The events a socket has not seen in a cart it was sent. */
  const newTo = (peer: CartPeer, events: Heard[]) => {
    const upTo = shown.get(peer) ?? -1n;
    return events.filter((event) => event.version === null || event.version > upTo);
  };

  const dropIfEmpty = (sessionId: string, visit: Visit) => {
    if (visit.draining || visit.members.length || visit.joining.length) return;
    visit.unsubscribe();
    if (visits.get(sessionId) === visit) visits.delete(sessionId);
  };

  /** Newcomers whose cart was read: the newest MAX_SOCKETS_PER_VISIT of everyone stay, the oldest go first. */
  const admit = (visit: Visit, newcomers: CartPeer[], read: ReadCart) => {
    const everyone = [...visit.members, ...newcomers];
    const over = Math.max(0, everyone.length - MAX_SOCKETS_PER_VISIT);
    for (const peer of everyone.slice(0, over)) peer.refuse("replaced");
    visit.members = everyone.slice(over);
    const ready = JSON.stringify({ type: "ready", cart: read.cart });
    for (const peer of newcomers.slice(Math.max(0, newcomers.length - visit.members.length))) {
      sawUpTo(peer, read.version);
      peer.send(ready);
    }
  };

  async function drain(sessionId: string, visit: Visit): Promise<void> {
    if (visit.draining) return;
    visit.draining = true;
    try {
      while (visit.events.length || visit.joining.length) {
        const events = visit.events.splice(0);
        const joining = visit.joining.splice(0);
        const told: CartPeer[] = [];
        for (const peer of visit.members) {
          const news = newTo(peer, events);
          for (const event of news) peer.send(event.text);
          if (news.length) told.push(peer);
        }
        // One read per customer, nearly always one: a socket of someone else's token is refused by its own.
        for (const customerId of new Set([...told, ...joining].map((peer) => peer.customerId))) {
          const mine = (peers: CartPeer[]) => peers.filter((peer) => peer.customerId === customerId);
          let read: ReadCart;
          try {
            read = await opts.read(customerId, sessionId);
          } catch (err) {
            const status = (err as { status?: number }).status;
            const why = status === 403 || status === 404 ? "forbidden" : "unavailable";
            for (const peer of mine(joining)) peer.refuse(why);
            if (mine(told).length) opts.logger.warn({ err: (err as Error).message }, "cart push failed");
            continue;
          }
          // Sockets that closed while the cart was read have left the visit; only those still in it hear.
          const updated = JSON.stringify({ type: "cart_updated", cart: read.cart });
          for (const peer of mine(told)) {
            if (!visit.members.includes(peer)) continue;
            sawUpTo(peer, read.version);
            peer.send(updated);
          }
          admit(visit, mine(joining).filter(stillJoining), read);
        }
      }
    } finally {
      visit.draining = false;
      dropIfEmpty(sessionId, visit);
    }
  }

  return {
    join(sessionId, peer) {
      let visit = visits.get(sessionId);
      if (!visit) {
        const created: Visit = { members: [], joining: [], events: [], draining: false, unsubscribe: () => {} };
        // Subscribed before the first read, so no change falls between the read and the subscription.
        created.unsubscribe = opts.bus.subscribe(cartTopic(sessionId), (event) => {
          // Kept even before anyone is ready: a newcomer's cart may have been read just before this change.
          created.events.push(heard(event));
          void drain(sessionId, created);
        });
        visits.set(sessionId, created);
        visit = created;
      }
      const joined = visit;
      joined.joining.push(peer);
      void drain(sessionId, joined);
      return () => {
        left.add(peer);
        joined.members = joined.members.filter((p) => p !== peer);
        joined.joining = joined.joining.filter((p) => p !== peer);
        dropIfEmpty(sessionId, joined);
      };
    },
    close() {
      for (const visit of visits.values()) visit.unsubscribe();
      visits.clear();
    },
  };
}
