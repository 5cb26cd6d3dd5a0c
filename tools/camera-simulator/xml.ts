/**
 * Just enough XML reading for SOAP requests: elements are found by their
 * local name whatever prefix the client chose. Requests are small and come
 * from ONVIF clients, so a tolerant scan is enough; answers are written as
 * text with every value escaped.
 */

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

export function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? whole;
  });
}

export function escapeXml(value: string | number | boolean): string {
  return String(value)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}

const openTag = (local: string) => new RegExp(`<(?:[\\w.-]+:)?${local}(\\s[^>]*?)?(/?)>`, "s");

/** The inner text of the first element with this local name, or null. */
export function elementText(xml: string, local: string): string | null {
  const open = openTag(local).exec(xml);
  if (!open) return null;
  if (open[2] === "/") return "";
  const start = open.index + open[0].length;
  const close = new RegExp(`</(?:[\\w.-]+:)?${local}\\s*>`).exec(xml.slice(start));
  if (!close) return null;
  return xml.slice(start, start + close.index);
}

/** The attributes of the first element with this local name (prefixes dropped), or null. */
export function elementAttributes(xml: string, local: string): Record<string, string> | null {
  const open = openTag(local).exec(xml);
  if (!open) return null;
  const attributes: Record<string, string> = {};
  for (const m of (open[1] ?? "").matchAll(/([\w.:-]+)\s*=\s*("([^"]*)"|'([^']*)')/g)) {
    const name = m[1]!.includes(":") ? m[1]!.slice(m[1]!.indexOf(":") + 1) : m[1]!;
    attributes[name] = unescapeXml(m[3] ?? m[4] ?? "");
  }
  return attributes;
}

/** The text of an element with no children, trimmed and unescaped, or null. */
export function textOf(xml: string, local: string): string | null {
  const inner = elementText(xml, local);
  return inner === null ? null : unescapeXml(inner.trim());
}

/** The local name of the first element inside the SOAP Body: the operation asked for. */
export function soapOperation(xml: string): string | null {
  const body = elementText(xml, "Body");
  if (body === null) return null;
  return /<(?:[\w.-]+:)?([\w.-]+)[\s/>]/.exec(body)?.[1] ?? null;
}
