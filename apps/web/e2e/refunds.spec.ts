import type { Page } from "@playwright/test";
import { createStore, expect, signIn, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { exitGateKey, type PaidVisit, paidVisit, type Shopper, signInShopper } from "./support/sales.ts";
import { createProduct } from "./support/shopping.ts";

/** "Receipt 4" and not "Receipt 41": the number may run straight into the next text. */
const receiptNo = (n: number) => new RegExp(`Receipt ${n}(?!\\d)`);

/** Opens a shopper page with the shopper's tokens where the shopper app keeps them. */
async function asShopper(page: Page, who: Shopper, path: string) {
  await page.goto("/customer/not-a-page");
  await page.evaluate((who) => {
    localStorage.setItem("glide_access_token", who.accessToken);
    localStorage.setItem("auth_token", who.accessToken);
    localStorage.setItem("glide_refresh_token", who.refreshToken);
    localStorage.setItem("glide_user_id", who.userId);
    localStorage.setItem("glide_user_name", who.name);
  }, who);
  await page.goto(path);
}

test("staff refund one line from the visit's detail; the shopper's receipt shows what was given back", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signIn(page);
  const store = await createStore(page.request);
  const gateKey = await exitGateKey(page, store);
  const coffee = await createProduct(page.request, { price: 30, name: unique("Returkaffe") });
  const bun = await createProduct(page.request, { price: 15, name: unique("Returbulle") });
  const who = await signInShopper(page);
  const visit = await paidVisit(page, who, store, gateKey, [coffee.barcode, coffee.barcode, bun.barcode]);

  await page.goto(`/sessions?session=${visit.sessionId}`);
  const detail = page.getByRole("dialog", { name: who.name });
  await detail.getByRole("button", { name: "Refund", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Refund", exact: true });
  const coffeeUnits = dialog.getByLabel(`${coffee.name} (2 of 2 left)`);
  await expect(coffeeUnits).toBeVisible();
  // Nothing chosen: nothing to refund, and the button cannot be pressed.
  await expect(coffeeUnits).toHaveAccessibleDescription("Up to 2 units · paid 60,00 kr for 2");
  await expect(dialog.getByRole("button", { name: "Refund 0,00 kr" })).toBeDisabled();
  // More than is left is said at the field, not quietly made into the most there is.
  await coffeeUnits.fill("5");
  await expect(coffeeUnits).toHaveValue("5");
  await expect(coffeeUnits).toHaveAttribute("aria-invalid", "true");
  await expect(coffeeUnits).toHaveAccessibleDescription("At most 2 left to refund");
  await expect(dialog.getByText("To refund: 0,00 kr")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Refund 0,00 kr" })).toBeDisabled();
  // The limit itself is allowed; zero is nothing to refund again.
  await coffeeUnits.fill("2");
  await expect(coffeeUnits).not.toHaveAttribute("aria-invalid");
  await expect(dialog.getByRole("button", { name: "Refund 60,00 kr" })).toBeEnabled();
  await coffeeUnits.fill("0");
  await expect(dialog.getByRole("button", { name: "Refund 0,00 kr" })).toBeDisabled();
  await coffeeUnits.fill("1");
  await expect(coffeeUnits).not.toHaveAttribute("aria-invalid");
  await dialog.getByLabel("Reason").fill("Trasig förpackning");
  // The amount the server will refund, before confirming.
  await expect(dialog.getByText("To refund: 30,00 kr")).toBeVisible();
  await expectAccessible(page, "the refund dialog");
  await dialog.getByRole("button", { name: "Refund 30,00 kr" }).click();
  await expect(page.getByText("Refunded 30,00 kr", { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(detail).toContainText(/Refunded\s*30,00\s*kr/);
  // The timeline says what was given back and why, and who did it.
  const refunded = detail
    .getByRole("list", { name: "Timeline" })
    .getByRole("listitem")
    .filter({ hasText: "Refunded 30,00 kr: Trasig förpackning" });
  await expect(refunded).toContainText("Staff");

  await asShopper(page, who, `/customer/receipts/${visit.receiptId}`);
  const receipt = page.getByRole("region", { name: "Kvitto", exact: true });
  await expect(receipt).toContainText(`Återbetalt 1 x ${coffee.name}`);
  await expect(receipt).toContainText(/−30,00\s*kr/);
  // What was paid, what came back and the net (issue 22's receipt).
  await expect(receipt).toContainText(/Betalt\s*75,00\s*kr/);
  await expect(receipt).toContainText(/Netto\s*45,00\s*kr/);
});

test("the shopper disputes a receipt; staff resolve it in the Disputes view and the shopper sees the answer", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signIn(page);
  const store = await createStore(page.request);
  const gateKey = await exitGateKey(page, store);
  const milk = await createProduct(page.request, { price: 18.9, name: unique("Tvistmjölk") });
  const who = await signInShopper(page);
  const visit = await paidVisit(page, who, store, gateKey, [milk.barcode]);
  const complaint = unique("Mjölken var sur, jag vill ha pengarna tillbaka");

  await asShopper(page, who, `/customer/receipts/${visit.receiptId}`);
  await expect(page.getByRole("heading", { name: "Stämmer inte kvittot?" })).toBeVisible();
  await page.getByLabel("Beskriv vad som är fel").fill(complaint);
  await expectAccessible(page, "the dispute form");
  await page.getByRole("button", { name: "Skicka" }).click();
  await expect(page.getByRole("heading", { name: "Vi har tagit emot ditt ärende" })).toBeVisible();
  await expect(page.getByText("Under behandling")).toBeVisible();

  await page.goto("/sessions?view=disputes");
  await expect(page.getByRole("tab", { name: "Disputes" })).toHaveAttribute("aria-selected", "true");
  const item = page.getByRole("listitem").filter({ hasText: complaint });
  await expect(item).toContainText(`Receipt ${visit.receiptNumber}`);
  await expect(item).toContainText(store.name);
  await expectAccessible(page, "the Disputes view");
  await item.getByRole("button", { name: "Resolve" }).click();
  const answer = page.getByRole("dialog", { name: "Resolve dispute" });
  await answer.getByLabel("Answer to the shopper").fill("Vi ber om ursäkt och har betalat tillbaka mjölken.");
  await expectAccessible(page, "the answer dialog");
  await answer.getByRole("button", { name: "Resolve" }).click();
  await expect(page.getByText("Dispute resolved")).toBeVisible();
  await expect(item).toContainText("resolved");
  await expect(item).toContainText("Answer: Vi ber om ursäkt och har betalat tillbaka mjölken.");

  await asShopper(page, who, `/customer/receipts/${visit.receiptId}`);
  await expect(
    page.getByText("Löst · Svar från butiken: Vi ber om ursäkt och har betalat tillbaka mjölken."),
  ).toBeVisible();
});

test("an exit picked for a spot check: the phone says so, staff find it in Spot checks and record OK", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page);
  const store = await createStore(page.request);
  const gateKey = await exitGateKey(page, store);
  const share = await page.request.put(`/api/v1/settings/stores/${store.id}`, {
    data: { settings: { store: { spot_check_share: 0.2 } } },
  });
  expect(share.ok(), await share.text()).toBe(true);
  const soap = await createProduct(page.request, { price: 24.5, name: unique("Kontrolltvål") });
  const who = await signInShopper(page);
  // A first visit to a store is never checked; after it, a fifth of exits are. Not picked 60 times in a row:
  // a chance of 0.8^60, about one in 650,000.
  const first = await paidVisit(page, who, store, gateKey, [soap.barcode]);
  expect(first.notice).toBeUndefined();
  let picked: PaidVisit | undefined;
  for (let i = 0; i < 60 && !picked; i++) {
    const visit = await paidVisit(page, who, store, gateKey, [soap.barcode]);
    if (visit.notice) picked = visit;
  }
  expect(picked, "an exit picked for a check").toBeDefined();
  const flagged = picked!;
  expect(flagged.notice).toBe("Personalen gör en snabb kontroll vid utgången.");

  // The phone at the exit: paid, and the line about the check.
  await asShopper(page, who, "/customer/exit");
  await expect(page.getByRole("heading", { name: "Tack för ditt köp!" })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByText("Personalen gör en snabb kontroll vid utgången.")).toBeVisible();

  await page.goto("/sessions?view=spot-checks");
  await expect(page.getByRole("tab", { name: "Spot checks" })).toHaveAttribute("aria-selected", "true");
  const check = page
    .getByRole("list", { name: "Waiting for a check" })
    // The check's own item (its cart lines are items of a list inside it, without the receipt number).
    .getByRole("listitem")
    // Receipt numbers start again in each store, and the other project's run has stores of its own.
    .filter({ hasText: receiptNo(flagged.receiptNumber) })
    .filter({ hasText: store.name });
  await expect(check).toContainText(`1 x ${soap.name}`);
  await expect(check).toContainText(store.name);

  // Items added: the product is found by search and picked with the keyboard (then taken back off the list).
  await check.getByRole("button", { name: "Items added" }).click();
  const search = check.getByRole("combobox", { name: "Add a product" });
  await search.fill(soap.name);
  await expect(check.getByRole("option", { name: new RegExp(soap.name) })).toBeVisible();
  await expect(search).toHaveAttribute("aria-expanded", "true");
  await expectAccessible(page, "the Spot checks view with the product search open");
  await search.press("ArrowDown");
  await search.press("Enter");
  await expect(search).toHaveAttribute("aria-expanded", "false");
  const toCharge = check.getByRole("list", { name: "Items to charge" });
  await expect(toCharge.getByLabel(`Quantity of ${soap.name}`)).toHaveValue("1");
  await expect(check.getByRole("button", { name: "Charge 24,50 kr and record" })).toBeVisible();
  await toCharge.getByRole("button", { name: `Remove ${soap.name}` }).click();
  await expect(toCharge).toBeHidden();

  await check.getByRole("button", { name: "OK", exact: true }).click();
  await expect(page.getByText("Spot check recorded")).toBeVisible();
  await expect(check).toBeHidden();
  const decided = page
    .getByRole("list", { name: "Decided" })
    .getByRole("listitem")
    .filter({ hasText: receiptNo(flagged.receiptNumber) })
    .filter({ hasText: store.name });
  await expect(decided).toContainText("ok");

  // Recorded: the phone is no longer told to wait for staff.
  const status = await page.request.get("/api/v1/exit/status", { headers: who.headers });
  expect(((await status.json()) as { notice?: string }).notice).toBeUndefined();
});
