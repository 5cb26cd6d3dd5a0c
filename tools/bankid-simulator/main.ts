/**
 * Runs the BankID simulator on its own:
 *   node tools/bankid-simulator/main.ts [--dir DIR] [--rp-port 8443] [--control-port 8444] [--host 127.0.0.1]
 * Prints the settings the server needs (BANKID_URL, BANKID_PFX, ...). `--host`
 * is where the control side and the app page listen (the RP API stays on loopback).
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { loadOrCreateCerts } from "./certs.ts";
import { createBankIdSimulator } from "./simulator.ts";

const { values } = parseArgs({
  options: {
    dir: { type: "string", default: "./data/bankid-simulator" },
    "rp-port": { type: "string", default: "8443" },
    "control-port": { type: "string", default: "8444" },
    host: { type: "string", default: "127.0.0.1" },
    "start-timeout-ms": { type: "string" },
  },
});

const certs = loadOrCreateCerts(path.resolve(values.dir));
const simulator = createBankIdSimulator({
  certs,
  ...(values["start-timeout-ms"] ? { startTimeoutMs: Number(values["start-timeout-ms"]) } : {}),
});
const { rpUrl, controlUrl, appUrl } = await simulator.listen({
  rp: Number(values["rp-port"]),
  control: Number(values["control-port"]),
  controlHost: values.host,
});
process.stdout.write(
  [
    `BankID simulator: RP API ${rpUrl} (mutual TLS), approve logins at ${controlUrl}, the app on a phone at ${appUrl}`,
    `  BANKID_URL=${rpUrl}`,
    `  BANKID_APP_URL=${appUrl}`,
    `  BANKID_PFX=${certs.files.clientPfx}`,
    `  BANKID_PASSPHRASE=${certs.clientPassphrase}`,
    `  BANKID_CA=${certs.files.ca}`,
    "",
  ].join("\n"),
);
const stop = () => simulator.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
