import { createHash, randomBytes } from "node:crypto";
import type { AdminMe, AdminRole } from "@glide/contracts";
import { ADMIN_PASSWORD_MIN_LENGTH } from "@glide/contracts";
import { and, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { preparedOnce } from "../../db/prepared.ts";
import { adminSessions, adminUserStores, adminUsers, stores } from "../../db/schema/index.ts";
import { conflict, notFound, tooManyRequests, unauthorized, unprocessable } from "../../platform/errors.ts";
import type { ExpiryJob } from "../../platform/housekeeping.ts";
import { burnPasswordCheck, hashPassword, verifyPassword } from "../../platform/passwords.ts";
import { releaseHit, reserveHits, resetCount } from "../../platform/rate-limit.ts";

export type AdminActor = { id: string; email: string; role: AdminRole; storeIds: string[] };

export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, so reads stay reads. */
const TOUCH_EVERY_MS = 60 * 1000;

/** Sessions past either limit; resolveSession refuses them already, this only keeps the table small. */
export const adminSessionExpiry: ExpiryJob = {
  table: "admin_sessions",
  deleteExpired: sql`delete from admin_sessions
    where last_seen_at < now() - ${sql.raw(`interval '${SESSION_IDLE_MS / 1000} seconds'`)}
      or created_at < now() - ${sql.raw(`interval '${SESSION_ABSOLUTE_MS / 1000} seconds'`)}`,
};

export const LOGIN_LIMITS = {
  /** Failed attempts on one account before it is locked for the window. */
  perAccount: 5,
  /** Failed attempts from one address, whatever the account. */
  perAddress: 20,
  windowMs: 15 * 60 * 1000,
};

const INVALID_LOGIN = "Invalid email or password";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const normaliseEmail = (email: string) => email.trim().toLowerCase();

export function toMe(actor: AdminActor): AdminMe {
  return { id: actor.id, email: actor.email, role: actor.role, store_ids: actor.storeIds };
}

async function loadActor(db: Db, adminUserId: string): Promise<AdminActor | null> {
  const [user] = await db.select().from(adminUsers).where(eq(adminUsers.id, adminUserId));
  if (!user) return null;
  const rows = await db
    .select({ storeId: adminUserStores.storeId })
    .from(adminUserStores)
    .where(eq(adminUserStores.adminUserId, user.id));
  return { id: user.id, email: user.email, role: user.role, storeIds: rows.map((r) => r.storeId) };
}

export async function login(opts: {
  db: Db;
  email: string;
  password: string;
  ip: string;
  userAgent?: string | undefined;
}): Promise<{ token: string; actor: AdminActor }> {
  const { db } = opts;
  const email = normaliseEmail(opts.email);
  const accountKey = `admin-login:account:${sha256(email)}`;
  const addressKey = `admin-login:address:${opts.ip}`;
  // The attempt is counted before the password is checked, in one statement, so parallel guesses cannot all
  // pass a check made before any of them was counted.
  const hits = await reserveHits(db, [accountKey, addressKey], LOGIN_LIMITS.windowMs);
  const account = hits.get(accountKey)!;
  const address = hits.get(addressKey)!;
  const blocked = [
    account.count > LOGIN_LIMITS.perAccount ? account : null,
    address.count > LOGIN_LIMITS.perAddress ? address : null,
  ].filter((x) => x !== null);
  if (blocked.length > 0) {
    // A refused attempt checked no password, so it is not a failure: only failures lock.
    await Promise.all([releaseHit(db, accountKey, account), releaseHit(db, addressKey, address)]);
    const until = Math.max(...blocked.map((x) => x.resetAt.getTime()));
    const minutes = Math.max(1, Math.ceil((until - Date.now()) / 60_000));
    throw tooManyRequests(`Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`);
  }

  const [user] = await db.select().from(adminUsers).where(sql`lower(${adminUsers.email}) = ${email}`);
  let ok = false;
  if (user) ok = await verifyPassword(user.passwordHash, opts.password);
  else await burnPasswordCheck(opts.password);
  // A failure keeps the hits it reserved; a success clears the account's count and gives the address its hit back.
  if (!user || !ok) throw unauthorized(INVALID_LOGIN, "invalid_credentials");
  await Promise.all([resetCount(db, accountKey), releaseHit(db, addressKey, address)]);

  const token = randomBytes(32).toString("base64url");
  await db.insert(adminSessions).values({
    tokenHash: sha256(token),
    adminUserId: user.id,
    ip: opts.ip,
    userAgent: opts.userAgent?.slice(0, 300) ?? null,
  });
  // Expired sessions of this admin are cleared on each sign-in so the table does not grow.
  await db
    .delete(adminSessions)
    .where(
      and(
        eq(adminSessions.adminUserId, user.id),
        or(
          lt(adminSessions.lastSeenAt, new Date(Date.now() - SESSION_IDLE_MS)),
          lt(adminSessions.createdAt, new Date(Date.now() - SESSION_ABSOLUTE_MS)),
        ),
      ),
    );
  const actor = await loadActor(db, user.id);
  return { token, actor: actor! };
}

type SessionRow = {
  created_at: Date | string;
  last_seen_at: Date | string;
  id: string;
  email: string;
  role: AdminRole;
  store_ids: string[];
};

/** The session a token's hash names and its admin: read on every console request, so built once (db/prepared.ts). */
const sessionByHash = preparedOnce<{ hash: string }, SessionRow>(
  "admin_session",
  (v) => sql`select s.created_at, s.last_seen_at, u.id, u.email, u.role,
      coalesce((select array_agg(us.store_id::text) from ${adminUserStores} us where us.admin_user_id = u.id), '{}')
        as store_ids
    from ${adminSessions} s join ${adminUsers} u on u.id = s.admin_user_id
    where s.token_hash = ${v.hash}`,
);

/**
 * The admin behind a session cookie, or null when it is unknown or expired. One query on the hot path.
 * `touch: false` checks without counting as activity (a live feed's heartbeat).
 */
export async function resolveSession(
  db: Db,
  token: string,
  opts: { touch?: boolean } = {},
): Promise<AdminActor | null> {
  const hash = sha256(token);
  const [row] = await sessionByHash(db, { hash });
  if (!row) return null;
  const now = Date.now();
  const lastSeen = new Date(row.last_seen_at).getTime();
  if (now - lastSeen > SESSION_IDLE_MS || now - new Date(row.created_at).getTime() > SESSION_ABSOLUTE_MS) {
    await db.delete(adminSessions).where(eq(adminSessions.tokenHash, hash));
    return null;
  }
  if (opts.touch !== false && now - lastSeen > TOUCH_EVERY_MS) {
    await db
      .update(adminSessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(adminSessions.tokenHash, hash));
  }
  return { id: row.id, email: row.email, role: row.role, storeIds: row.store_ids };
}

export async function logout(db: Db, token: string): Promise<void> {
  await db.delete(adminSessions).where(eq(adminSessions.tokenHash, sha256(token)));
}

/** Used by the admin command and first-start bootstrap; no HTTP route creates admins yet. */
export async function createAdmin(opts: {
  db: Db;
  email: string;
  password: string;
  role: AdminRole;
  storeIds?: string[];
}): Promise<AdminActor> {
  const { db } = opts;
  const email = opts.email.trim();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw unprocessable("email: not a valid e-mail address");
  if (opts.password.length < ADMIN_PASSWORD_MIN_LENGTH) {
    throw unprocessable(`password: must be at least ${ADMIN_PASSWORD_MIN_LENGTH} characters`);
  }
  const storeIds = opts.role === "store_admin" ? [...new Set(opts.storeIds ?? [])] : [];
  const passwordHash = await hashPassword(opts.password);
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: adminUsers.id })
      .from(adminUsers)
      .where(sql`lower(${adminUsers.email}) = ${normaliseEmail(email)}`);
    if (existing) throw conflict(`An admin with e-mail ${email} already exists`);
    if (storeIds.length > 0) {
      const found = await tx.select({ id: stores.id }).from(stores).where(inArray(stores.id, storeIds));
      const missing = storeIds.filter((id) => !found.some((f) => f.id === id));
      if (missing.length > 0) throw notFound(`Unknown store id: ${missing.join(", ")}`);
    }
    const [user] = await tx.insert(adminUsers).values({ email, passwordHash, role: opts.role }).returning();
    if (storeIds.length > 0) {
      await tx.insert(adminUserStores).values(storeIds.map((storeId) => ({ adminUserId: user!.id, storeId })));
    }
    return { id: user!.id, email: user!.email, role: user!.role, storeIds };
  });
}

export async function setAdminPassword(opts: { db: Db; email: string; password: string }): Promise<void> {
  if (opts.password.length < ADMIN_PASSWORD_MIN_LENGTH) {
    throw unprocessable(`password: must be at least ${ADMIN_PASSWORD_MIN_LENGTH} characters`);
  }
  const passwordHash = await hashPassword(opts.password);
  await opts.db.transaction(async (tx) => {
    const [user] = await tx
      .update(adminUsers)
      .set({ passwordHash })
      .where(sql`lower(${adminUsers.email}) = ${normaliseEmail(opts.email)}`)
      .returning({ id: adminUsers.id });
    if (!user) throw notFound(`No admin with e-mail ${opts.email}`);
    // A new password signs the admin out everywhere.
    await tx.delete(adminSessions).where(eq(adminSessions.adminUserId, user.id));
  });
}

export async function listAdmins(db: Db) {
  const users = await db.select().from(adminUsers).orderBy(adminUsers.email);
  const links = await db.select().from(adminUserStores);
  return users.map((u) => ({
    id: u.id,
    email: u.email,
    role: u.role,
    storeIds: links.filter((l) => l.adminUserId === u.id).map((l) => l.storeId),
  }));
}

export async function deleteAdmin(db: Db, email: string): Promise<void> {
  const deleted = await db
    .delete(adminUsers)
    .where(sql`lower(${adminUsers.email}) = ${normaliseEmail(email)}`)
    .returning({ id: adminUsers.id });
  if (deleted.length === 0) throw notFound(`No admin with e-mail ${email}`);
}

export async function countAdmins(db: Db): Promise<number> {
  return db.$count(adminUsers);
}
