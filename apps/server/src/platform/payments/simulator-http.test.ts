import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FormError, parseForm } from "../../../../../tools/payment-simulator/form.ts";
import { type PaymentHarness, startPaymentHarness } from "../../test/payments.ts";

/** The simulator's wire format, checked at the HTTP level (the provider tests go through the `stripe` package). */

let h: PaymentHarness;
beforeAll(async () => {
  h = await startPaymentHarness();
});
afterAll(() => h.close());

/** A Stripe answer: the object, or `{ error }`. */
type Wire = Record<string, unknown> & {
  id: string;
  customer: unknown;
  card: unknown;
  error: Record<string, unknown> & { type: string; message: string };
};

async function api(
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: Wire }> {
  const res = await fetch(`${h.apiBase}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${h.simulator.secretKey}`,
      ...(body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
      ...headers,
    },
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Wire };
}

describe("Stripe's form bodies", () => {
  it("reads bracket notation: nested hashes, [] lists and indexed lists", () => {
    const form = parseForm(
      "metadata[shopper_id]=abc&metadata[note]=a%20b&expand[]=x&expand[]=y&list[0]=p&list[1]=q&a=1",
    );
    expect(JSON.parse(JSON.stringify(form))).toEqual({
      metadata: { shopper_id: "abc", note: "a b" },
      expand: ["x", "y"],
      list: { 0: "p", 1: "q" },
      a: "1",
    });
  });

  it("refuses a name that is half a bracket or one name given in two shapes", () => {
    expect(() => parseForm("metadata[x=1")).toThrow(FormError);
    expect(() => parseForm("a=1&a[b]=2")).toThrow(FormError);
    expect(() => parseForm("[x]=1")).toThrow(FormError);
  });

  it("over HTTP: metadata[…] is stored and expand[] expands, in either list form", async () => {
    const made = await api("POST", "/v1/customers", "metadata[shopper_id]=s-1&metadata[store]=demo");
    expect(made.status).toBe(200);
    expect(made.json).toMatchObject({ object: "customer", metadata: { shopper_id: "s-1", store: "demo" } });
    const customer = made.json.id;
    const pm = await api("POST", `/v1/payment_methods/pm_card_visa/attach`, `customer=${customer}&expand[]=customer`);
    expect(pm.json).toMatchObject({ object: "payment_method", card: { brand: "visa", last4: "4242" } });
    expect(pm.json.customer).toMatchObject({ id: customer, object: "customer" });
    const indexed = await api("GET", `/v1/payment_methods/${pm.json.id}?expand[0]=customer`);
    expect(indexed.json.customer).toMatchObject({ id: customer });
    const plain = await api("GET", `/v1/payment_methods/${pm.json.id}`);
    expect(plain.json.customer).toBe(customer);
  });

  it("an unknown parameter, a bad integer or a missing one is a 400 that names it", async () => {
    const unknown = await api("POST", "/v1/customers", "colour=blue");
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatchObject({
      type: "invalid_request_error",
      code: "parameter_unknown",
      param: "colour",
    });
    const notInt = await api("POST", "/v1/payment_intents", "amount=12.5&currency=sek");
    expect(notInt.json.error).toMatchObject({ code: "parameter_invalid_integer", param: "amount" });
    const missing = await api("POST", "/v1/payment_intents", "currency=sek");
    expect(missing.json.error).toMatchObject({ code: "parameter_missing", param: "amount" });
    const expand = await api("GET", "/v1/customers/cus_x?expand[]=everything");
    expect(expand.status).toBe(400);
  });

  it("JSON bodies are refused: the v1 API speaks forms", async () => {
    const res = await api("POST", "/v1/customers", "{}", { "content-type": "application/json" });
    expect(res.status).toBe(400);
  });
});

describe("Stripe's answers", () => {
  it("needs the secret key: none or another is 401", async () => {
    const none = await fetch(`${h.apiBase}/v1/customers/cus_x`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as Wire).error.type).toBe("invalid_request_error");
    const wrong = await api("GET", "/v1/customers/cus_x", undefined, { authorization: "Bearer sk_test_other" });
    expect(wrong.status).toBe(401);
    const basic = Buffer.from(`${h.simulator.secretKey}:`).toString("base64");
    const right = await api("GET", "/v1/customers/cus_x", undefined, { authorization: `Basic ${basic}` });
    expect(right.status).toBe(404);
    expect(right.json.error).toMatchObject({ code: "resource_missing", message: "No such customer: 'cus_x'" });
  });

  it("a decline is 402 card_error with code, decline_code and the PaymentIntent", async () => {
    const res = await api(
      "POST",
      "/v1/payment_intents",
      "amount=5000&currency=sek&payment_method=pm_card_chargeDeclined&allowed_payment_method_types[]=card&confirm=true&off_session=true&capture_method=manual",
    );
    expect(res.status).toBe(402);
    expect(res.json.error).toMatchObject({
      type: "card_error",
      code: "card_declined",
      decline_code: "generic_decline",
      payment_intent: { object: "payment_intent", status: "requires_payment_method" },
    });
    expect(res.headers.get("request-id")).toMatch(/^req_/);
  });

  it("confirming without naming payment method types needs a return_url, as at Stripe", async () => {
    const body = "amount=5000&currency=sek&payment_method=pm_card_visa&confirm=true";
    expect((await api("POST", "/v1/payment_intents", body)).json.error).toMatchObject({ param: "return_url" });
    const never = `${body}&automatic_payment_methods[enabled]=true&automatic_payment_methods[allow_redirects]=never`;
    expect((await api("POST", "/v1/payment_intents", never)).json).toMatchObject({ status: "succeeded" });
  });

  it("replays carry Idempotent-Replayed; another body under the key is 400 idempotency_error", async () => {
    const key = randomUUID();
    const first = await api("POST", "/v1/customers", "metadata[a]=1", { "idempotency-key": key });
    const again = await api("POST", "/v1/customers", "metadata[a]=1", { "idempotency-key": key });
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.id).toBe(first.json.id);
    const other = await api("POST", "/v1/customers", "metadata[a]=2", { "idempotency-key": key });
    expect(other.status).toBe(400);
    expect(other.json.error.type).toBe("idempotency_error");
    // The same parameters in another order are the same request.
    const two = randomUUID();
    await api("POST", "/v1/customers", "metadata[a]=1&metadata[b]=2", { "idempotency-key": two });
    const reordered = await api("POST", "/v1/customers", "metadata[b]=2&metadata[a]=1", { "idempotency-key": two });
    expect(reordered.headers.get("idempotent-replayed")).toBe("true");
  });

  it("an unknown address is 404 in Stripe's error shape", async () => {
    const res = await api("GET", "/v1/nothing");
    expect(res.status).toBe(404);
    expect(res.json.error.message).toContain("Unrecognized request URL");
  });
});

describe("the hosted card page", () => {
  const post = (fields: Record<string, string>) =>
    fetch(h.cardPageUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ exp: "12/39", cvc: "123", return_url: "http://shop.test/kort?x=1", ...fields }),
      redirect: "manual",
    });

  it("shows a Swedish form, only with an http(s) address to return to", async () => {
    const page = await fetch(`${h.cardPageUrl}?return_url=${encodeURIComponent("http://shop.test/kort")}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('lang="sv"');
    expect(html).toContain('<label for="number">Kortnummer</label>');
    expect(html).toContain("4242 4242 4242 4242");
    expect((await fetch(h.cardPageUrl)).status).toBe(400);
    expect((await fetch(`${h.cardPageUrl}?return_url=javascript:alert(1)`)).status).toBe(400);
  });

  it("sends the shopper back with ?payment_method=pm_… of the typed card", async () => {
    const res = await post({ number: "5555 5555 5555 4444" });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get("location")!);
    expect(back.origin + back.pathname).toBe("http://shop.test/kort");
    expect(back.searchParams.get("x")).toBe("1");
    const pm = back.searchParams.get("payment_method")!;
    expect(pm).toMatch(/^pm_/);
    const got = await api("GET", `/v1/payment_methods/${pm}`);
    expect(got.json.card).toMatchObject({ brand: "mastercard", last4: "4444", exp_month: 12, exp_year: 2039 });
  });

  it("keeps the shopper on the page with a Swedish message for a mistyped or non-test card", async () => {
    const typo = await post({ number: "4242 4242 4242 4241" });
    expect(typo.status).toBe(422);
    expect(await typo.text()).toContain("Kortnumret stämmer inte");
    const real = await post({ number: "4111 1111 1111 1111" });
    expect(real.status).toBe(422);
    expect(await real.text()).toContain("testmiljö");
    const expired = await post({ number: "4242424242424242", exp: "01/20" });
    expect(expired.status).toBe(422);
    expect(await expired.text()).toContain("Giltighetstiden");
    const noCode = await post({ number: "4242424242424242", cvc: "" });
    expect(noCode.status).toBe(422);
    expect(await noCode.text()).toContain("Säkerhetskoden");
  });
});

describe("the control API", () => {
  it("refuses faults it does not know", async () => {
    const res = await fetch(`${h.controlUrl}/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ mode: "explode" }),
    });
    expect(res.status).toBe(400);
    expect(await h.control("/faults")).toMatchObject({ mode: "none", delay_ms: 0 });
  });

  it("counts intents per customer", async () => {
    const { customerId, paymentMethodId } = await h.shopperWithCard();
    const provider = h.provider();
    for (const amountOre of [1000, 2000]) {
      await provider.authorize({
        customerId,
        paymentMethodId,
        amountOre,
        currency: "sek",
        idempotencyKey: randomUUID(),
      });
    }
    const intents = await h.control<{ count: number; data: Array<{ amount: number }> }>(
      `/payment_intents?customer=${customerId}`,
    );
    expect(intents.count).toBe(2);
    expect(intents.data.map((i) => i.amount)).toEqual([1000, 2000]);
  });
});
