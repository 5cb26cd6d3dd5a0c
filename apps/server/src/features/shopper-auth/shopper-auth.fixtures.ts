import { type CollectResponse, collectResponseSchema } from "@glide/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect } from "vitest";
import { allowCollectNow, startBankIdSimulator } from "../../test/bankid-harness.ts";
import { createTestContext, type TestContext } from "../../test/harness.ts";

/**
 * What the shopper sign-in tests share: the BankID simulator over mutual TLS,
 * an app that uses it, and browsers with their own device cookie and address.
 */

export let sim: Awaited<ReturnType<typeof startBankIdSimulator>>;
export let ctx: TestContext;
export let ipCounter = 0;

/** A browser: its own device cookie and address. */
export function browser(app: FastifyInstance = ctx.app) {
  const ip = `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
  let device: string | undefined;
  const call = async (method: "GET" | "POST", url: string, payload?: unknown) => {
    const res = await app.inject({
      method,
      url,
      remoteAddress: ip,
      ...(payload !== undefined ? { payload: payload as object } : {}),
      ...(device ? { cookies: { glide_device: device } } : {}),
    });
    device ??= res.cookies.find((c) => c.name === "glide_device")?.value;
    return res;
  };
  return {
    ip,
    init: (body: object = {}) => call("POST", "/api/v1/auth/init", body),
    qr: (orderRef: string) => call("GET", `/api/v1/auth/qr/${orderRef}`),
    collectRaw: (orderRef: string) => call("POST", "/api/v1/auth/collect", { order_ref: orderRef }),
    async collect(orderRef: string): Promise<CollectResponse> {
      await allowCollectNow(app, orderRef);
      const res = await call("POST", "/api/v1/auth/collect", { order_ref: orderRef });
      expect(res.statusCode, res.body).toBe(200);
      return collectResponseSchema.parse(res.json());
    },
    cancel: (orderRef: string) => call("POST", "/api/v1/auth/cancel", { order_ref: orderRef }),
  };
}

/** A sign-in started in a browser; its order reference and auto start token. */
export async function started(b = browser(), body: object = {}) {
  const res = await b.init(body);
  expect(res.statusCode, res.body).toBe(200);
  return { b, orderRef: res.json().order_ref as string, autoStartToken: res.json().auto_start_token as string };
}

/** Starts the BankID simulator and an app that signs in through it, for the test file that calls it. */
export function useBankIdApp(): void {
  beforeAll(async () => {
    sim = await startBankIdSimulator();
    ctx = await createTestContext(sim.env);
  });
  afterAll(async () => {
    await ctx.close();
    await sim.close();
  });
}
