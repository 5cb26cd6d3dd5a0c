import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";

/**
 * Helmet's security headers (a content security policy and the rest), set on
 * every answer. They are the same for every request, so they are worked out
 * once here: helmet's own middleware, as Fastify's helmet plugin calls it,
 * is built anew and parses the policy again on every request (4 % of the
 * server's time on the console's store list, bench/results.md).
 */
export function securityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, String(value)]);
    },
    // X-Powered-By: Fastify sends none.
    removeHeader() {},
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  if (headers.length === 0) throw new Error("helmet set no header");
  app.addHook("onRequest", (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
