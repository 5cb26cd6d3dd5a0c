import { expect, test } from "./fixtures.ts";
import { createProduct, enterStore, scanThroughApi, type Visit } from "./support/shopping.ts";

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
  await expect(receipt).toContainText("visa •••• 4242");
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
