/**
 * bench/results.md as sections, each found by its heading, so a partial run
 * (`BENCH_ONLY=cart,fanout`) replaces only the sections it measured and
 * keeps every other figure as the earlier run left it.
 */

export type SectionName =
  | "stores"
  | "products"
  | "cart"
  | "fanout"
  | "sockets"
  | "bytes"
  | "pricing"
  | "checkout"
  | "burst"
  | "face"
  | "analytics"
  | "decoder"
  | "bundle";

/** Every section in the order a full run writes them, with how its heading starts. */
export const SECTIONS: readonly { name: SectionName; heading: string }[] = [
  { name: "stores", heading: "## GET /api/v1/stores/" },
  { name: "products", heading: "## Products:" },
  { name: "cart", heading: "## Cart:" },
  { name: "fanout", heading: "## Live cart fan-out" },
  { name: "sockets", heading: "## Live cart sockets" },
  { name: "bytes", heading: "## Scan bytes" },
  { name: "pricing", heading: "## Pricing a cart" },
  { name: "checkout", heading: "## Checkout:" },
  { name: "burst", heading: "## Checkout burst" },
  { name: "face", heading: "## Face check" },
  { name: "analytics", heading: "## Analytics" },
  { name: "decoder", heading: "## Decoder" },
  { name: "bundle", heading: "## Page weight" },
];

/** The sections BENCH_ONLY names (all of them when it is unset or empty); an unknown name is an error. */
export function chosenSections(only: string | undefined): SectionName[] {
  const names = (only ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) return SECTIONS.map((s) => s.name);
  const known = new Set<string>(SECTIONS.map((s) => s.name));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length) {
    throw new Error(`BENCH_ONLY: unknown section ${unknown.join(", ")}; the sections are ${[...known].join(", ")}`);
  }
  return SECTIONS.map((s) => s.name).filter((name) => names.includes(name));
}

type Part = { name: SectionName | null; text: string };

/** The text before the first section, and each section ("## " heading to the next) with its name if known. */
export function splitResults(markdown: string): { header: string; parts: Part[] } {
  const lines = markdown.split("\n");
  const starts = lines.flatMap((line, i) => (line.startsWith("## ") ? [i] : []));
  const header = lines.slice(0, starts[0] ?? lines.length).join("\n");
  const parts = starts.map((start, k) => {
    const text = lines.slice(start, starts[k + 1] ?? lines.length).join("\n");
    const name = SECTIONS.find((s) => lines[start]!.startsWith(s.heading))?.name ?? null;
    return { name, text };
  });
  return { header, parts };
}

export const FULL_RUN_SENTENCE = "All figures below come from this one run.";
const PARTIAL_SENTENCE =
  "All figures below come from this one run, except the sections that say at their top that a later run measured them on its own (`BENCH_ONLY`).";

/**
 * The earlier results with the sections of this run in their place; a
 * section the earlier results lack goes where a full run would put it.
 * Other sections and the header stay, the header saying that some
 * sections are newer.
 */
export function mergeResults(earlier: string, fresh: Map<SectionName, string>): string {
  const { header, parts } = splitResults(earlier);
  const order = (name: SectionName | null) => (name ? SECTIONS.findIndex((s) => s.name === name) : -1);
  const out: Part[] = parts.map((p) => (p.name && fresh.has(p.name) ? { name: p.name, text: fresh.get(p.name)! } : p));
  for (const [name, text] of fresh) {
    if (out.some((p) => p.name === name)) continue;
    const before = out.findIndex((p) => p.name !== null && order(p.name) > order(name));
    out.splice(before === -1 ? out.length : before, 0, { name, text });
  }
  const body = out.map((p) => p.text.replace(/\n*$/, "\n")).join("\n");
  return `${header.replace(FULL_RUN_SENTENCE, PARTIAL_SENTENCE).replace(/\n*$/, "\n\n")}${body}`;
}

/** A section measured on its own: its heading, then when and how, then the rest of it. */
export function markPartial(section: string, note: string): string {
  const [heading, ...rest] = section.split("\n");
  return [heading, "", `_${note}_`, ...rest].join("\n");
}
