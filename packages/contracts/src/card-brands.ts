/**
 * Card brands as people write them. The payment provider names a brand in
 * lower case ("visa", "amex"); the shopper's card page, receipt and exit,
 * and the receipt e-mail, all print it through this one function.
 */
const CARD_BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  american_express: "American Express",
  maestro: "Maestro",
  diners: "Diners Club",
  discover: "Discover",
  jcb: "JCB",
  unionpay: "UnionPay",
  cartes_bancaires: "Cartes Bancaires",
};

/** "visa" → "Visa", "amex" → "American Express"; another brand capitalised ("eftpos_au" → "Eftpos au"); none: "Kort". */
export function cardBrandName(brand: string): string {
  const key = brand.trim().toLowerCase();
  const known = CARD_BRANDS[key];
  if (known) return known;
  const words = key.replace(/[_-]+/g, " ").trim();
  if (words === "" || words === "unknown") return "Kort";
  return words.charAt(0).toUpperCase() + words.slice(1);
}
