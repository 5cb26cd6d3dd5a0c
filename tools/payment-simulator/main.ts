/**
 * Runs the payment simulator on its own:
 *   node tools/payment-simulator/main.ts [--port 8445] [--host 127.0.0.1] [--secret-key sk_test_…]
 *     [--state-file data/payment-simulator.json]
 * Prints the settings the server needs (STRIPE_API_BASE, STRIPE_SECRET_KEY).
 * With `--state-file`, its customers, cards, payments and refunds (and the
 * answers kept under idempotency keys) outlive a restart: read from the file
 * at the start, written to it after changes and as the process stops.
 * `--host` is where the card page listens (a phone must reach it); the
 * Stripe API and the control side answer loopback callers only. Without
 * `--port`, 8445 is used, or a free port when something else holds 8445.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createPaymentSimulator, randomSecretKey } from "./simulator.ts";

const DEFAULT_PORT = 8445;

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    host: { type: "string", default: "127.0.0.1" },
    "secret-key": { type: "string" },
    "state-file": { type: "string" },
  },
});

const stateFile = values["state-file"] ? path.resolve(values["state-file"]) : undefined;
if (stateFile) mkdirSync(path.dirname(stateFile), { recursive: true });
const simulator = createPaymentSimulator({ secretKey: values["secret-key"] ?? randomSecretKey(), stateFile });
async function listen() {
  if (values.port !== undefined) return simulator.listen({ port: Number(values.port), host: values.host });
  try {
    return await simulator.listen({ port: DEFAULT_PORT, host: values.host });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EADDRINUSE") throw err;
    return simulator.listen({ port: 0, host: values.host });
  }
}
const { apiBase, cardPageUrl, controlUrl } = await listen();
process.stdout.write(
  [
    `Payment simulator: Stripe API ${apiBase}, card page ${cardPageUrl}?return_url=…, control ${controlUrl}`,
    `  STRIPE_API_BASE=${apiBase}`,
    `  STRIPE_SECRET_KEY=${simulator.secretKey}`,
    "",
  ].join("\n"),
);
const stop = () => simulator.close().then(() => process.exit(0));
// However the process ends short of a signal (an uncaught error, process.exit), what is not saved yet is.
process.on("exit", () => simulator.flush());
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
