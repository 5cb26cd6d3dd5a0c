import type { Page } from "@playwright/test";
import { expect, type TestStore, unique } from "../fixtures.ts";
import { SIMULATOR_CONTROL_URL } from "../playwright.config.ts";
import { type Shopper, shopInStore } from "./sales.ts";

/*
 * Visits left unpaid, made the way docs/sessions.md says one comes about
 * without waiting for the abandoned sweep (five minutes at the least, and the
 * e2e server's database is the server's own): the exit gate opens while the
 * payment provider does not answer, and the charge, asked again, is declined
 * once the shopper has gone.
 */

/** 12 digits YYYYMMDDNNNC, a real date and the Luhn check digit over the last ten: BankID takes it. */
export function newPersonalNumber(): string {
  const pick = (n: number) => Math.floor(Math.random() * n);
  const pad = (value: number, width: number) => String(value).padStart(width, "0");
  const digits = `${1950 + pick(50)}${pad(1 + pick(12), 2)}${pad(1 + pick(28), 2)}${pad(pick(1000), 3)}`;
  const sum = [...digits.slice(2)].reduce((total, digit, index) => {
    const doubled = Number(digit) * (index % 2 === 0 ? 2 : 1);
    return total + (doubled > 9 ? doubled - 9 : doubled);
  }, 0);
  return `${digits}${(10 - (sum % 10)) % 10}`;
}

/**
 * A shopper of the test's own, signed in with BankID through the API (the
 * simulator plays the app), with a card on file that pays. The dev-login
 * shopper is shared by every spec: one left unpaid would keep the others
 * from entering any store.
 */
export async function signInNewShopper(
  page: Page,
  person = { personalNumber: newPersonalNumber(), name: unique("Obetald Kund") },
): Promise<Shopper & { personalNumber: string }> {
  const init = await page.request.post("/api/v1/auth/init", { data: { autostart: false } });
  expect(init.ok(), await init.text()).toBe(true);
  const { order_ref } = (await init.json()) as { order_ref: string };
  const approved = await page.request.post(`${SIMULATOR_CONTROL_URL}/api/orders/${order_ref}/approve`, {
    data: person,
  });
  expect(approved.ok(), await approved.text()).toBe(true);
  let tokens: { access_token?: string; refresh_token?: string; user?: { id: string; name: string } } = {};
  // BankID is asked about an order at most every 2 s: collect until it says complete.
  await expect(async () => {
    const collect = await page.request.post("/api/v1/auth/collect", { data: { order_ref } });
    expect(collect.ok(), await collect.text()).toBe(true);
    tokens = (await collect.json()) as typeof tokens;
    expect(tokens.access_token).toBeTruthy();
  }).toPass({ timeout: 10_000 });
  const headers = { Authorization: `Bearer ${tokens.access_token}` };
  await saveCard(page, headers, "pm_card_visa");
  return {
    name: tokens.user!.name,
    userId: tokens.user!.id,
    accessToken: tokens.access_token!,
    refreshToken: tokens.refresh_token!,
    headers,
    personalNumber: person.personalNumber,
  };
}

async function saveCard(page: Page, headers: Shopper["headers"], paymentMethod: string) {
  const card = await page.request.put("/api/v1/payment-method", { data: { payment_method: paymentMethod }, headers });
  expect(card.ok(), await card.text()).toBe(true);
}

/** The payment simulator's control side (loopback only), found where the server sends shoppers to add a card. */
async function paymentControl(page: Page): Promise<string> {
  const config = await page.request.get("/api/v1/public/config");
  const { card_page_url } = (await config.json()) as { card_page_url: string | null };
  expect(card_page_url, "the payment simulator's card page").toBeTruthy();
  return `http://127.0.0.1:${new URL(card_page_url!).port}/control`;
}

/** Faults of the payment simulator for the next charges (tools/payment-simulator/control.ts); `{}` ends them. */
export async function paymentFaults(
  page: Page,
  faults: { mode?: "error" | "drop"; delay_ms?: number; times?: number; path?: string },
) {
  const set = await page.request.post(`${await paymentControl(page)}/faults`, { data: faults });
  expect(set.ok(), await set.text()).toBe(true);
}

/**
 * Shops `barcodes` in the store and leaves it unpaid: the gate reads the exit
 * code while the provider answers nothing (so it opens, the charge pending),
 * the card on file turns into one the bank declines, and the charge asked
 * again is declined with the shopper gone. The card that pays is put back
 * (staff charge it, or the shopper pays). Returns the visit's id.
 */
export async function leaveUnpaid(
  page: Page,
  who: Shopper,
  store: TestStore,
  gateKey: string,
  barcodes: string[],
): Promise<string> {
  const visit = await shopInStore(page, who, store, barcodes);
  await paymentFaults(page, { mode: "error", path: "/v1/payment_intents" });
  try {
    const code = await page.request.get("/api/v1/exit/token", { headers: who.headers });
    expect(code.ok(), await code.text()).toBe(true);
    const gate = await page.request.post("/api/v1/exit/scan", {
      data: { token: ((await code.json()) as { token: string }).token },
      headers: { Authorization: `Device ${gateKey}` },
    });
    expect(gate.ok(), await gate.text()).toBe(true);
    expect(await gate.json()).toMatchObject({ gate_opened: true, status: "pending" });
    await saveCard(page, who.headers, "pm_card_chargeDeclined");
  } finally {
    await paymentFaults(page, {});
  }
  const declined = await page.request.post("/api/v1/checkout", { data: { user_id: who.userId }, headers: who.headers });
  expect(declined.status(), await declined.text()).toBe(402);
  await saveCard(page, who.headers, "pm_card_visa");
  const owed = await page.request.get("/api/v1/visits/unpaid", { headers: who.headers });
  expect(((await owed.json()) as { session_id: string }[]).map((v) => v.session_id)).toContain(visit.session_id);
  return visit.session_id;
}

/** Opens a shopper page as `who`'s phone would have it: the tokens (and a visit, when given) in localStorage. */
export async function openAsShopper(
  page: Page,
  who: Shopper,
  path: string,
  visit?: { session_id: string; session_token: string; store_id: string },
) {
  await page.goto("/customer/not-a-page");
  await page.evaluate(
    ({ who, visit }) => {
      localStorage.setItem("glide_access_token", who.accessToken);
      localStorage.setItem("auth_token", who.accessToken);
      localStorage.setItem("glide_refresh_token", who.refreshToken);
      localStorage.setItem("glide_user_id", who.userId);
      localStorage.setItem("glide_user_name", who.name);
      if (visit) {
        localStorage.setItem("session_id", visit.session_id);
        localStorage.setItem("session_token", visit.session_token);
        localStorage.setItem("store_id", visit.store_id);
      }
    },
    { who, visit },
  );
  await page.goto(path);
}
