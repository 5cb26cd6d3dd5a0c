import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { exitGateKey } from "./support/sales.ts";
import { createProduct, enterStore, scanThroughApi, type Visit, withoutCard } from "./support/shopping.ts";
import { openAsShopper, signInNewShopper } from "./support/unpaid.ts";

async function saveCard(page: import("@playwright/test").Page, visit: Visit, payment_method = "pm_card_visa") {
  const saved = await page.request.put("/api/v1/payment-method", {
    data: { payment_method },
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
}

test("at the exit gate: the QR code is read, the visit is paid once, the receipt shows, then the start page", async ({
  page,
}) => {
  const visit = await enterStore(page);
  const coffee = await createProduct(page.request, { price: 49.5, name: "Bryggkaffe" });
  await saveCard(page, visit);
  for (let i = 0; i < 2; i++) expect((await scanThroughApi(page, visit, coffee.barcode)).ok()).toBe(true);
  const gate = await page.request.post(`/api/v1/stores/${visit.store.id}/device-keys`, { data: { kind: "exit_gate" } });
  const gateKey = ((await gate.json()) as { key: string }).key;

  await page.goto("/customer/shop");
  await page.getByRole("link", { name: "Gå till kassan →" }).click();
  await expect(page).toHaveURL(/\/customer\/exit$/);
  // No face check in this store: the exit QR code.
  await expect(page.getByRole("heading", { name: "Scanna för att gå ut" })).toBeVisible();
  const qr = page.getByRole("img", { name: "QR-kod för utgången" });
  await expect(qr).toHaveAttribute("src", /^data:image\/png;base64,/);
  expect(await qr.evaluate((img: HTMLImageElement) => [img.width, img.height])).toEqual([256, 256]);
  await expect(page.getByText("Scanna QR-koden vid utgången")).toBeVisible();

  // The gate reads the phone's code (the test asks for the same kind of code the page shows).
  const code = await page.request.get("/api/v1/exit/token", {
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  const scanned = await page.request.post("/api/v1/exit/scan", {
    data: { token: ((await code.json()) as { token: string }).token },
    headers: { Authorization: `Device ${gateKey}` },
  });
  expect(scanned.ok(), await scanned.text()).toBe(true);

  await expect(page.getByRole("heading", { name: "Tack för ditt köp!" })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByText("Betalning genomförd")).toBeVisible();
  const receipt = page.getByRole("region", { name: "Kvitto" });
  await expect(receipt).toContainText("2 x Bryggkaffe");
  await expect(receipt).toContainText("99,00 kr");
  await expect(receipt).toContainText("Varav moms 25 %");
  await expect(receipt).toContainText("Betalt med Visa •••• 4242");
  await expect(page.getByText("Återvänder till startsidan om 5 sekunder...")).toBeVisible();
  expect(await page.evaluate(() => [localStorage.getItem("glide_cart"), localStorage.getItem("session_id")])).toEqual([
    null,
    null,
  ]);
  await expect(page).toHaveURL(/\/customer$/, { timeout: 8_000 });

  // The receipt stays with the shopper.
  await page.getByRole("link", { name: "Mina kvitton" }).click();
  await page.getByRole("link", { name: new RegExp(visit.store.name) }).click();
  await expect(page).toHaveURL(/\/customer\/receipts\/[0-9a-f-]{36}$/);
  // Exact: the receipt page also has the region "Stämmer inte kvittot?" (the dispute form).
  const kept = page.getByRole("region", { name: "Kvitto", exact: true });
  await expect(kept).toContainText("2 x Bryggkaffe");
  await expect(kept).toContainText(visit.store.name);
  await expect(kept).toContainText("Storgatan 1");
});

test("'Kunde inte scanna? Tryck här' pays without the gate; a declined card shows the error view", async ({ page }) => {
  const visit = await enterStore(page);
  const bun = await createProduct(page.request, { price: 12.5, name: "Kanelbulle" });
  await saveCard(page, visit, "pm_card_chargeDeclined");
  expect((await scanThroughApi(page, visit, bun.barcode)).ok()).toBe(true);

  await page.goto("/customer/exit");
  await page.getByRole("button", { name: "Kunde inte scanna? Tryck här" }).click();
  await expect(page.getByRole("heading", { name: "Något gick fel" })).toBeVisible();
  await expect(page.getByText("Kontakta personal för hjälp")).toBeVisible();
  await expect(page.getByText(/nekades/)).toBeVisible();

  await saveCard(page, visit, "pm_card_visa");
  await page.getByRole("button", { name: "Försök igen" }).click();
  await page.getByRole("button", { name: "Kunde inte scanna? Tryck här" }).click();
  await expect(page.getByRole("heading", { name: "Tack för ditt köp!" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Kvitto" })).toContainText("1 x Kanelbulle");
});

/** The exit gate reads the exit code the shopper's phone would show now. */
async function gateReads(page: Page, visit: Visit, gateKey: string) {
  const code = await page.request.get("/api/v1/exit/token", {
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  expect(code.ok(), await code.text()).toBe(true);
  return page.request.post("/api/v1/exit/scan", {
    data: { token: ((await code.json()) as { token: string }).token },
    headers: { Authorization: `Device ${gateKey}` },
  });
}

test("the gate refuses a shopper without a card: the exit leads to the card page and back, and the next code pays", async ({
  page,
}) => {
  test.setTimeout(60_000);
  // The store lets shoppers without a card in (createStore's default): the exit is where they meet the problem.
  const visit = await enterStore(page);
  await withoutCard(page, visit);
  const tea = await createProduct(page.request, { price: 32.9, name: "Grönt te" });
  expect((await scanThroughApi(page, visit, tea.barcode)).ok()).toBe(true);
  const gateKey = await exitGateKey(page, visit.store);

  await page.goto("/customer/exit");
  await expect(page.getByRole("heading", { name: "Scanna för att gå ut" })).toBeVisible();
  const refused = await gateReads(page, visit, gateKey);
  expect(refused.status()).toBe(409);

  // The page hears the gate refused for want of a card: one message, and the card page.
  await expect(page.getByRole("heading", { name: "Lägg till ett betalkort" })).toBeVisible({ timeout: 10_000 });
  await expect(
    page.getByText(
      "Du har inget betalkort sparat, så köpet kunde inte betalas. Lägg till ett kort och scanna sedan en ny QR-kod vid utgången.",
    ),
  ).toBeVisible();
  await expect(page.getByText("Något gick fel")).toHaveCount(0);
  await expectAccessible(page, "the exit asking for a card");
  await page.getByRole("link", { name: "Lägg till betalkort" }).click();
  await expect(page).toHaveURL(/\/customer\/betalkort\?return=%2Fcustomer%2Fexit$/);
  await page.getByRole("link", { name: "Lägg till kort" }).click();
  await page.getByLabel("Kortnummer", { exact: true }).fill("4242 4242 4242 4242");
  await page.getByLabel("Giltig till", { exact: true }).fill("12/34");
  await page.getByLabel("CVC", { exact: true }).fill("123");
  await page.getByRole("button", { name: "Spara kort" }).click();
  await expect(page.getByText("Kortet är sparat.")).toBeVisible();
  await page.getByRole("link", { name: "Tillbaka" }).click();

  // Back at the exit with a card: a new code, and the gate pays.
  await expect(page).toHaveURL(/\/customer\/exit$/);
  await expect(page.getByRole("img", { name: "QR-kod för utgången" })).toBeVisible();
  const paid = await gateReads(page, visit, gateKey);
  expect(paid.ok(), await paid.text()).toBe(true);
  await expect(page.getByRole("heading", { name: "Tack för ditt köp!" })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole("region", { name: "Kvitto" })).toContainText("1 x Grönt te");
});

test("'Kunde inte scanna? Tryck här' without a card says so once and leads to the card page", async ({ page }) => {
  const visit = await enterStore(page);
  await withoutCard(page, visit);
  const gum = await createProduct(page.request, { price: 9.9, name: "Tuggummi mint" });
  expect((await scanThroughApi(page, visit, gum.barcode)).ok()).toBe(true);

  await page.goto("/customer/exit");
  await page.getByRole("button", { name: "Kunde inte scanna? Tryck här" }).click();
  await expect(page.getByRole("heading", { name: "Lägg till ett betalkort" })).toBeVisible();
  await expect(page.getByText("Något gick fel")).toHaveCount(0);
  await expect(page.getByText("Kontakta personal för hjälp")).toHaveCount(0);
  await expect(page.getByText(/Du har inget betalkort sparat/)).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Lägg till betalkort" })).toHaveAttribute(
    "href",
    "/customer/betalkort?return=%2Fcustomer%2Fexit",
  );
  await expectAccessible(page, "the exit after paying without a card");
});

test("the exit without a visit says so and leads to the start page; signed out, to signing in", async ({ page }) => {
  // A shopper of the test's own: the dev-login one is inside other specs' stores.
  const who = await signInNewShopper(page);
  await openAsShopper(page, who, "/customer/exit");
  await expect(page.getByRole("heading", { name: "Inget pågående besök" })).toBeVisible();
  await expect(page.getByText("Du har inget pågående besök.")).toBeVisible();
  await expect(page.getByText("Något gick fel")).toHaveCount(0);
  await expectAccessible(page, "the exit without a visit");
  await page.getByRole("link", { name: "Till startsidan" }).click();
  await expect(page).toHaveURL(/\/customer$/);

  // Signed out: the exit needs the sign-in; with the store known, signing in there.
  await page.evaluate(() => localStorage.clear());
  await page.goto("/customer/exit");
  await expect(page.getByRole("heading", { name: "Du är inte inloggad" })).toBeVisible();
  await expect(page.getByText("Något gick fel")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Logga in" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Till startsidan" })).toHaveAttribute("href", "/customer");
  await page.evaluate(() => localStorage.setItem("store_id", "00000000-0000-4000-8000-00000000abcd"));
  await page.goto("/customer/exit");
  await expect(page.getByRole("link", { name: "Logga in" })).toHaveAttribute(
    "href",
    "/customer/login?store_id=00000000-0000-4000-8000-00000000abcd",
  );
  await expectAccessible(page, "the exit signed out");
});
