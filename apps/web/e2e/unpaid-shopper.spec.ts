import type { Page } from "@playwright/test";
import { createStore, expect, test, unique } from "./fixtures.ts";
import { SIMULATOR_CONTROL_URL } from "./playwright.config.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { exitGateKey, shopInStore } from "./support/sales.ts";
import { createProduct } from "./support/shopping.ts";
import { leaveUnpaid, openAsShopper, paymentFaults, signInNewShopper } from "./support/unpaid.ts";

const owed = async (page: Page, headers: { Authorization: string }) =>
  (await (await page.request.get("/api/v1/visits/unpaid", { headers })).json()) as { session_id: string }[];

test("a shopper with a visit left unpaid is told on the start page, store and amount, and pays it there", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const store = await createStore(page.request);
  const juice = await createProduct(page.request, { price: 41.85, name: unique("Obetald juice") });
  const who = await signInNewShopper(page);
  await leaveUnpaid(page, who, store, await exitGateKey(page, store), [juice.barcode, juice.barcode]);

  await openAsShopper(page, who, "/customer");
  const notice = page.getByRole("region", { name: "Obetalt besök" });
  await expect(notice).toBeVisible();
  const visits = notice.getByRole("list", { name: "Obetalda besök" }).getByRole("listitem");
  await expect(visits).toHaveCount(1);
  await expect(visits).toContainText(store.name);
  await expect(visits).toContainText("83,70 kr");
  await expectAccessible(page, "the start page with a visit left unpaid");

  await notice.getByRole("button", { name: "Betala nu" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Tack! Det obetalda besöket är betalt." })).toBeVisible();
  await expect(notice).toBeHidden();
  expect(await owed(page, who.headers)).toEqual([]);
  // Paid with the card on file: the receipt is the shopper's like any other.
  await page.getByRole("link", { name: "Mina kvitton" }).click();
  await expect(page.getByRole("main")).toContainText(store.name);
  await expect(page.getByRole("main")).toContainText("83,70 kr");
});

test("asking to enter with a visit left unpaid: the server's words and 'Betala nu', which pays and goes on to the entry code", async ({
  page,
}) => {
  test.setTimeout(90_000);
  // On a phone the login page opens BankID's app (a universal link): a 204 keeps the page where it is.
  await page.route("https://app.bankid.com/**", (route) => route.fulfill({ status: 204 }));
  const left = await createStore(page.request);
  const next = await createStore(page.request);
  const bread = await createProduct(page.request, { price: 37.5, name: unique("Obetalt bröd") });
  const who = await signInNewShopper(page);
  await leaveUnpaid(page, who, left, await exitGateKey(page, left), [bread.barcode]);
  // Without a card on file first, to see the checkout's refusal and the way to the card page.
  const removed = await page.request.delete("/api/v1/payment-method", { headers: who.headers });
  expect(removed.status(), await removed.text()).toBe(204);

  // The shopper signs in at another store's door with BankID (the simulator plays the app).
  const started = page.waitForResponse((r) => r.url().endsWith("/api/v1/auth/init") && r.request().method() === "POST");
  await page.goto(`/customer/login?store_id=${next.id}`);
  const order = (await (await started).json()) as { order_ref: string };
  const approved = await page.request.post(`${SIMULATOR_CONTROL_URL}/api/orders/${order.order_ref}/approve`, {
    data: { personalNumber: who.personalNumber, name: who.name },
  });
  expect(approved.ok(), await approved.text()).toBe(true);

  await expect(
    page.getByRole("alert").filter({
      hasText: `Du har ett obetalt besök i ${left.name} (37,50 kr). Betala det i appen innan du går in igen, eller kontakta butiken.`,
    }),
  ).toBeVisible({ timeout: 10_000 });
  const pay = page.getByRole("button", { name: "Betala nu" });
  await expect(page.getByRole("button", { name: "Försök igen" })).toHaveCount(0);
  await expectAccessible(page, "the refused entry code with 'Betala nu'");
  await pay.click();
  await expect(
    page
      .getByRole("alert")
      .filter({ hasText: "Du har inget betalkort sparat. Lägg till ett kort för att betala automatiskt." }),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Lägg till betalkort" })).toHaveAttribute("href", "/customer/betalkort");
  await expect(pay).toBeFocused();

  // With a card on file (as the card page would save it), "Betala nu" pays and the sign-in goes on.
  const card = await page.request.put("/api/v1/payment-method", {
    data: { payment_method: "pm_card_visa" },
    headers: who.headers,
  });
  expect(card.ok(), await card.text()).toBe(true);
  await pay.click();
  await expect(page).toHaveURL(/\/customer\/qr-entry$/, { timeout: 10_000 });
  await expect(page.getByRole("img", { name: "QR-kod för inträde i butiken" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("store_id"))).toBe(next.id);
  expect(await owed(page, who.headers)).toEqual([]);
});

test("a scan kept on the phone while the visit is being paid is dropped with the server's words, not sent again", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const store = await createStore(page.request);
  const milk = await createProduct(page.request, { price: 17.9, name: unique("Fryst mjölk") });
  const who = await signInNewShopper(page);
  const visit = await shopInStore(page, who, store, [milk.barcode]);

  // The provider answers slowly, so the visit stays in payment (its cart frozen) for a while.
  await paymentFaults(page, { delay_ms: 8_000, times: 1, path: "/v1/payment_intents" });
  const paying = page.request.post("/api/v1/checkout", { data: { user_id: who.userId }, headers: who.headers });
  try {
    await expect
      .poll(async () => {
        const status = await page.request.get("/api/v1/exit/status", { headers: who.headers });
        return ((await status.json()) as { state: string }).state;
      })
      .toBe("pending");
    // A scan made in a radio shadow waits on the phone; the page sends it as it opens.
    await openAsShopper(page, who, "/customer/not-a-page", visit);
    await page.evaluate(
      ({ sessionId, barcode }) =>
        localStorage.setItem(
          "glide_scan_queue",
          JSON.stringify([{ scan_id: crypto.randomUUID(), session_id: sessionId, barcode, at: Date.now() }]),
        ),
      { sessionId: visit.session_id, barcode: milk.barcode },
    );
    await page.goto("/customer/manual-scan");
    await expect(
      page.getByText("✗ Betalningen pågår. Vänta tills den är klar innan du ändrar kundvagnen.", { exact: true }),
    ).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("glide_scan_queue"))).toBeNull();
    await expect(page.getByText("Väntar på anslutning")).toHaveCount(0);
  } finally {
    await paymentFaults(page, {});
  }
  const paid = await paying;
  expect(paid.ok(), await paid.text()).toBe(true);
  // One line, as scanned before the payment began: the dropped scan added nothing.
  expect(((await paid.json()) as { receipt: { items: { quantity: number }[] } }).receipt.items).toEqual([
    expect.objectContaining({ quantity: 1 }),
  ]);
});

test("a shopper the gate refused for want of a card and staff let out owes the visit on the start page", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const store = await createStore(page.request);
  const gateKey = await exitGateKey(page, store);
  const cake = await createProduct(page.request, { price: 24.5, name: unique("Kortlös kaka") });
  const who = await signInNewShopper(page);
  const removed = await page.request.delete("/api/v1/payment-method", { headers: who.headers });
  expect(removed.status(), await removed.text()).toBe(204);
  const visit = await shopInStore(page, who, store, [cake.barcode]);

  await openAsShopper(page, who, "/customer/exit", visit);
  await expect(page.getByRole("heading", { name: "Scanna för att gå ut" })).toBeVisible();
  const code = await page.request.get("/api/v1/exit/token", { headers: who.headers });
  const gate = await page.request.post("/api/v1/exit/scan", {
    data: { token: ((await code.json()) as { token: string }).token },
    headers: { Authorization: `Device ${gateKey}` },
  });
  expect(gate.status(), await gate.text()).toBe(409);
  await expect(page.getByRole("heading", { name: "Lägg till ett betalkort" })).toBeVisible({ timeout: 10_000 });

  // Staff open the gate for the shopper instead (the console's "let out"): the visit is left unpaid.
  const letOut = await page.request.post(`/api/v1/admin/sessions/${visit.session_id}/let-out`);
  expect(letOut.ok(), await letOut.text()).toBe(true);
  expect(await letOut.json()).toMatchObject({ status: "left_unpaid" });

  const asked = page.waitForResponse((r) => r.url().endsWith("/api/v1/visits/open"));
  await page.goto("/customer");
  expect(await (await asked).json()).toBeNull();
  const notice = page.getByRole("region", { name: "Obetalt besök" });
  await expect(notice.getByRole("listitem")).toContainText(store.name);
  await expect(notice.getByRole("listitem")).toContainText("24,50 kr");
  await expect(page.getByRole("region", { name: "Ditt pågående besök" })).toHaveCount(0);
  expect((await owed(page, who.headers)).map((v) => v.session_id)).toEqual([visit.session_id]);
});
