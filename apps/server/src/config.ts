import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseCidr } from "./platform/cameras/camera-networks.ts";

/**
 * The only reader of process.env. Everything else receives a typed Config.
 * Defaults make `npm start` work with nothing set.
 */
const bool = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

/** "kvitto@example.se" or "Name <kvitto@example.se>": one sender, nothing an SMTP header could be split on. */
function isMailbox(value: string): boolean {
  const address = /^[^<>\r\n]*<([^<>\s]+)>$/.exec(value.trim())?.[1] ?? value.trim();
  return z.email().safeParse(address).success;
}

/** Where a store's cameras are unless CAMERA_NETWORKS says otherwise: the private ranges (RFC 1918, RFC 4193). */
const PRIVATE_NETWORKS = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"];
/** This server itself, where the demo's camera simulator runs: a camera network only with DEV_TOOLS. */
const LOOPBACK_NETWORKS = ["127.0.0.0/8", "::1/128"];

/** "10.0.0.0/8,fc00::/7": comma-separated CIDRs (a lone address is a network of one); unset or empty: none given. */
const cidrList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value.trim() === "") return undefined;
    const networks: string[] = [];
    for (const part of value.split(",")) {
      const cidr = parseCidr(part);
      if (!cidr) {
        ctx.addIssue({
          code: "custom",
          message: `"${part.trim()}" is not a network; give CIDRs separated by commas, e.g. 10.0.0.0/8,fc00::/7`,
        });
        return z.NEVER;
      }
      networks.push(`${cidr.address}/${cidr.prefix}`);
    }
    return networks;
  });

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  REDIS_URL: z.string().optional(),
  SECRET_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  DEV_TOOLS: bool,
  DEMO_DATA: bool,
  ADMIN_EMAIL: z.email().default("admin@example.com"),
  ADMIN_PASSWORD: z.string().min(12, "must be at least 12 characters").optional(),
  TRUST_PROXY: z.string().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(120_000).optional(),
  WEB_DIST: z.string().optional(),
  BANKID_URL: z.url().optional(),
  BANKID_PFX: z.string().optional(),
  BANKID_PASSPHRASE: z.string().default(""),
  BANKID_CA: z.string().optional(),
  ENTRY_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).max(3600).default(600),
  DOOR_WEBHOOK_URL: z.url().optional(),
  DOOR_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  API_DOCS: z.enum(["true", "false", "1", "0"]).optional(),
  BANKID_APP_URL: z.url().optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_[0-9A-Za-z]+$/, "must be a Stripe secret key (sk_test_… or sk_live_…)")
    .optional(),
  CARD_PAGE_URL: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
  CAMERA_NETWORKS: cidrList,
  DEMO_CAMERA_SYSTEM: z
    .url({ protocol: /^http$/, error: "must be http://user:password@host:port of an ONVIF camera system" })
    .optional(),
  STRIPE_API_BASE: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  MAIL_FROM: z
    .string()
    .refine(isMailbox, "must be an e-mail address, or a name and one: Glide <kvitto@example.se>")
    .default("Glide <kvitto@glide.local>"),
});

export type Config = {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  publicUrl: string;
  /** Cookies get Secure unless the public address is plain http on loopback. */
  secureCookies: boolean;
  dataDir: string;
  /** PostgreSQL when set; otherwise the embedded PGlite in dataDir/db. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /**
   * After SIGTERM, how long the instance keeps serving while /api/ready
   * answers 503, so a load balancer's checks take it out before it stops
   * taking connections: 5 s in production, 0 elsewhere.
   */
  shutdownDrainMs: number;
  redisUrl: string | undefined;
  secretKey: string;
  devTools: boolean;
  demoData: boolean;
  adminEmail: string;
  adminPassword: string | undefined;
  trustProxy: boolean | string;
  logLevel: string;
  webDist: string;
  /** BankID RP API; null when not configured (sign-in then answers 503). */
  bankid: { url: string; pfx: Buffer; passphrase: string; ca: Buffer } | null;
  /** How long an entry QR code opens the door. */
  entryTokenTtlSeconds: number;
  /** Where door openings are sent; null means the simulated door, which only logs. */
  doorWebhook: { url: string; secret: string } | null;
  /** `/metrics` answers only with `Authorization: Bearer <token>`; null means it is not served at all. */
  metricsToken: string | null;
  /** Serve `/api/docs` and `/api/openapi.json` (default on, off in production). */
  apiDocs: boolean;
  /** Where the shopper's "open the BankID app" goes: BankID's universal link, or the simulator's app page. */
  bankidAppUrl: string;
  /** Stripe's API for saved cards and payment; apiBase null means Stripe's own. null when no key is set. */
  stripe: { secretKey: string; apiBase: string | null } | null;
  /** The hosted page where a shopper types a card; it sends them back with ?payment_method=pm_…. null: none. */
  cardPageUrl: string | null;
  /**
   * The networks cameras may be reached in (CAMERA_NETWORKS, else the private ranges), loopback added with
   * DEV_TOOLS. Link-local, multicast and unspecified addresses are refused whatever this says.
   */
  cameraNetworks: readonly string[];
  /** With DEMO_DATA: the ONVIF system (npm start: the camera simulator) the demo store's cameras are on. */
  demoCameraSystem: { host: string; port: number; username: string; password: string } | null;
  /** The SMTP server for receipt e-mails (may hold its user and password); null: no mail is sent. */
  smtpUrl: string | null;
  /** The sender of receipt e-mails. */
  mailFrom: string;
};

export class ConfigError extends Error {}

const repoRoot = path.resolve(import.meta.dirname, "../../..");

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  const url = new URL(publicUrl);
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: publicUrl.replace(/\/$/, ""),
    secureCookies: !(url.protocol === "http:" && loopback),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS ?? (e.NODE_ENV === "production" ? 5_000 : 0),
    redisUrl: e.REDIS_URL,
    secretKey: e.SECRET_KEY ?? secretFromDataDir(dataDir, e.NODE_ENV),
    devTools: e.DEV_TOOLS,
    demoData: e.DEMO_DATA,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? path.join(repoRoot, "apps/web/dist")),
    bankid: bankidConfig(e),
    entryTokenTtlSeconds: e.ENTRY_TOKEN_TTL_SECONDS,
    doorWebhook: doorWebhookConfig(e),
    metricsToken: e.METRICS_TOKEN ?? null,
    apiDocs: e.API_DOCS === undefined ? e.NODE_ENV !== "production" : e.API_DOCS === "true" || e.API_DOCS === "1",
    bankidAppUrl: e.BANKID_APP_URL ?? "https://app.bankid.com/",
    stripe: stripeConfig(e),
    cardPageUrl: e.CARD_PAGE_URL ?? null,
    cameraNetworks: [...(e.CAMERA_NETWORKS ?? PRIVATE_NETWORKS), ...(e.DEV_TOOLS ? LOOPBACK_NETWORKS : [])],
    demoCameraSystem: e.DEMO_CAMERA_SYSTEM ? demoCamera(new URL(e.DEMO_CAMERA_SYSTEM)) : null,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
  };
}

/** Production must bring its own key; elsewhere one is made once and kept in the data folder. */
function secretFromDataDir(dataDir: string, env: string): string {
  if (env === "production") throw new ConfigError("Invalid configuration:\n  SECRET_KEY: required in production");
  const file = path.join(dataDir, "secret.key");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const key = randomBytes(32).toString("base64url");
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "wx" });
    return key;
  }
}

function bankidConfig(e: z.output<typeof envSchema>): Config["bankid"] {
  if (!e.BANKID_URL) return null;
  if (!e.BANKID_PFX || !e.BANKID_CA) {
    throw new ConfigError("Invalid configuration:\n  BANKID_PFX and BANKID_CA: required with BANKID_URL");
  }
  const read = (name: string, file: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new ConfigError(`Invalid configuration:\n  ${name}: cannot read ${file} (${(err as Error).message})`);
    }
  };
  return {
    url: e.BANKID_URL,
    pfx: read("BANKID_PFX", e.BANKID_PFX),
    passphrase: e.BANKID_PASSPHRASE,
    ca: read("BANKID_CA", e.BANKID_CA),
  };
}

function doorWebhookConfig(e: z.output<typeof envSchema>): Config["doorWebhook"] {
  if (!e.DOOR_WEBHOOK_URL) return null;
  if (!e.DOOR_WEBHOOK_SECRET)
    throw new ConfigError("Invalid configuration:\n  DOOR_WEBHOOK_SECRET: required with DOOR_WEBHOOK_URL");
  return { url: e.DOOR_WEBHOOK_URL, secret: e.DOOR_WEBHOOK_SECRET };
}

function stripeConfig(e: z.output<typeof envSchema>): Config["stripe"] {
  const fail = (line: string) => new ConfigError(`Invalid configuration:\n  ${line}`);
  if (!e.STRIPE_SECRET_KEY) {
    if (e.STRIPE_API_BASE) throw fail("STRIPE_SECRET_KEY: required with STRIPE_API_BASE");
    return null;
  }
  if (!e.STRIPE_API_BASE) return { secretKey: e.STRIPE_SECRET_KEY, apiBase: null };
  const base = new URL(e.STRIPE_API_BASE);
  // The package puts /v1/… after the host itself, so a path here would be lost.
  if (base.pathname !== "/" || base.search || base.hash || base.username || base.password)
    throw fail("STRIPE_API_BASE: scheme, host and port only (e.g. http://127.0.0.1:8445)");
  // A live key is a credential for real money: never sent unencrypted.
  if (/^(sk|rk)_live_/.test(e.STRIPE_SECRET_KEY) && base.protocol !== "https:")
    throw fail("STRIPE_API_BASE: a live key is sent over https only");
  return { secretKey: e.STRIPE_SECRET_KEY, apiBase: base.origin };
}

function parseTrustProxy(v: string | undefined): boolean | string {
  if (v === undefined || v === "" || v === "false") return false;
  if (v === "true") return true;
  return v;
}

function demoCamera(url: URL): NonNullable<Config["demoCameraSystem"]> {
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: Number(url.port || 80),
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
}
