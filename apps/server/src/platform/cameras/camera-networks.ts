import { BlockList, isIP } from "node:net";
import { CameraError } from "./errors.ts";

/**
 * Where cameras may be reached, so that a camera's address cannot turn the
 * server into a probe of itself or of what only it can reach. Some addresses
 * are never a camera's, whatever the configuration: link-local (169.254.0.0/16,
 * fe80::/10, where cloud metadata services answer), multicast, broadcast and
 * unspecified ("this host"). Loopback (this server itself) is allowed only by a
 * configured network that lies inside it (DEV_TOOLS adds 127.0.0.0/8 and ::1 for
 * the camera simulator), so a wide 0.0.0.0/0 never opens it. Everything else
 * must be in the configured networks (CAMERA_NETWORKS). An IPv4-mapped IPv6
 * address (::ffff:127.0.0.1) is judged as the IPv4 address it carries.
 */

type Family = "ipv4" | "ipv6";
export type Cidr = { address: string; prefix: number; family: Family };
export type RefusalReason =
  | "link-local"
  | "multicast"
  | "unspecified"
  | "broadcast"
  | "loopback"
  | "outside"
  | "not an address";
export type AddressVerdict = { allowed: true } | { allowed: false; reason: RefusalReason };

const familyOf = (ip: string): Family | null => (isIP(ip) === 4 ? "ipv4" : isIP(ip) === 6 ? "ipv6" : null);

/**
 * An IP address as sockets see it: IPv6 in its canonical form, and the IPv4
 * address an IPv4-mapped (::ffff:a.b.c.d) or old IPv4-compatible (::a.b.c.d)
 * one carries. Null when it is no address (or has a zone, as fe80::1%eth0).
 */
export function canonicalIp(ip: string): string | null {
  const family = familyOf(ip);
  if (family === "ipv4") return ip;
  if (family !== "ipv6") return null;
  let canonical: string;
  try {
    canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const carried = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!carried) return canonical;
  const [hi, lo] = [Number.parseInt(carried[1]!, 16), Number.parseInt(carried[2]!, 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** "10.0.0.0/8", "fc00::/7", or one address ("10.1.2.3" is 10.1.2.3/32); null when it is none of these. */
export function parseCidr(text: string): Cidr | null {
  const [rawAddress = "", bits, extra] = text.trim().split("/");
  const address = canonicalIp(rawAddress);
  if (extra !== undefined || !address) return null;
  const family = familyOf(address)!;
  const max = family === "ipv4" ? 32 : 128;
  const given = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : Number.NaN;
  // A mapped network (::ffff:10.0.0.0/104) is the IPv4 network it carries.
  const prefix = familyOf(rawAddress) === "ipv6" && family === "ipv4" ? given - 96 : given;
  if (!(prefix >= 0 && prefix <= max)) return null;
  return { address, prefix, family };
}

const listOf = (cidrs: string[]) => {
  const list = new BlockList();
  for (const cidr of cidrs.map((c) => parseCidr(c)!)) list.addSubnet(cidr.address, cidr.prefix, cidr.family);
  return list;
};

// Per family: Node's BlockList lets an IPv6 rule (::/0) match IPv4 addresses too.
const NEVER: { reason: RefusalReason; ipv4: BlockList; ipv6: BlockList }[] = [
  { reason: "link-local", ipv4: listOf(["169.254.0.0/16"]), ipv6: listOf(["fe80::/10"]) },
  { reason: "multicast", ipv4: listOf(["224.0.0.0/4"]), ipv6: listOf(["ff00::/8"]) },
  { reason: "unspecified", ipv4: listOf(["0.0.0.0/8"]), ipv6: listOf(["::/128"]) },
  { reason: "broadcast", ipv4: listOf(["255.255.255.255/32"]), ipv6: listOf([]) },
];
const LOOPBACK = { ipv4: listOf(["127.0.0.0/8"]), ipv6: listOf(["::1/128"]) };

const insideLoopback = (c: Cidr) =>
  LOOPBACK[c.family].check(c.address, c.family) && c.prefix >= (c.family === "ipv4" ? 8 : 128);

export class CameraNetworks {
  /** The networks as configured, for messages and logs. */
  readonly cidrs: readonly string[];
  private readonly inside = { ipv4: new BlockList(), ipv6: new BlockList() };
  private readonly loopback = { ipv4: new BlockList(), ipv6: new BlockList() };

  constructor(cidrs: readonly string[]) {
    this.cidrs = cidrs;
    for (const text of cidrs) {
      const cidr = parseCidr(text);
      if (!cidr) throw new Error(`Not a network: ${text}`);
      const lists = insideLoopback(cidr) ? this.loopback : this.inside;
      lists[cidr.family].addSubnet(cidr.address, cidr.prefix, cidr.family);
    }
  }

  /** Whether a camera may be reached at this IP address, and if not, why not. */
  judge(ip: string): AddressVerdict {
    const address = canonicalIp(ip);
    const family = address ? familyOf(address) : null;
    if (!address || !family) return { allowed: false, reason: "not an address" };
    const never = NEVER.find((n) => n[family].check(address, family));
    if (never) return { allowed: false, reason: never.reason };
    if (LOOPBACK[family].check(address, family)) {
      return this.loopback[family].check(address, family) ? { allowed: true } : { allowed: false, reason: "loopback" };
    }
    return this.inside[family].check(address, family) ? { allowed: true } : { allowed: false, reason: "outside" };
  }
}

/**
 * The IP address a host field names by itself, without asking DNS: an IP
 * address, a number a resolver reads as one (127.1, 2130706433, as a
 * browser's URL parser does), or localhost (RFC 6761: always this host).
 * Null for a host name, which is checked when it is resolved.
 */
export function literalAddress(host: string): string | null {
  const bare = host
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
  if (isIP(bare)) return bare;
  if (/^localhost$|\.localhost$/i.test(bare)) return "127.0.0.1";
  try {
    const parsed = new URL(`http://${bare}/`).hostname;
    return isIP(parsed) === 4 ? parsed : null;
  } catch {
    return null;
  }
}

const WHY: Record<RefusalReason, string> = {
  "link-local": "a link-local address, which is never a camera's",
  multicast: "a multicast address, which is never a camera's",
  unspecified: "an unspecified address, which is never a camera's",
  broadcast: "the broadcast address, which is never a camera's",
  loopback:
    "this server itself (loopback), where cameras may be only with DEV_TOOLS=true or a loopback CAMERA_NETWORKS",
  outside: "outside the networks cameras may be on (CAMERA_NETWORKS)",
  "not an address": "not an address cameras may be reached at",
};

/** Why a host that names its address may not be a camera's, as a form shows it beside the field. */
export const refusalText = (host: string, reason: RefusalReason) => `${host.trim()} is ${WHY[reason]}`;

/**
 * The address step refused: a host given as an address says why; a host
 * name does not say what it resolved to, only that it leads somewhere
 * cameras may not be.
 */
export function addressNotAllowed(host: string, reason: RefusalReason, named: boolean): CameraError {
  const message = named
    ? `The host name "${host}" leads to an address cameras may not be reached at (CAMERA_NETWORKS). Use the camera's own address.`
    : `${refusalText(host, reason)}. Use the camera's own address.`;
  return new CameraError("address_not_allowed", "address", message);
}
