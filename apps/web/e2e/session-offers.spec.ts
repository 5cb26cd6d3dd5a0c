import { createStore, expect, signIn, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { serverDay } from "./support/pricing.ts";
import { exitGateKey, paidVisit, signInShopper } from "./support/sales.ts";
import { createProduct } from "./support/shopping.ts";

test("a paid visit with a 3 för 2 shows the discount under the goods, and a refund gives back what was paid", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page);
  const store = await createStore(page.request);
  const gateKey = await exitGateKey(page, store);
  const butter = await createProduct(page.request, { price: 49.9, name: unique("Erbjudandesmör") });
  const bread = await createProduct(page.request, { price: 20, name: unique("Erbjudandebröd") });
  const label = unique("3 för 2 Smör");
  const offer = await page.request.post("/api/v1/offers", {
    data: {
      label,
      kind: "one_free",
      buy: 3,
      amount: null,
      product_ids: [butter.id],
      store_id: store.id,
      starts_on: await serverDay(page, -1),
      ends_on: await serverDay(page, 6),
      limit_per_visit: null,
    },
  });
  expect(offer.status(), await offer.text()).toBe(201);
  const who = await signInShopper(page);
  // Three of the butter (the third free) and a bread the offer does not take: 3 × 49,90 + 20,00 − 49,90.
  const visit = await paidVisit(page, who, store, gateKey, [
    butter.barcode,
    butter.barcode,
    butter.barcode,
    bread.barcode,
  ]);

  await page.goto(`/sessions?session=${visit.sessionId}`);
  const detail = page.getByRole("dialog", { name: who.name });
  await expect(detail.getByText("119,80 kr", { exact: true })).toBeVisible();
  const receipt = detail.getByRole("region", { name: `Receipt ${visit.receiptNumber}` });
  const rows = receipt.getByRole("row");
  // The discount is a line of its own under the goods, and the line it was taken from says how much.
  const discount = rows.filter({ hasText: label });
  await expect(discount).toHaveCount(1);
  await expect(discount).toContainText("−49,90 kr");
  await expect(rows.filter({ hasText: butter.name })).toContainText(`${butter.name} (offer −49,90 kr)`);
  await expect(rows.filter({ hasText: butter.name })).toContainText("149,70 kr");
  // The bread had no offer: no note beside it.
  await expect(rows.filter({ hasText: bread.name })).not.toContainText("offer");
  await expectAccessible(page, "a session's receipt with a multi-buy discount");

  await detail.getByRole("button", { name: "Refund", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Refund", exact: true });
  const butterUnits = dialog.getByLabel(`${butter.name} (3 of 3 left)`);
  // What the shopper paid for the line, the discount taken off: the most its refunds come to.
  await expect(butterUnits).toHaveAccessibleDescription("Up to 3 units · paid 99,80 kr for 3");
  await expect(dialog.getByLabel(`${bread.name} (1 of 1 left)`)).toHaveAccessibleDescription(
    "Up to 1 unit · paid 20,00 kr for 1",
  );
  await butterUnits.fill("3");
  await expect(dialog.getByRole("button", { name: "Refund 99,80 kr" })).toBeEnabled();
  // One unit of three is a third of what was paid (the last unit takes the öre left over), not its shelf price.
  await butterUnits.fill("1");
  await dialog.getByLabel("Reason").fill("Trasig förpackning");
  await dialog.getByRole("button", { name: "Refund 33,26 kr" }).click();
  await expect(page.getByText("Refunded 33,26 kr", { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(rows.filter({ hasText: butter.name })).toContainText("1 · 33,26 kr");
});
