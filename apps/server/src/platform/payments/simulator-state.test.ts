import { type ChildProcessByStdio, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createPaymentSimulator, type PaymentSimulator } from "../../../../../tools/payment-simulator/simulator.ts";
import { chargeWith } from "../../features/payments/charge.ts";
import { createStripeProvider } from "./stripe-provider.ts";

/**
 * The payment simulator's state file (--state-file, as npm start runs it):
 * what the server recorded before a restart of the simulator is still there
 * after it, through the server's own provider and charge port.
 */

const dir = mkdtempSync(path.join(tmpdir(), "glide-payment-state-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const running: PaymentSimulator[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
});

async function start(stateFile?: string) {
  const simulator = createPaymentSimulator(stateFile ? { stateFile } : {});
  running.push(simulator);
  const { apiBase, controlUrl } = await simulator.listen();
  const provider = createStripeProvider({ secretKey: simulator.secretKey, apiBase, timeoutMs: 5000 });
  const control = async <T>(p: string) => (await (await fetch(`${controlUrl}${p}`)).json()) as T;
  return { simulator, apiBase, provider, control };
}

/** A shopper with a saved card, paid 123.45 kr at the exit. */
async function paidShopper(provider: ReturnType<typeof createStripeProvider>, key: string) {
  const customer = await provider.ensureCustomer({ shopperId: `shopper-${key}` });
  if (customer.status !== "ok") throw new Error(JSON.stringify(customer));
  const saved = await provider.saveCard({ customerId: customer.customerId, paymentMethodId: "pm_card_mastercard" });
  if (saved.status !== "saved") throw new Error(JSON.stringify(saved));
  const paid = await chargeWith(provider).charge({
    customer: customer.customerId,
    paymentMethod: saved.card.paymentMethodId,
    amountOre: 12_345,
    currency: "SEK",
    idempotencyKey: `checkout-${key}`,
    description: "test",
    metadata: {},
  });
  if (paid.kind !== "paid") throw new Error(JSON.stringify(paid));
  return { customerId: customer.customerId, paymentMethodId: saved.card.paymentMethodId, intentId: paid.intentId };
}

describe("the payment simulator's state file", () => {
  it("keeps customers, cards and payments over a restart: the payment is refunded afterwards, its card charged again", async () => {
    const file = path.join(dir, "restart.json");
    const first = await start(file);
    const before = await paidShopper(first.provider, "restart");
    // A customer deleted before the restart stays deleted after it.
    const gone = await first.provider.ensureCustomer({ shopperId: "gone" });
    if (gone.status !== "ok") throw new Error(JSON.stringify(gone));
    // After the write that follows the requests above: the DELETE alone must be saved.
    await new Promise((r) => setTimeout(r, 400));
    const deleted = await fetch(`${first.apiBase}/v1/customers/${gone.customerId}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${first.simulator.secretKey}` },
    });
    expect(deleted.status).toBe(200);
    await first.simulator.close();
    running.length = 0;
    expect(existsSync(file)).toBe(true);

    // Another process's start: a new secret key, the same objects.
    const second = await start(file);
    const refund = await second.provider.refund({
      paymentIntentId: before.intentId,
      amountOre: 2_345,
      idempotencyKey: "refund-after-restart",
    });
    expect(refund).toMatchObject({ status: "refunded", amountOre: 2_345, replayed: false });
    const charges = await second.control<{ data: { amount_captured: number; amount_refunded: number }[] }>(
      `/charges?payment_intent=${before.intentId}`,
    );
    expect(charges.data).toEqual([expect.objectContaining({ amount_captured: 12_345, amount_refunded: 2_345 })]);
    // Never more than is left, counted from before the restart too.
    const tooMuch = await second.provider.refund({
      paymentIntentId: before.intentId,
      amountOre: 10_001,
      idempotencyKey: "refund-too-much",
    });
    expect(tooMuch).toMatchObject({ status: "rejected", code: "amount_too_large" });
    // The shopper is still the provider's customer with the card on file.
    expect(await second.provider.ensureCustomer({ shopperId: "x", customerId: before.customerId })).toMatchObject({
      status: "ok",
      customerId: before.customerId,
      created: false,
    });
    const again = await chargeWith(second.provider).charge({
      customer: before.customerId,
      paymentMethod: before.paymentMethodId,
      amountOre: 500,
      currency: "SEK",
      idempotencyKey: "checkout-restart-2",
      description: "test",
      metadata: {},
    });
    expect(again).toMatchObject({ kind: "paid", brand: "mastercard" });
    expect(await second.provider.ensureCustomer({ shopperId: "gone", customerId: gone.customerId })).toMatchObject({
      status: "ok",
      created: true,
    });
  });

  it("answers a request repeated under its key after a restart from the first answer, so nothing is paid twice", async () => {
    const file = path.join(dir, "replay.json");
    const first = await start(file);
    const { intentId } = await paidShopper(first.provider, "replay");
    const refund = { paymentIntentId: intentId, amountOre: 1_000, idempotencyKey: "refund-replayed" };
    const made = await first.provider.refund(refund);
    expect(made).toMatchObject({ status: "refunded", replayed: false });
    await first.simulator.close();
    running.length = 0;

    const second = await start(file);
    const replayed = await second.provider.refund(refund);
    expect(replayed).toMatchObject({ status: "refunded", replayed: true });
    expect(replayed.status === "refunded" && made.status === "refunded" && replayed.refundId).toBe(
      made.status === "refunded" && made.refundId,
    );
    const refunds = await second.control<{ count: number }>(`/refunds?payment_intent=${intentId}`);
    expect(refunds.count).toBe(1);
    // The same key with another amount is still refused as at Stripe.
    expect(await second.provider.refund({ ...refund, amountOre: 999 })).toMatchObject({ status: "key_reused" });
  });

  it("without a state file a restart forgets everything: the payment is missing", async () => {
    const first = await start();
    const { intentId } = await paidShopper(first.provider, "memory");
    await first.simulator.close();
    running.length = 0;
    const second = await start();
    expect(
      await second.provider.refund({ paymentIntentId: intentId, amountOre: 100, idempotencyKey: "refund-memory" }),
    ).toMatchObject({ status: "rejected", code: "resource_missing" });
  });

  it("writes soon after a change without waiting for the stop, whole (a temporary file renamed over it)", async () => {
    const sub = mkdtempSync(path.join(dir, "soon-"));
    const file = path.join(sub, "state.json");
    const { provider } = await start(file);
    const { customerId } = await paidShopper(provider, "soon");
    const deadline = Date.now() + 3000;
    while (!existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 400));
    expect(readFileSync(file, "utf8")).toContain(customerId);
    expect(readdirSync(sub)).toEqual(["state.json"]);
  });

  it("goes on taking payments when the file cannot be written, and says so once", async () => {
    const said = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const file = path.join(dir, "no-such-folder", "state.json");
      const { provider } = await start(file);
      await paidShopper(provider, "unwritable-1");
      await new Promise((r) => setTimeout(r, 400));
      await paidShopper(provider, "unwritable-2");
      await new Promise((r) => setTimeout(r, 400));
      expect(existsSync(file)).toBe(false);
      const warnings = said.mock.calls.filter(([text]) => String(text).includes("could not save"));
      expect(warnings).toHaveLength(1);
      expect(String(warnings[0]![0])).toContain(file);
    } finally {
      said.mockRestore();
    }
  });

  it("refuses to start on a file it cannot read, rather than starting empty over it", () => {
    const file = path.join(dir, "broken.json");
    writeFileSync(file, "{ not json");
    expect(() => createPaymentSimulator({ stateFile: file })).toThrow(/not JSON.*remove it/);
    writeFileSync(file, JSON.stringify({ version: 99 }));
    expect(() => createPaymentSimulator({ stateFile: file })).toThrow(/another version/);
    expect(readFileSync(file, "utf8")).toBe(JSON.stringify({ version: 99 }));
  });

  it("run as npm start runs it (main.ts --state-file), saves what it made before a SIGTERM at once", async () => {
    const file = path.join(dir, "process", "payment-simulator.json");
    const main = path.resolve(import.meta.dirname, "../../../../../tools/payment-simulator/main.ts");
    const run = async () => {
      const child = spawn(process.execPath, [main, "--port", "0", "--state-file", file], {
        stdio: ["ignore", "pipe", "inherit"],
      }) as ChildProcessByStdio<null, Readable, null>;
      let out = "";
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (d: Buffer) => {
          out += d;
          if (out.includes("STRIPE_SECRET_KEY=") && out.endsWith("\n")) resolve();
        });
        child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const setting = (name: string) => new RegExp(`${name}=(\\S+)`).exec(out)![1]!;
      const provider = createStripeProvider({
        secretKey: setting("STRIPE_SECRET_KEY"),
        apiBase: setting("STRIPE_API_BASE"),
      });
      const stop = () =>
        new Promise<number | null>((resolve) => {
          child.on("exit", (code) => resolve(code));
          child.kill("SIGTERM");
        });
      return { provider, stop };
    };
    const first = await run();
    const { intentId } = await paidShopper(first.provider, "process");
    // Straight after the last request, well within the write's delay.
    expect(await first.stop()).toBe(0);
    const second = await run();
    try {
      expect(
        await second.provider.refund({
          paymentIntentId: intentId,
          amountOre: 12_345,
          idempotencyKey: "refund-process",
        }),
      ).toMatchObject({ status: "refunded", amountOre: 12_345 });
    } finally {
      await second.stop();
    }
  });
});
