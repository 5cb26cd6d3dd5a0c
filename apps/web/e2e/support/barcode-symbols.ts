/**
 * Retail barcodes as rows of modules ('1' a bar, '0' a space), so the test
 * support can draw them without an outside renderer: EAN-13 (and UPC-A, an
 * EAN-13 with a leading 0), EAN-8 and Code 128.
 */
import { gtinCheckDigit } from "@glide/contracts";

export type Symbology = "ean13" | "ean8" | "upca" | "code128";

export interface BarcodeSymbol {
  symbology: Symbology;
  /** What a reader returns: the full code with its check digit (Code 128: the text). */
  text: string;
  /** One character per module, '1' dark. */
  modules: string;
  /** The blank margins the symbology asks for on each side, in modules. */
  quietLeft: number;
  quietRight: number;
}

/** EAN/UPC set A ("L") digit codes; set C ("R") is their complement, set B ("G") R reversed. */
const L_CODES = [
  "0001101",
  "0011001",
  "0010011",
  "0111101",
  "0100011",
  "0110001",
  "0101111",
  "0111011",
  "0110111",
  "0001011",
];
const R_CODES = L_CODES.map((code) => [...code].map((bit) => (bit === "1" ? "0" : "1")).join(""));
const G_CODES = R_CODES.map((code) => [...code].reverse().join(""));
/** EAN-13: the first digit is not drawn but chosen by which of the next six use set A (L) or B (G). */
const FIRST_DIGIT_PARITY = [
  "LLLLLL",
  "LLGLGG",
  "LLGGLG",
  "LLGGGL",
  "LGLLGG",
  "LGGLLG",
  "LGGGLL",
  "LGLGLG",
  "LGLGGL",
  "LGGLGL",
];
const EDGE_GUARD = "101";
const CENTRE_GUARD = "01010";

/** The code with its check digit: `digits` is either the body (one short) or the full code, which must check. */
function withCheckDigit(digits: string, length: number, name: string): string {
  if (!/^\d+$/.test(digits)) throw new Error(`${name}: digits only, got "${digits}"`);
  if (digits.length === length - 1) return `${digits}${gtinCheckDigit(digits)}`;
  if (digits.length !== length) throw new Error(`${name}: ${length - 1} or ${length} digits, got ${digits.length}`);
  const check = gtinCheckDigit(digits.slice(0, -1));
  if (Number(digits.at(-1)) !== check) throw new Error(`${name} ${digits}: the check digit should be ${check}`);
  return digits;
}

const digitAt = (code: string, index: number) => Number(code[index]);

/** EAN-13 from 12 digits (check digit added) or 13 (check digit verified). */
export function encodeEan13(digits: string): BarcodeSymbol {
  const text = withCheckDigit(digits, 13, "EAN-13");
  const parity = FIRST_DIGIT_PARITY[digitAt(text, 0)]!;
  let left = "";
  for (let i = 1; i <= 6; i++) left += (parity[i - 1] === "L" ? L_CODES : G_CODES)[digitAt(text, i)];
  let right = "";
  for (let i = 7; i <= 12; i++) right += R_CODES[digitAt(text, i)];
  return {
    symbology: "ean13",
    text,
    modules: `${EDGE_GUARD}${left}${CENTRE_GUARD}${right}${EDGE_GUARD}`,
    quietLeft: 11,
    quietRight: 7,
  };
}

/** UPC-A from 11 or 12 digits: the same bars as the EAN-13 with a leading 0. */
export function encodeUpcA(digits: string): BarcodeSymbol {
  const upc = withCheckDigit(digits, 12, "UPC-A");
  return { ...encodeEan13(`0${upc}`), symbology: "upca", text: upc, quietLeft: 9, quietRight: 9 };
}

/** EAN-8 from 7 digits (check digit added) or 8 (verified). */
export function encodeEan8(digits: string): BarcodeSymbol {
  const text = withCheckDigit(digits, 8, "EAN-8");
  let left = "";
  for (let i = 0; i < 4; i++) left += L_CODES[digitAt(text, i)];
  let right = "";
  for (let i = 4; i < 8; i++) right += R_CODES[digitAt(text, i)];
  return {
    symbology: "ean8",
    text,
    modules: `${EDGE_GUARD}${left}${CENTRE_GUARD}${right}${EDGE_GUARD}`,
    quietLeft: 7,
    quietRight: 7,
  };
}

/**
 * Code 128 symbol values 0–105 as bar, space, bar, space, bar, space widths
 * (11 modules each); 106 is the stop, with its final 2-module bar.
 */
export const CODE128_WIDTHS = [
  "212222",
  "222122",
  "222221",
  "121223",
  "121322",
  "131222",
  "122213",
  "122312",
  "132212",
  "221213",
  "221312",
  "231212",
  "112232",
  "122132",
  "122231",
  "113222",
  "123122",
  "123221",
  "223211",
  "221132",
  "221231",
  "213212",
  "223112",
  "312131",
  "311222",
  "321122",
  "321221",
  "312212",
  "322112",
  "322211",
  "212123",
  "212321",
  "232121",
  "111323",
  "131123",
  "131321",
  "112313",
  "132113",
  "132311",
  "211313",
  "231113",
  "231311",
  "112133",
  "112331",
  "132131",
  "113123",
  "113321",
  "133121",
  "313121",
  "211331",
  "231131",
  "213113",
  "213311",
  "213131",
  "311123",
  "311321",
  "331121",
  "312113",
  "312311",
  "332111",
  "314111",
  "221411",
  "431111",
  "111224",
  "111422",
  "121124",
  "121421",
  "141122",
  "141221",
  "112214",
  "112412",
  "122114",
  "122411",
  "142112",
  "142211",
  "241211",
  "221114",
  "413111",
  "241112",
  "134111",
  "111242",
  "121142",
  "121241",
  "114212",
  "124112",
  "124211",
  "411212",
  "421112",
  "421211",
  "212141",
  "214121",
  "412121",
  "111143",
  "111341",
  "131141",
  "114113",
  "114311",
  "411113",
  "411311",
  "113141",
  "114131",
  "311141",
  "411131",
  "211412",
  "211214",
  "211232",
  "2331112",
];
const CODE128_START_B = 104;
const CODE128_START_C = 105;
const CODE128_STOP = 106;

function widthsToModules(widths: string): string {
  return [...widths].map((w, i) => (i % 2 === 0 ? "1" : "0").repeat(Number(w))).join("");
}

/**
 * Code 128 of printable ASCII: code set C (two digits a symbol) when the
 * text is an even number of digits, else code set B. The symbol check
 * character is added; readers do not return it.
 */
export function encodeCode128(text: string): BarcodeSymbol {
  if (!/^[\x20-\x7e]+$/.test(text)) throw new Error(`Code 128: printable ASCII only, got "${text}"`);
  const setC = /^(?:\d\d)+$/.test(text);
  const values = setC
    ? [CODE128_START_C, ...(text.match(/\d\d/g) ?? []).map(Number)]
    : [CODE128_START_B, ...[...text].map((c) => c.charCodeAt(0) - 32)];
  const check = values.reduce((sum, value, position) => sum + value * Math.max(position, 1), 0) % 103;
  const modules = [...values, check, CODE128_STOP].map((value) => widthsToModules(CODE128_WIDTHS[value]!)).join("");
  return { symbology: "code128", text, modules, quietLeft: 10, quietRight: 10 };
}

export function encode(symbology: Symbology, text: string): BarcodeSymbol {
  switch (symbology) {
    case "ean13":
      return encodeEan13(text);
    case "ean8":
      return encodeEan8(text);
    case "upca":
      return encodeUpcA(text);
    case "code128":
      return encodeCode128(text);
  }
}
