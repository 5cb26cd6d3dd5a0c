import type { Locator, Page } from "@playwright/test";
import { createStore, expect, openNav, signIn, test, unique } from "./fixtures.ts";
import { E2E_ADMIN } from "./playwright.config.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { exitGateKey, shopInStore } from "./support/sales.ts";
import { createProduct } from "./support/shopping.ts";
import { leaveUnpaid, paymentFaults, signInNewShopper } from "./support/unpaid.ts";

/** The visit's row (a table row on a desktop, a card on a phone), and the button that opens it. */
const rowOf = (page: Page, sessionId: string) => page.locator(`[data-session-id="${sessionId}"]`);
const open = (row: Locator) => row.getByRole("button").first().click();

test("visits left unpaid are listed with their value; staff charge one to the card on file and write the other off", async ({
  page,
}) => {
  // Two shoppers signed in with BankID, two visits left unpaid and two settled: more than the default 30 s.
  test.setTimeout(120_000);
  await signIn(page);
  const store = await createStore(page.request);
  const gateKey = await exitGateKey(page, store);
  const cheese = await createProduct(page.request, { price: 41.85, name: unique("Obetald ost") });
  const soap = await createProduct(page.request, { price: 24.5, name: unique("Obetald tvål") });
  const anna = await signInNewShopper(page);
  const toCharge = await leaveUnpaid(page, anna, store, gateKey, [cheese.barcode, cheese.barcode]);
  const bertil = await signInNewShopper(page);
  const toWriteOff = await leaveUnpaid(page, bertil, store, gateKey, [soap.barcode]);

  // The status filter offers the new statuses by name; both visits are there with what they came to.
  await page.goto(`/sessions?store=${store.id}`);
  await page.getByLabel("Status").selectOption({ label: "Left unpaid" });
  await expect(page).toHaveURL(/status=left_unpaid/);
  await expect(page.getByLabel("Status").locator("option", { hasText: "Written off" })).toHaveAttribute(
    "value",
    "written_off",
  );
  const charged = rowOf(page, toCharge);
  await expect(charged).toContainText("Left unpaid");
  await expect(charged).toContainText(/83,70\s*kr/);
  await expect(rowOf(page, toWriteOff)).toContainText("Left unpaid");
  await expect(rowOf(page, toWriteOff)).toContainText(/24,50\s*kr/);
  await expectAccessible(page, "the Sessions list with visits left unpaid");

  // Charge the card on file: asked first with the amount, the button held while the charge runs.
  await open(charged);
  const detail = page.getByRole("dialog", { name: anna.name });
  await expect(detail).toContainText("Left unpaid");
  const unpaid = detail.getByRole("region", { name: /Left unpaid/ });
  await expect(unpaid).toContainText(/83,70\s*kr/);
  await expect(detail.getByRole("list", { name: "Timeline" })).toContainText(/Charge of 83,70\s*kr declined/);
  await expectAccessible(page, "the detail of a visit left unpaid");
  const chargeButton = unpaid.getByRole("button", { name: "Charge card on file" });
  await chargeButton.click();
  const confirm = page.getByRole("alertdialog", { name: /Charge 83,70\s*kr to the shopper's card on file\?/ });
  await expect(confirm).toBeVisible();
  // The provider takes a moment to answer, so the running charge can be seen.
  await paymentFaults(page, { delay_ms: 1_500, times: 1, path: "/v1/payment_intents" });
  try {
    await confirm.getByRole("button", { name: /^Charge 83,70\s*kr$/ }).click();
    await expect(unpaid.getByRole("button", { name: "Charging…" })).toBeDisabled();
    const done = detail
      .getByRole("status")
      .filter({ hasText: /Charged 83,70\s*kr to the card on file, receipt \d+\./ });
    await expect(done).toBeVisible();
    await expect(done).toBeFocused();
  } finally {
    await paymentFaults(page, {});
  }
  await expect(unpaid).toBeHidden();
  await expect(detail.getByRole("definition").filter({ hasText: /^Paid$/ })).toBeVisible();
  await expect(detail).toContainText("Checked out");
  const charge = detail
    .getByRole("list", { name: "Timeline" })
    .getByRole("listitem")
    .filter({ hasText: /Staff asked to charge 83,70\s*kr to the card on file/ });
  await expect(charge).toContainText("Staff");
  await expect(detail.getByRole("region", { name: /^Receipt \d+$/ })).toContainText(cheese.name);
  await page.keyboard.press("Escape");
  await expect(detail).toBeHidden();
  // Paid, it is no longer among the visits left unpaid.
  await expect(charged).toHaveCount(0);

  // The other visit in the dark theme: the badge and the panel must read as well there.
  await openNav(page);
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await page.keyboard.press("Escape");
  await expect(rowOf(page, toWriteOff)).toContainText("Left unpaid");
  await expectAccessible(page, "the Sessions list with a visit left unpaid, dark");

  // Write off: a reason is required, said beside the field; Escape gives the focus back to the button.
  await open(rowOf(page, toWriteOff));
  const second = page.getByRole("dialog", { name: bertil.name });
  await expect(second.getByRole("region", { name: /Left unpaid/ })).toContainText(/24,50\s*kr/);
  await expectAccessible(page, "the detail of a visit left unpaid, dark");
  const writeOffButton = second.getByRole("button", { name: "Write off", exact: true });
  await writeOffButton.click();
  const writeOff = page.getByRole("dialog", { name: "Write off this visit" });
  await expect(writeOff).toContainText(/24,50\s*kr/);
  const reason = writeOff.getByLabel("Reason");
  await expect(reason).toBeFocused();
  await reason.fill("   ");
  await writeOff.getByRole("button", { name: /^Write off 24,50\s*kr$/ }).click();
  await expect(reason).toHaveAttribute("aria-invalid", "true");
  await expect(reason).toHaveAccessibleDescription(/A reason is required/);
  await expect(writeOff.getByRole("alert")).toHaveCount(0);
  await expect(reason).toBeFocused();
  await expectAccessible(page, "the write-off dialog with a missing reason, dark");
  await page.keyboard.press("Escape");
  await expect(writeOff).toBeHidden();
  await expect(second).toBeVisible();
  await expect(writeOffButton).toBeFocused();

  // Again from the keyboard, with a reason this time.
  await page.keyboard.press("Enter");
  await expect(reason).toBeFocused();
  await expect(reason).toHaveValue("");
  const why = "Kunden nås inte och varan gick inte att sälja igen";
  await reason.fill(why);
  await writeOff.getByRole("button", { name: /^Write off 24,50\s*kr$/ }).click();
  await expect(writeOff).toBeHidden();
  await expect(second.getByRole("status").filter({ hasText: /Written off 24,50\s*kr\./ })).toBeFocused();
  await expect(second).toContainText("Written off");
  await expect(second.getByRole("button", { name: "Charge card on file" })).toHaveCount(0);
  const writtenOff = second
    .getByRole("list", { name: "Timeline" })
    .getByRole("listitem")
    .filter({ hasText: `Written off` });
  await expect(writtenOff).toContainText(why);
  await expect(writtenOff).toContainText(/24,50\s*kr/);
  await expect(writtenOff).toContainText("Staff");
  await page.keyboard.press("Escape");

  // Under its own status, muted, with nothing left to do.
  await page.getByLabel("Status").selectOption({ label: "Written off" });
  await expect(page).toHaveURL(/status=written_off/);
  await expect(rowOf(page, toWriteOff)).toContainText("Written off");
  await expect(rowOf(page, toWriteOff)).toContainText(/24,50\s*kr/);
  await expectAccessible(page, "the Sessions list with a visit written off, dark");
  // The shoppers owe nothing any more.
  for (const who of [anna, bertil]) {
    const owed = await page.request.get("/api/v1/visits/unpaid", { headers: who.headers });
    expect(await owed.json()).toEqual([]);
  }
});

test("a shopper without a card is refused at the exit gate; staff see why and let them out, and the visit is left unpaid", async ({
  page,
}) => {
  // A shopper signed in with BankID, a visit, the gate and the console: more than the default 30 s.
  test.setTimeout(90_000);
  await signIn(page);
  const store = await createStore(page.request, { requireCard: true });
  // This store lets shoppers without a card in (the default keeps them out where payments are set up).
  const setting = await page.request.put(`/api/v1/settings/stores/${store.id}`, {
    data: { settings: { store: { require_card_at_door: false } } },
  });
  expect(setting.ok(), await setting.text()).toBe(true);
  const gateKey = await exitGateKey(page, store);
  const juice = await createProduct(page.request, { price: 19.9, name: unique("Kortlös juice") });
  const who = await signInNewShopper(page);
  const removed = await page.request.delete("/api/v1/payment-method", { headers: who.headers });
  expect(removed.status(), await removed.text()).toBe(204);
  const visit = await shopInStore(page, who, store, [juice.barcode]);
  const code = await page.request.get("/api/v1/exit/token", { headers: who.headers });
  expect(code.ok(), await code.text()).toBe(true);
  const gate = await page.request.post("/api/v1/exit/scan", {
    data: { token: ((await code.json()) as { token: string }).token },
    headers: { Authorization: `Device ${gateKey}` },
  });
  expect(gate.status(), await gate.text()).toBe(409);
  expect(await gate.json()).toMatchObject({ code: "no_payment_method" });

  // The visit is still inside; its timeline says the gate refused it, and why, in plain words.
  await page.goto(`/sessions?store=${store.id}`);
  const row = rowOf(page, visit.session_id);
  await expect(row).toContainText("Shopping");
  await open(row);
  const detail = page.getByRole("dialog", { name: who.name });
  const timeline = detail.getByRole("list", { name: "Timeline" });
  await expect(timeline.getByRole("listitem").filter({ hasText: "Exit gate refused: no card on file" })).toContainText(
    "Exit gate",
  );
  const inside = detail.getByRole("region", { name: /In the store/ });
  await expect(inside).toContainText(/19,90\s*kr in the cart/);
  // Nothing to settle yet: the shopper has not left.
  await expect(detail.getByRole("button", { name: "Charge card on file" })).toHaveCount(0);
  await expectAccessible(page, "the detail of a visit refused at the exit");

  // Asked first, saying what follows; cancelled, nothing changes.
  const letOut = inside.getByRole("button", { name: "Let out unpaid" });
  await letOut.click();
  const confirm = page.getByRole("alertdialog", { name: "Let the shopper out without paying?" });
  await expect(confirm).toContainText(
    /becomes Left unpaid \(19,90\s*kr\): staff then charge the card on file or write the goods off/,
  );
  await expectAccessible(page, "the let-out confirmation");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(letOut).toBeFocused();
  await expect(detail).toContainText("Shopping");
  await expect(timeline.getByRole("listitem").filter({ hasText: "Let out" })).toHaveCount(0);

  await letOut.click();
  await confirm.getByRole("button", { name: "Let out unpaid" }).click();
  await expect(
    detail.getByRole("status").filter({ hasText: /The visit is left unpaid \(19,90\s*kr\)\./ }),
  ).toBeFocused();
  await expect(inside).toBeHidden();
  await expect(detail).toContainText("Left unpaid");
  const unpaid = detail.getByRole("region", { name: /Left unpaid/ });
  await expect(unpaid).toContainText(/19,90\s*kr/);
  await expect(unpaid.getByRole("button", { name: "Charge card on file" })).toBeVisible();
  await expect(unpaid.getByRole("button", { name: "Write off" })).toBeVisible();
  await expect(
    timeline.getByRole("listitem").filter({ hasText: `Let out unpaid by ${E2E_ADMIN.email}` }),
  ).toContainText(/19,90\s*kr left unpaid/);
  await expectAccessible(page, "the detail of a visit let out unpaid");

  // The shopper owes it now; staff write it off (there is no card to charge).
  const owed = await page.request.get("/api/v1/visits/unpaid", { headers: who.headers });
  expect(((await owed.json()) as { session_id: string }[]).map((v) => v.session_id)).toEqual([visit.session_id]);
  await unpaid.getByRole("button", { name: "Write off" }).click();
  const writeOff = page.getByRole("dialog", { name: "Write off this visit" });
  await writeOff.getByLabel("Reason").fill("Kunden hade inget kort");
  await writeOff.getByRole("button", { name: /^Write off 19,90\s*kr$/ }).click();
  await expect(writeOff).toBeHidden();
  await expect(detail).toContainText("Written off");
  await expect(detail.getByRole("button", { name: "Let out unpaid" })).toHaveCount(0);
});
