/**
 * VAT per rate on prices that include it, rounded once per rate: one rule for
 * the server and the pricing of a cart, kept in contracts (vat.ts).
 */
export { type VatLine, type VatPerRate, vatPerRate } from "@glide/contracts";
