import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyInstance } from "fastify";

declare module "fastify" {
  interface FastifyInstance {
    /** Whether this instance is shutting down: /api/ready answers 503 from the first moment. */
    draining: boolean;
  }
}

/** While draining, every answer asks its client to close the connection, so none is left open to be cut at the close. */
export function closeConnectionsWhileDraining(app: FastifyInstance): void {
  app.addHook("onSend", async (_request, reply) => {
    if (app.draining) reply.header("connection", "close");
  });
}

/**
 * An instance's way out on SIGTERM (a rolling restart): /api/ready fails at
 * once while every request is still served for `drainMs`, long enough for a
 * load balancer's checks to take the instance out (each answer meanwhile
 * closes its connection); then the server stops
 * taking connections, closes idle keep-alive ones, lets the requests in
 * flight finish, closes the live cart sockets with 1012 (the phone connects
 * again at once, to another instance) and the database last.
 */
export async function drainAndClose(app: FastifyInstance, drainMs: number): Promise<void> {
  app.draining = true;
  if (drainMs > 0) await sleep(drainMs);
  await app.close();
}
