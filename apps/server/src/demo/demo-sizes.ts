import type { NetContentUnit } from "@glide/contracts";

/** How a size is written ("1,5 l", "33 cl", "25 p" tea bags, "6-pack"): the unit it is in, and how many of it. */
const SIZE_UNITS: Record<string, [NetContentUnit, number]> = {
  g: ["g", 1],
  kg: ["kg", 1],
  ml: ["ml", 1],
  cl: ["ml", 10],
  dl: ["ml", 100],
  l: ["l", 1],
  st: ["st", 1],
  p: ["st", 1],
  pack: ["st", 1],
};

/** A size as net content: thousandths of its unit, as the products table keeps it. */
export function netContentOfSize(size: string): { netContentMilli: number; netContentUnit: NetContentUnit } {
  const m = /^(\d+(?:,\d+)?)[ -](\w+)$/.exec(size);
  const unit = m && SIZE_UNITS[m[2]!];
  if (!m || !unit) throw new Error(`demo size "${size}" is not a net content`);
  return { netContentMilli: Math.round(Number(m[1]!.replace(",", ".")) * unit[1] * 1000), netContentUnit: unit[0] };
}
