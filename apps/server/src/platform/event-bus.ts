import type { FastifyBaseLogger } from "fastify";

/**
 * Events between instances: a scan served by instance A reaches the shopper's
 * socket held by instance B. Every instance subscribes to one transport
 * channel and hands each message to the local handlers of its topic, so the
 * number of sockets never changes what the database or Redis sees.
 *
 * Delivery is at most once and only to instances that are connected when the
 * event is published: subscribers that may miss one (a reconnect) reload their
 * state, so an event is a hint to look again, never the only copy of a fact.
 */
declare module "fastify" {
  interface FastifyInstance {
    /** Events between this service's instances (app.ts picks the transport). */
    bus: EventBus;
  }
}

export type EventHandler = (message: unknown) => void;

export interface EventBus {
  readonly kind: "postgres" | "redis";
  /** Delivers `message` (JSON) to every subscriber of `topic` on every instance, this one included. */
  publish(topic: string, message: unknown): Promise<void>;
  /**
   * Delivers several events in one transport message (one NOTIFY): for one
   * change that several kinds of screen hear of, e.g. a scan to the shopper's
   * cart and to the console's Sessions screen.
   */
  publishMany(events: { topic: string; message: unknown }[]): Promise<void>;
  /** Calls `handler` for each message on `topic` from now on; the returned function stops it. */
  subscribe(topic: string, handler: EventHandler): () => void;
  /** Resolves once this instance is listening (tests wait for it before publishing). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The one channel every instance listens on. */
export const EVENT_CHANNEL = "glide_events";
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; keep events small (ids, not documents). */
export const MAX_EVENT_BYTES = 7900;

/** What a transport does: send a payload to every instance, and call back with every payload received. */
export type Transport = {
  send(payload: string): Promise<void>;
  start(onPayload: (payload: string) => void): Promise<void>;
  close(): Promise<void>;
};

type Envelope = { t: string; m: unknown } | { b: { t: string; m: unknown }[] };

export function createEventBus(kind: EventBus["kind"], transport: Transport, logger: FastifyBaseLogger): EventBus {
  const handlers = new Map<string, Set<EventHandler>>();
  const dispatch = (payload: string) => {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch {
      logger.warn("event bus: a message that is not JSON was ignored");
      return;
    }
    if (typeof envelope !== "object" || envelope === null) return;
    for (const event of "b" in envelope ? (Array.isArray(envelope.b) ? envelope.b : []) : [envelope]) {
      const set = handlers.get(event.t);
      if (!set) continue;
      for (const handler of set) {
        try {
          handler(event.m);
        } catch (err) {
          logger.error({ err: (err as Error).message, topic: event.t }, "event handler failed");
        }
      }
    }
  };
  const send = async (envelope: Envelope, what: string) => {
    const payload = JSON.stringify(envelope);
    if (Buffer.byteLength(payload) > MAX_EVENT_BYTES) {
      throw new Error(`event on ${what} is ${Buffer.byteLength(payload)} bytes; the limit is ${MAX_EVENT_BYTES}`);
    }
    await transport.send(payload);
  };
  const started = transport.start(dispatch);
  // A transport that cannot start yet keeps retrying by itself; nobody awaits this promise but ready().
  started.catch(() => {});
  return {
    kind,
    publish: (topic, message) => send({ t: topic, m: message }, topic),
    async publishMany(events) {
      if (events.length === 0) return;
      const first = events[0]!;
      if (events.length === 1) return send({ t: first.topic, m: first.message }, first.topic);
      await send({ b: events.map((e) => ({ t: e.topic, m: e.message })) }, events.map((e) => e.topic).join(", "));
    },
    subscribe(topic, handler) {
      let set = handlers.get(topic);
      if (!set) {
        set = new Set();
        handlers.set(topic, set);
      }
      set.add(handler);
      return () => {
        set.delete(handler);
        if (set.size === 0 && handlers.get(topic) === set) handlers.delete(topic);
      };
    },
    ready: () => started,
    close: () => transport.close(),
  };
}
