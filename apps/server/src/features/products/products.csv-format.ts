import { PRODUCT_CSV_COLUMNS } from "@glide/contracts";
import { parse } from "csv-parse/sync";
import { unprocessable } from "../../platform/errors.ts";

type Column = (typeof PRODUCT_CSV_COLUMNS)[number];

/**
 * Spreadsheet programs run a cell that starts with = + - @ (or a tab or
 * carriage return before one) as a formula, so a product named
 * `=HYPERLINK(...)` would run on the machine of whoever opens the export
 * (OWASP: CSV injection). Such text cells are written with a leading single
 * quote, which spreadsheets show as text. Text that already starts with
 * quotes before such a character gets one more, so reading a cell back
 * always removes exactly the quote that writing added.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const PROTECTED = /^'+[=+\-@\t\r]/;

/** A value as a CSV cell: numbers and booleans as they are, text made safe to open. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") return String(value);
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** The text a cell written by csvCell stood for. */
export function cellText(cell: string): string {
  return PROTECTED.test(cell) ? cell.slice(1) : cell;
}

function toNumber(v: string): number {
  const t = v.trim();
  return Number(/^-?\d+,\d+$/.test(t) ? t.replace(",", ".") : t);
}

const BOOLEAN: Record<string, boolean> = {
  true: true,
  false: false,
  "1": true,
  "0": false,
  yes: true,
  no: false,
  ja: true,
  nej: false,
};

/** One CSV record to API fields: empty cells clear optional fields; absent columns are left alone. */
export function toInput(record: Record<string, string>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [column, raw] of Object.entries(record)) {
    const v = raw.trim();
    switch (column as Column) {
      case "price":
      case "vat_rate":
        input[column] = v === "" ? undefined : toNumber(v);
        break;
      case "weight":
      case "length":
      case "width":
      case "height":
      case "age_limit":
      case "net_content":
        input[column] = v === "" ? null : toNumber(v);
        break;
      case "net_content_unit":
      case "pant_code":
        input[column] = v === "" ? null : v;
        break;
      case "is_active":
        input[column] = v === "" ? undefined : (BOOLEAN[v.toLowerCase()] ?? v);
        break;
      case "barcodes":
        input[column] = v === "" ? [] : v.split("|").map((b) => b.trim());
        break;
      case "barcode":
        input[column] = v === "" ? null : v;
        break;
      case "vat_category":
        input[column] = v === "" ? undefined : v;
        break;
      default:
        input[column] = cellText(v);
    }
  }
  return input;
}

/**
 * A CSV file's records by its header row: commas, or the semicolons (and
 * decimal commas) of a spreadsheet set to Swedish. 422 for a file that is not
 * CSV or has no rows under its header. The imports check the columns.
 */
export function csvRecords(csv: string): Record<string, string>[] {
  const firstLine = csv.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  const delimiter = firstLine.includes(";") && !firstLine.includes(",") ? ";" : ",";
  let records: Record<string, string>[];
  try {
    records = parse(csv, { bom: true, columns: true, delimiter, skip_empty_lines: true, trim: false });
  } catch (err) {
    throw unprocessable(`file: not valid CSV (${(err as Error).message})`, "invalid_csv");
  }
  if (records.length === 0) throw unprocessable("file: no rows under the header", "invalid_csv");
  return records;
}

export function parseCsv(csv: string): Record<string, string>[] {
  const records = csvRecords(csv);
  const header = Object.keys(records[0]!);
  const unknown = header.filter((h) => !(PRODUCT_CSV_COLUMNS as readonly string[]).includes(h));
  if (unknown.length) {
    throw unprocessable(
      `file: unknown column ${unknown.join(", ")}; columns are ${PRODUCT_CSV_COLUMNS.join(", ")}`,
      "invalid_csv",
    );
  }
  for (const required of ["sku", "name", "price"]) {
    if (!header.includes(required)) throw unprocessable(`file: the header needs a ${required} column`, "invalid_csv");
  }
  return records;
}

export const MISSING_SKU =
  "sku: Missing. Give the row a SKU: an existing product's SKU updates that product, a new one adds a product";

/** One message per column, the first rule it breaks; an empty SKU breaks several but has one fix. */
export function rowErrors(issues: readonly { path: PropertyKey[]; message: string }[], sku: string | null): string[] {
  const byColumn = new Map<string, string>();
  for (const issue of issues) {
    const column = issue.path.map(String).join(".");
    if (!byColumn.has(column)) byColumn.set(column, `${column}: ${issue.message}`);
  }
  if (sku === null && byColumn.has("sku")) byColumn.set("sku", MISSING_SKU);
  return [...byColumn.values()];
}
