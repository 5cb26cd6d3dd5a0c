import type { Page } from "@playwright/test";
import { expect, test } from "./support/fake-camera.ts";
import { enterStore, type Visit } from "./support/shopping.ts";

/**
 * The whole scanning path as a shopper meets it: Chromium's camera films an
 * EAN-13 (support/fake-camera.ts), the page's scanner reads it, the scan
 * goes to the server, and the line shows.
 */
const CODE = "7310865004703";
test.use({ camera: { code: CODE } });

const NAME = "Kamerakaffe";

/** The product the camera films; both projects share the database, so the second finds it made. */
async function filmedProduct(page: Page) {
  const created = await page.request.post("/api/v1/products/", {
    data: { sku: "E2E-CAMERA-COFFEE", name: NAME, price: 21.5, barcode: CODE, category: "Kaffe" },
  });
  expect([201, 409], await created.text()).toContain(created.status());
}

async function serverQuantity(page: Page, visit: Visit): Promise<number[]> {
  const cart = await page.request.get(`/api/v1/cart/${visit.sessionId}`, {
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  return ((await cart.json()) as { items: { quantity: number }[] }).items.map((item) => item.quantity);
}

test("manual scan: the camera reads the code, the line appears, plus and minus, 'Ta bort', the total", async ({
  page,
}) => {
  const visit = await enterStore(page);
  await filmedProduct(page);
  await page.goto("/customer/manual-scan");
  await page.getByRole("button", { name: "Starta Scanning" }).click();
  await expect(page.getByLabel("Kamerabild för scanning")).toBeVisible();
  await expect(page.getByText(`✓ ${NAME} tillagd!`)).toBeVisible({ timeout: 15_000 });
  // The scanner closed when it read the code (spec §4), and the message goes after 2 s.
  await expect(page.getByLabel("Kamerabild för scanning")).toHaveCount(0);
  await expect(page.getByText(`✓ ${NAME} tillagd!`)).toHaveCount(0, { timeout: 4_000 });

  const line = page.getByRole("listitem").filter({ hasText: NAME });
  await expect(line).toContainText("21,50 kr/st");
  await expect(page.getByTestId("cart-total")).toHaveText("21,50 kr");
  await line.getByRole("button", { name: `Öka antal ${NAME}` }).click();
  await expect(page.getByTestId("cart-total")).toHaveText("43,00 kr");
  await line.getByRole("button", { name: `Minska antal ${NAME}` }).click();
  await expect(page.getByTestId("cart-total")).toHaveText("21,50 kr");
  expect(await serverQuantity(page, visit)).toEqual([1]);
  await line.getByRole("button", { name: "Ta bort" }).click();
  await expect(page.getByText("Kundvagnen är tom")).toBeVisible();
  expect(await serverQuantity(page, visit)).toEqual([]);
});

test("the shopping page: 'Scanna Produkt', the code is read, the scanner closes and the line is there", async ({
  page,
}) => {
  await enterStore(page);
  await filmedProduct(page);
  await page.goto("/customer/shop");
  await page.getByRole("button", { name: "Scanna Produkt" }).click();
  await expect(page.getByRole("button", { name: "Avbryt" })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: NAME })).toContainText("1 st × 21,50 kr", {
    timeout: 15_000,
  });
  await expect(page.getByRole("button", { name: "Avbryt" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Scanna Produkt" })).toBeFocused();
});

test("a scan in a radio shadow waits on the phone and arrives once when the connection is back", async ({
  page,
  consoleErrors,
}) => {
  const visit = await enterStore(page);
  await filmedProduct(page);
  await page.goto("/customer/manual-scan");

  // The worst case: the scan reaches the server, but its answer is lost on the way back.
  let attempts = 0;
  await page.route("**/api/v1/cart/scan", async (route) => {
    attempts++;
    if (attempts === 1) await route.fetch();
    await route.abort("internetdisconnected");
  });
  await page.getByRole("button", { name: "Starta Scanning" }).click();
  await expect(page.getByText("✗ Kunde inte scanna produkt")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("Väntar på anslutning")).toBeVisible();
  await expect(page.getByText(`Streckkod ${CODE} skickas när anslutningen är tillbaka`)).toBeVisible();
  const queued = await page.evaluate(() => JSON.parse(localStorage.getItem("glide_scan_queue") ?? "[]"));
  expect(queued).toHaveLength(1);
  // The server did count it once; the phone does not know that yet.
  expect(await serverQuantity(page, visit)).toEqual([1]);

  // The phone keeps trying while the connection is down (the queue survives a reload too).
  await expect.poll(() => attempts, { timeout: 10_000 }).toBeGreaterThan(1);
  await page.reload();
  await expect(page.getByText("Väntar på anslutning")).toBeVisible();

  await page.unroute("**/api/v1/cart/scan");
  const line = page.getByRole("listitem").filter({ hasText: NAME });
  await expect(line).toContainText("21,50 kr/st", { timeout: 35_000 });
  await expect(page.getByText("Väntar på anslutning")).toHaveCount(0);
  await expect(line.locator("output")).toHaveText("1");
  expect(await serverQuantity(page, visit)).toEqual([1]);
  expect(await page.evaluate(() => localStorage.getItem("glide_scan_queue"))).toBeNull();

  // The blocked requests were the point of this test.
  const expected = /ERR_INTERNET_DISCONNECTED|Failed to fetch/;
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((message) => !expected.test(message)));
});
