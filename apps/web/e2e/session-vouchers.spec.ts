import { createStore, expect, signIn, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { printedVoucher } from "./support/pant.ts";
import { shopInStore, signInShopper } from "./support/sales.ts";
import { createProduct } from "./support/shopping.ts";

test("a visit paid partly with a pant voucher shows the voucher and what the card paid, and a refund gives back no more", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page);
  const store = await createStore(page.request);
  const butter = await createProduct(page.request, { price: 49.9, name: unique("Pantsmör") });
  const who = await signInShopper(page);
  // Three butters (149,70 kr), a 24-kronor voucher scanned into the cart, then paid: the card pays 125,70.
  const visit = await shopInStore(page, who, store, [butter.barcode, butter.barcode, butter.barcode]);
  const code = await printedVoucher(page.request, store.id, 24);
  const added = await page.request.post("/api/v1/cart/vouchers", {
    data: { session_id: visit.session_id, barcode: code },
    headers: who.headers,
  });
  expect(added.ok(), await added.text()).toBe(true);
  expect(await added.json()).toMatchObject({ total: 149.7, to_pay: 125.7 });
  // While the cart is open, the console's visit shows the voucher and what the card would pay.
  await page.goto(`/sessions?session=${visit.session_id}`);
  const cart = page.getByRole("dialog", { name: who.name }).getByRole("list", { name: "Cart" });
  await expect(cart.getByRole("listitem").filter({ hasText: `Pant voucher ${code}` })).toContainText("−24,00 kr");
  await expect(cart.getByRole("listitem").filter({ hasText: /^Total/ })).toContainText("149,70 kr");
  await expect(cart.getByRole("listitem").filter({ hasText: "To pay by card" })).toContainText("125,70 kr");
  const paid = await page.request.post("/api/v1/checkout", { data: { user_id: who.userId }, headers: who.headers });
  expect(paid.ok(), await paid.text()).toBe(true);
  const receipt = ((await paid.json()) as { receipt: { number: number; paid_by_card: number } }).receipt;
  expect(receipt.paid_by_card).toBe(125.7);

  await page.goto(`/sessions?session=${visit.session_id}`);
  const detail = page.getByRole("dialog", { name: who.name });
  const rows = detail.getByRole("region", { name: `Receipt ${receipt.number}` }).getByRole("row");
  // Under the goods: the total, which stands, the voucher as kronor off, and what the card paid.
  await expect(rows.filter({ hasText: /^Total/ })).toContainText("149,70 kr");
  const voucherRow = rows.filter({ hasText: `Pant voucher ${code}` });
  await expect(voucherRow).toHaveCount(1);
  await expect(voucherRow).toContainText("−24,00 kr");
  await expect(rows.filter({ hasText: "Paid by card" })).toContainText("125,70 kr");
  await expectAccessible(page, "a session's receipt paid partly with a pant voucher");

  await detail.getByRole("button", { name: "Refund", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Refund", exact: true });
  await expect(dialog).toContainText(
    "24,00 kr of this order was paid with pant vouchers; refunds go back to the card, up to the 125,70 kr it paid.",
  );
  // Within what the card paid, units give back their share as always.
  await dialog.getByLabel(`${butter.name} (3 of 3 left)`).fill("2");
  await expect(dialog.getByRole("button", { name: "Refund 99,80 kr" })).toBeEnabled();
  await expect(dialog).not.toContainText("left on the card");
  // The whole order is worth 149,70, but the card paid 125,70: that is what it gets back, as the server gives.
  await dialog.getByLabel("Refund whole order").check();
  await expect(dialog).toContainText(
    "Only 125,70 kr is left on the card to give back: pant vouchers are not paid out.",
  );
  await expectAccessible(page, "the refund dialog of an order paid partly with a pant voucher");
  await dialog.getByLabel("Reason").fill("Fel vara");
  await dialog.getByRole("button", { name: "Refund 125,70 kr" }).click();
  await expect(page.getByText("Refunded 125,70 kr", { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(rows.filter({ hasText: butter.name })).toContainText("3 · 125,70 kr");

  // Nothing is left on the card: the visit no longer offers a refund.
  await expect(detail.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);
});
