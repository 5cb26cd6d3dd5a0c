import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { loadOrCreateCerts } from "../../../../tools/bankid-simulator/certs.ts";
import { createBankIdSimulator } from "../../../../tools/bankid-simulator/simulator.ts";

let certDir: string | undefined;

/**
 * A BankID simulator on loopback, reached by the server's real client over
 * mutual TLS, and the control calls a test uses to play the user's app.
 */
export async function startBankIdSimulator() {
  certDir ??= mkdtempSync(path.join(tmpdir(), "glide-bankid-"));
  const certs = loadOrCreateCerts(certDir);
  const simulator = createBankIdSimulator({ certs });
  const { rpUrl, controlUrl } = await simulator.listen();
  const control = async (route: string, body?: unknown) => {
    const res = await fetch(`${controlUrl}${route}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return {
    env: {
      BANKID_URL: rpUrl,
      BANKID_PFX: certs.files.clientPfx,
      BANKID_PASSPHRASE: certs.clientPassphrase,
      BANKID_CA: certs.files.ca,
    },
    certDir,
    control,
    approve: (orderRef: string, personalNumber = "198112189876") =>
      control(`/api/orders/${orderRef}/approve`, { personalNumber }),
    scan: (orderRef: string, qr: string) => control(`/api/orders/${orderRef}/scan`, { qr }),
    order: async (orderRef: string) =>
      (
        (await control("/api/orders?all=1")).body as unknown as {
          orderRef: string;
          collectCalls: number;
          hintCode: string;
          status: string;
          endUserIp: string;
          userVisibleData: string | null;
          userVisibleDataFormat: string | null;
          returnUrl: string | null;
          web: Record<string, unknown> | null;
        }[]
      ).find((o) => o.orderRef === orderRef),
    close: () => simulator.close(),
  };
}

/** Lets the next collect reach BankID at once instead of waiting out the 2 s between calls. */
export async function allowCollectNow(app: FastifyInstance, orderRef: string): Promise<void> {
  const { sql } = await import("drizzle-orm");
  await app.db.execute(
    sql`update bankid_orders set last_collect_at = now() - interval '3 seconds' where order_ref = ${orderRef}`,
  );
}
