import { PANT_CODE_LABELS, type PantCode, SWEDISH_PANT_ORE } from "@glide/contracts";

/** A mark's amount in Sweden, whole kronor as the marks say them ("2 kr", "3 kr"). */
const swedishPantText = (code: PantCode): string => `${SWEDISH_PANT_ORE[code] / 100} kr`;

/** "Can (2 kr)": the form's choice names the mark and what it pays in Sweden, where the grocery is. */
export const pantOptionLabel = (code: PantCode): string => `${PANT_CODE_LABELS[code]} (${swedishPantText(code)})`;

/** "+ 2 kr pant" under the price of a product with a mark, in the lists. */
export const pantListText = (code: PantCode): string => `+ ${swedishPantText(code)} pant`;
