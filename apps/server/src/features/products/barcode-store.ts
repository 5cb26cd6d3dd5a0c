import { parseBarcode, parseVariableMeasure } from "@glide/contracts";

/**
 * The GTIN-14 a barcode is stored under. A Swedish variable-measure label is
 * stored as its item (value 0000), so any label of the item finds it.
 */
export function storageGtin(code: string): string | null {
  const parsed = parseBarcode(code);
  if (!parsed) return null;
  const variable = parseVariableMeasure(parsed.raw);
  return variable ? parseBarcode(variable.itemCode)!.gtin14 : parsed.gtin14;
}

/**
 * The barcodes a product ends up with: `barcodes` replaces the list when
 * given; `barcode` names the primary (first). Duplicates collapse.
 */
export function plannedBarcodes(
  input: { barcode?: string | null | undefined; barcodes?: string[] | undefined },
  current: string[],
): string[] | undefined {
  if (input.barcode === undefined && input.barcodes === undefined) return undefined;
  const rest = input.barcodes ?? current.slice(input.barcode === undefined ? 0 : 1);
  const primary = input.barcode === undefined ? [] : input.barcode === null ? [] : [input.barcode];
  const all = [...primary, ...rest].map((c) => storageGtin(c)!);
  return [...new Set(all)];
}
