import type { IncomingMessage } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyInstance } from "fastify";

declare module "fastify" {
  interface FastifyInstance {
    /** Whether this instance is shutting down: /api/ready answers 503 from the first moment. */
    draining: boolean;
    /** What the close is doing: the requests still in flight and the close steps still running. */
    closing: ClosingState;
  }
}

export interface ClosingState {
  /** Requests received and not yet answered (or given up by their client). */
  readonly requests: Set<IncomingMessage>;
  /** The close steps (onCloseStep) running now. */
  readonly steps: Set<string>;
}

/** How long a close may run before the instance says, and then says again, what it is still waiting for. */
export const SLOW_CLOSE_MS = 3_000;

/**
 * While draining, every answer asks its client to close the connection, so
 * none is left open to be cut at the close; and every request is counted
 * until it is answered, so a slow close can say which ones hold it.
 */
export function closeConnectionsWhileDraining(app: FastifyInstance): void {
  const closing = closingOf(app);
  app.addHook("onRequest", (request, reply, done) => {
    const raw = request.raw;
    closing.requests.add(raw);
    reply.raw.once("close", () => closing.requests.delete(raw));
    done();
  });
  app.addHook("onSend", async (_request, reply) => {
    if (app.draining) reply.header("connection", "close");
  });
}

function closingOf(app: FastifyInstance): ClosingState {
  if (!app.hasDecorator("closing"))
    app.decorate("closing", { requests: new Set<IncomingMessage>(), steps: new Set<string>() });
  return app.closing;
}

/** A step of the close, named so that a slow close can say it is the one still running. */
export function onCloseStep(app: FastifyInstance, name: string, step: () => unknown): void {
  const { steps } = closingOf(app);
  app.addHook("onClose", async () => {
    steps.add(name);
    try {
      await step();
    } finally {
      steps.delete(name);
    }
  });
}

/** What a close still waits for, for the log: open connections and sockets, requests in flight, steps running. */
export async function closeProgress(app: FastifyInstance): Promise<Record<string, unknown>> {
  const connections = await new Promise<number>((resolve) =>
    app.server.getConnections((err, count) => resolve(err ? -1 : count)),
  );
  const sockets = (app as { websocketServer?: { clients: Set<unknown> } }).websocketServer?.clients.size ?? 0;
  const requests = [...app.closing.requests]
    .slice(0, 10)
    .map((request) => `${request.method} ${request.url?.split("?")[0]}`);
  return {
    connections,
    live_sockets: sockets,
    requests_in_flight: app.closing.requests.size,
    requests,
    steps: [...app.closing.steps],
  };
}

/**
 * An instance's way out on SIGTERM (a rolling restart): /api/ready fails at
 * once while every request is still served for `drainMs`, long enough for a
 * load balancer's checks to take the instance out (each answer meanwhile
 * closes its connection); then the server stops
 * taking connections, closes idle keep-alive ones, lets the requests in
 * flight finish, closes the live cart sockets with 1012 (the phone connects
 * again at once, to another instance) and the database last. A close still
 * running after `slowCloseMs` is logged with what it waits for, every
 * `slowCloseMs` until it ends.
 */
export async function drainAndClose(app: FastifyInstance, drainMs: number, slowCloseMs = SLOW_CLOSE_MS): Promise<void> {
  app.draining = true;
  if (drainMs > 0) await sleep(drainMs);
  const started = Date.now();
  const watch = setInterval(() => {
    void closeProgress(app).then((progress) =>
      app.log.warn({ waited_ms: Date.now() - started, ...progress }, "the close is still waiting"),
    );
  }, slowCloseMs);
  watch.unref();
  try {
    await app.close();
  } finally {
    clearInterval(watch);
  }
}
