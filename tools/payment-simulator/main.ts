/**
 * Runs the payment simulator on its own:
 *   node tools/payment-simulator/main.ts [--port 8445] [--host 127.0.0.1] [--secret-key sk_test_…]
 * Prints the settings the server needs (STRIPE_API_BASE, STRIPE_SECRET_KEY).
 * `--host` is where the card page listens (a phone must reach it); the
 * Stripe API and the control side answer loopback callers only. Without
 * `--port`, 8445 is used, or a free port when something else holds 8445.
 */
import { parseArgs } from "node:util";
import { createPaymentSimulator, randomSecretKey } from "./simulator.ts";

const DEFAULT_PORT = 8445;

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    host: { type: "string", default: "127.0.0.1" },
    "secret-key": { type: "string" },
  },
});

const simulator = createPaymentSimulator({ secretKey: values["secret-key"] ?? randomSecretKey() });
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
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
