import type { Page } from "@playwright/test";
import { expect, onNarrowestPhone, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { createProduct, enterStore, scanThroughApi, type Visit } from "./support/shopping.ts";

/** A day in Stockholm's calendar, `days` from today: the calendar campaigns run by. */
function stockholmDay(days: number): string {
  const day = new Date(Date.now() + days * 86_400_000);
  return new Intl.DateTimeFormat("sv-SE", { timeZone: "Europe/Stockholm" }).format(day);
}

/** Joins or leaves straight through the API, as the shopper's other phone would. */
async function setMember(page: Page, visit: Visit, member: boolean) {
  const answer = await page.request.put("/api/v1/profile/membership", {
    data: { member },
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
}

/** A campaign for members of the chain only, in the visit's store, running this week. */
async function membersOnlyCampaign(page: Page, visit: Visit, productId: string, price: number) {
  const campaign = await page.request.post("/api/v1/campaigns/", {
    data: {
      product_id: productId,
      store_id: visit.store.id,
      price,
      starts_on: stockholmDay(-1),
      ends_on: stockholmDay(6),
      members_only: true,
    },
  });
  expect(campaign.status(), await campaign.text()).toBe(201);
}

async function isMember(page: Page, visit: Visit): Promise<boolean> {
  const answer = await page.request.get("/api/v1/profile/membership", {
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
  return ((await answer.json()) as { member: boolean }).member;
}

test("a non-member sees Medlemspris and what a member pays, joins with consent on the card page, and leaves", async ({
  page,
}) => {
  await onNarrowestPhone(page);
  const visit = await enterStore(page);
  // Dev-login is one shopper for every test: start as no member.
  await setMember(page, visit, false);
  const coffee = await createProduct(page.request, { price: 64.9, name: unique("Kaffe 450 g") });
  const tea = await createProduct(page.request, { price: 40, name: unique("Te 100 g") });
  const bread = await createProduct(page.request, { price: 32.5, name: unique("Bröd") });
  await membersOnlyCampaign(page, visit, coffee.id, 49.9);
  await membersOnlyCampaign(page, visit, tea.id, 30);

  await page.goto("/customer/shop");
  await expect(page.getByText("Kundvagnen är tom")).toBeVisible();
  expect((await scanThroughApi(page, visit, coffee.barcode)).ok()).toBe(true);
  expect((await scanThroughApi(page, visit, bread.barcode)).ok()).toBe(true);

  // A non-member pays the shelf's price and is told the members' price, in words to a screen reader.
  const line = page.getByRole("listitem").filter({ hasText: coffee.name });
  await expect(line).toContainText("1 st × 64,90 kr");
  await expect(line.getByText("Medlemspris", { exact: true })).toBeVisible();
  await expect(line.getByText("49,90 kr/st", { exact: true })).toBeVisible();
  await expect(line.getByText("Medlemspris 49,90 kr per styck")).toBeAttached();
  const plain = page.getByRole("listitem").filter({ hasText: bread.name });
  await expect(plain).toContainText("32,50 kr");
  await expect(plain.getByText("Medlemspris")).toHaveCount(0);
  await expect(page.getByTestId("cart-total")).toHaveText("97,40 kr");
  await expect(page.getByRole("link", { name: "Som medlem: 82,40 kr. Bli medlem", exact: true })).toBeVisible();
  await expectAccessible(page, "a cart line with Medlemspris");
  await page.getByRole("button", { name: "Byt till ljust tema" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-shopper-theme", "light");
  await expectAccessible(page, "a cart line with Medlemspris, light theme");

  await page.getByRole("button", { name: "Kundvagn, 2 st" }).click();
  const sheet = page.getByRole("dialog", { name: "Kundvagn" });
  const sheetLine = sheet.getByRole("listitem").filter({ hasText: coffee.name });
  await expect(sheetLine).toContainText("64,90 kr · 1 st");
  await expect(sheetLine.getByText("Medlemspris 49,90 kr per styck")).toBeAttached();
  await expect(sheet).toContainText(/Totalt\s*97,40\s*kr/);
  await expect(sheet).toContainText(/Som medlem\s*82,40\s*kr/);
  await expectAccessible(page, "the cart sheet with Medlemspris, light theme");
  // The page behind the modal sheet is inert: the theme is switched with the sheet closed.
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Byt till mörkt tema" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-shopper-theme", "dark");
  await page.getByRole("button", { name: "Kundvagn, 2 st" }).click();
  await expectAccessible(page, "the cart sheet with Medlemspris");

  // "Bli medlem" leads to the membership section, and the terms come before any joining.
  await sheet.getByRole("link", { name: "Bli medlem" }).click();
  await expect(page).toHaveURL(/\/customer\/betalkort\?return=%2Fcustomer%2Fshop#medlemskap$/);
  const section = page.getByRole("region", { name: "Medlemskap" });
  await expect(section.getByRole("heading", { name: "Medlemskap" })).toBeFocused();
  await expect(section).toContainText("Som medlem får du medlemspriser och medlemserbjudanden i alla våra butiker.");
  const consent = section.getByRole("checkbox", { name: "Jag har läst villkoren och vill bli medlem" });
  const join = section.getByRole("button", { name: "Bli medlem" });
  await expect(consent).not.toBeChecked();
  await expect(join).toBeDisabled();
  await expectAccessible(page, "the membership section");
  await page.getByRole("button", { name: "Byt till ljust tema" }).click();
  await expectAccessible(page, "the membership section, light theme");

  // A failed join says so in Swedish, and the shopper is no member; trying again joins.
  let refused = false;
  await page.route("**/api/v1/profile/membership", async (route) => {
    if (route.request().method() !== "PUT" || refused) return route.fallback();
    refused = true;
    await route.fulfill({ status: 429, body: "" });
  });
  await consent.check();
  await join.click();
  await expect(section.getByRole("status")).toHaveText("Det gick inte att bli medlem just nu. Försök igen.");
  expect(await isMember(page, visit)).toBe(false);
  await join.click();
  await expect(section.getByRole("status")).toHaveText(/^Välkommen som medlem!/);
  const today = await page.evaluate(() => new Intl.DateTimeFormat("sv-SE", { dateStyle: "long" }).format(new Date()));
  await expect(section.getByTestId("member-since")).toHaveText(`Du är medlem sedan ${today}.`);
  await expect(section.getByRole("heading", { name: "Medlemskap" })).toBeFocused();
  await expect(consent).toHaveCount(0);
  expect(await isMember(page, visit)).toBe(true);
  await expectAccessible(page, "the membership section of a member, light theme");

  // Back in the cart: the coffee already scanned now costs the members' price, and nothing more is offered.
  await page.getByRole("link", { name: "Tillbaka" }).click();
  await expect(page).toHaveURL(/\/customer\/shop$/);
  await expect(line).toContainText("1 st × 49,90 kr");
  await expect(line.getByText("Medlemspris")).toHaveCount(0);
  await expect(page.getByTestId("cart-total")).toHaveText("82,40 kr");
  await expect(page.getByTestId("member-total")).toHaveCount(0);

  // A membership that cannot be read says so, and "Försök igen" reads it again.
  let unread = false;
  await page.route("**/api/v1/profile/membership", async (route) => {
    if (route.request().method() !== "GET" || unread) return route.fallback();
    unread = true;
    await route.fulfill({ status: 429, body: "" });
  });
  await page.goto("/customer/betalkort");
  await expect(section.getByRole("alert")).toHaveText("Kunde inte hämta ditt medlemskap.");
  await section.getByRole("button", { name: "Försök igen" }).click();
  await expect(section.getByRole("alert")).toHaveCount(0);

  // Leaving asks once more; "Avbryt" keeps the membership.
  const leave = section.getByRole("button", { name: "Avsluta medlemskap" });
  await leave.click();
  const question = section.getByText("Vill du avsluta medlemskapet?");
  await expect(question).toBeFocused();
  await section.getByRole("button", { name: "Avbryt" }).click();
  await expect(leave).toBeFocused();
  expect(await isMember(page, visit)).toBe(true);
  await leave.click();
  await section.getByRole("button", { name: "Ja, avsluta" }).click();
  await expect(section.getByRole("status")).toHaveText("Medlemskapet är avslutat.");
  await expect(consent).not.toBeChecked();
  await expect(join).toBeDisabled();
  expect(await isMember(page, visit)).toBe(false);

  // No member again: a new scan shows Medlemspris; joining on another phone reprices the open cart live.
  await page.goto("/customer/shop");
  await expect(page.getByTestId("cart-total")).toHaveText("82,40 kr");
  expect((await scanThroughApi(page, visit, tea.barcode)).ok()).toBe(true);
  const teaLine = page.getByRole("listitem").filter({ hasText: tea.name });
  await expect(teaLine.getByText("Medlemspris 30,00 kr per styck")).toBeAttached();
  await expect(page.getByTestId("cart-total")).toHaveText("122,40 kr");
  await expect(page.getByTestId("member-total")).toHaveText(/Som medlem: 112,40 kr/);
  await setMember(page, visit, true);
  await expect(page.getByTestId("cart-total")).toHaveText("112,40 kr");
  await expect(teaLine).toContainText("1 st × 30,00 kr");
  await expect(page.getByTestId("member-total")).toHaveCount(0);
  await expect(page.getByText("Medlemspris")).toHaveCount(0);
  await setMember(page, visit, false);
});
