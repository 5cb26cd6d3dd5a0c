import { type Db, queryRows, sql } from "../../db/client.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { PaymentFailure, PaymentProvider } from "../../platform/payments/provider.ts";

type CardRow = {
  payment_customer_id: string | null;
  payment_method_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
};

async function cardRow(db: Db, customerId: string): Promise<CardRow> {
  const [row] = await queryRows<CardRow>(
    db,
    sql`select payment_customer_id, payment_method_id, card_brand, card_last4 from customers where id = ${customerId}`,
  );
  if (!row) throw notFound("Kunden finns inte.", "unknown_customer");
  return row;
}

/** The provider's answer in words the shopper can act on; `act` is what could not be done with the card. */
function cardFailure(failure: PaymentFailure, act: "sparas" | "tas bort" = "sparas"): AppError {
  switch (failure.status) {
    case "declined":
      return new AppError(402, "card_declined", "Kortet godkändes inte av banken. Prova ett annat kort.");
    case "requires_action":
      return new AppError(
        402,
        "card_requires_action",
        "Kortet måste bekräftas hos banken varje gång och kan inte användas för automatisk betalning. Prova ett annat kort.",
      );
    case "rejected":
      return new AppError(422, "invalid_payment_method", "Kortet kunde inte sparas. Lägg till det igen på kortsidan.");
    default:
      return new AppError(503, "payment_unavailable", `Kortet kunde inte ${act} just nu. Försök igen om en stund.`);
  }
}

/** The card on file as the phone shows it: brand and last four, or null when there is none. */
export async function readCard(db: Db, customerId: string): Promise<{ brand: string; last4: string } | null> {
  const row = await cardRow(db, customerId);
  return row.payment_method_id && row.card_brand && row.card_last4
    ? { brand: row.card_brand, last4: row.card_last4 }
    : null;
}

/** Saves the card for automatic payment at the exit; an earlier card is removed once the new one is saved. */
export async function saveCard(
  db: Db,
  provider: PaymentProvider,
  customerId: string,
  paymentMethodId: string,
): Promise<{ brand: string; last4: string }> {
  const row = await cardRow(db, customerId);
  const customer = await provider.ensureCustomer({ shopperId: customerId, customerId: row.payment_customer_id });
  if (customer.status !== "ok") throw cardFailure(customer);
  const saved = await provider.saveCard({
    customerId: customer.customerId,
    paymentMethodId,
    replaces: row.payment_customer_id === customer.customerId ? row.payment_method_id : null,
  });
  if (saved.status !== "saved") throw cardFailure(saved);
  await db.execute(
    sql`update customers set payment_customer_id = ${customer.customerId}, payment_method_id = ${saved.card.paymentMethodId},
          card_brand = ${saved.card.brand}, card_last4 = ${saved.card.last4}
        where id = ${customerId}`,
  );
  return { brand: saved.card.brand, last4: saved.card.last4 };
}

/** Removes the card on file, at the provider first; a shopper without one is answered the same. */
export async function removeCard(db: Db, provider: PaymentProvider, customerId: string): Promise<void> {
  const row = await cardRow(db, customerId);
  if (row.payment_customer_id && row.payment_method_id) {
    const removed = await provider.removeCard({
      customerId: row.payment_customer_id,
      paymentMethodId: row.payment_method_id,
    });
    if (removed.status !== "removed") throw cardFailure(removed, "tas bort");
  }
  await db.execute(
    sql`update customers set payment_method_id = null, card_brand = null, card_last4 = null where id = ${customerId}`,
  );
}
