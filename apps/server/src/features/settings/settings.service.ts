import {
  type CustomSettings,
  isSettingCategory,
  type Setting,
  type SettingCategory,
  type SettingChange,
  type StoreOverrides,
  settingValueSchema,
} from "@glide/contracts";
import { and, asc, eq } from "drizzle-orm";
import type { z } from "zod";
import { type Db, queryOne, queryRows, sql, type Tx } from "../../db/client.ts";
import { settingChanges, settings, stores } from "../../db/schema/index.ts";
import { AppError, forbidden, notFound } from "../../platform/errors.ts";
import { issueMessage, summarise } from "../../platform/http-errors.ts";
import { assertCanManageStore, assertPlatformAdmin } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { named, recordAudit } from "../audit/audit.ts";

type SettingRow = typeof settings.$inferSelect;

const toSetting = (r: SettingRow): Setting => ({
  id: r.id,
  category: r.category,
  key: r.key,
  value: r.value,
  description: r.description,
  is_editable: r.isEditable,
  updated_at: r.updatedAt.toISOString(),
});

/** Settings are global reference data: every signed-in admin may read them. */
export async function listSettings(opts: { db: Db; category?: SettingCategory | undefined }): Promise<Setting[]> {
  const rows = await opts.db
    .select()
    .from(settings)
    .where(opts.category ? eq(settings.category, opts.category) : undefined)
    .orderBy(asc(settings.category), asc(settings.key));
  return rows.map(toSetting);
}

const unknownSetting = (category: string, key: string, path?: string) =>
  new AppError(
    404,
    "not_found",
    `Setting ${category}/${key} not found`,
    path ? [{ path, message: `There is no setting ${category}/${key}` }] : undefined,
  );

export async function getSetting(opts: { db: Db; category: string; key: string }): Promise<Setting> {
  if (!isSettingCategory(opts.category)) throw unknownSetting(opts.category, opts.key);
  const [row] = await opts.db
    .select()
    .from(settings)
    .where(and(eq(settings.category, opts.category), eq(settings.key, opts.key)));
  if (!row) throw unknownSetting(opts.category, opts.key);
  return toSetting(row);
}

/**
 * `value` checked against its key's schema; a misfit is a 422 whose errors
 * name the path inside the value ("value.page_size"), as a form names fields.
 */
function checkValue(schema: z.ZodType, value: unknown, prefix: string): unknown {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].join("."),
    message: issueMessage({ keyword: issue.code, message: issue.message, params: issue as never }),
  }));
  throw new AppError(422, "validation_error", summarise(errors, prefix), errors);
}

/** Overrides as "category/key" → value, so the audit log shows (and highlights) each key on its own. */
const flatOverrides = (overrides: CustomSettings) =>
  Object.fromEntries(
    Object.entries(overrides).flatMap(([category, keys]) =>
      Object.entries(keys ?? {}).map(([key, value]) => [`${category}/${key}`, value]),
    ),
  );

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

async function record(
  tx: Tx,
  actor: AdminActor,
  change: {
    category: SettingCategory;
    key: string;
    store: { id: string; name: string } | null;
    oldValue: unknown;
    newValue: unknown;
  },
) {
  await tx.insert(settingChanges).values({
    category: change.category,
    key: change.key,
    storeId: change.store?.id ?? null,
    storeName: change.store?.name ?? null,
    isOverride: change.store !== null,
    adminId: actor.id,
    adminEmail: actor.email,
    oldValue: change.oldValue === undefined ? null : change.oldValue,
    newValue: change.newValue === undefined ? null : change.newValue,
  });
}

/** A global value: platform admins only, editable keys only, checked against the key's schema. */
export async function updateSetting(opts: {
  db: Db;
  actor: AdminActor;
  category: string;
  key: string;
  value: unknown;
}): Promise<{ setting: Setting; changed: boolean }> {
  const { actor, category, key } = opts;
  const schema = settingValueSchema(category, key);
  if (!schema || !isSettingCategory(category)) throw unknownSetting(category, key);
  assertPlatformAdmin(actor, "change global settings; a store admin can set a store override");
  const value = checkValue(schema, opts.value, "value");
  return opts.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(settings)
      .where(and(eq(settings.category, category), eq(settings.key, key)))
      .for("update");
    if (!row) throw unknownSetting(category, key);
    if (!row.isEditable) throw forbidden(`Setting ${category}/${key} is read-only`, "read_only");
    if (same(row.value, value)) return { setting: toSetting(row), changed: false };
    const [updated] = await tx.update(settings).set({ value }).where(eq(settings.id, row.id)).returning();
    await record(tx, actor, { category, key, store: null, oldValue: row.value, newValue: value });
    await recordAudit(tx, {
      actor,
      action: "setting.update",
      entityType: "setting",
      entityId: `${category}/${key}`,
      summary: `Setting ${category}/${key} changed`,
      before: toSetting(row),
      after: toSetting(updated!),
    });
    return { setting: toSetting(updated!), changed: true };
  });
}

async function storeRow(db: Db | Tx, storeId: string, lock: boolean) {
  const rows = await queryRows<{ id: string; name: string; custom_settings: CustomSettings }>(
    db,
    sql`select id, name, custom_settings from stores where id = ${storeId} ${lock ? sql`for update` : sql``}`,
  );
  if (!rows[0]) throw notFound(`Store ${storeId} not found`);
  return rows[0];
}

export async function getStoreOverrides(opts: { db: Db; actor: AdminActor; storeId: string }): Promise<StoreOverrides> {
  assertCanManageStore(opts.actor, opts.storeId);
  const row = await storeRow(opts.db, opts.storeId, false);
  return { store_id: row.id, custom_settings: row.custom_settings };
}

/**
 * Replaces a store's overrides with `next` (the whole nested object, as the
 * screen sends it). Every key must be a known setting; a read-only one may
 * not be added or changed; each value is checked by its key's schema. Each
 * key whose value differs is recorded in the history.
 */
export async function putStoreOverrides(opts: {
  db: Db;
  actor: AdminActor;
  storeId: string;
  next: CustomSettings;
}): Promise<{ overrides: StoreOverrides; changed: boolean }> {
  const { actor, storeId } = opts;
  assertCanManageStore(actor, storeId);
  const clean: CustomSettings = {};
  for (const [category, keys] of Object.entries(opts.next)) {
    for (const [key, value] of Object.entries(keys)) {
      const path = `settings.${category}.${key}`;
      const schema = settingValueSchema(category, key);
      if (!schema) throw unknownSetting(category, key, path);
      clean[category] = { ...clean[category], [key]: checkValue(schema, value, path) };
    }
  }
  return opts.db.transaction(async (tx) => {
    const store = await storeRow(tx, storeId, true);
    const before = store.custom_settings ?? {};
    const editable = new Map(
      (
        await tx
          .select({ category: settings.category, key: settings.key, isEditable: settings.isEditable })
          .from(settings)
      ).map((r) => [`${r.category}/${r.key}`, r.isEditable]),
    );
    const changes: { category: SettingCategory; key: string; oldValue: unknown; newValue: unknown }[] = [];
    const categories = new Set([...Object.keys(before), ...Object.keys(clean)]);
    for (const category of categories) {
      const keys = new Set([...Object.keys(before[category] ?? {}), ...Object.keys(clean[category] ?? {})]);
      for (const key of keys) {
        const oldValue = before[category]?.[key];
        const newValue = clean[category]?.[key];
        if (same(oldValue, newValue)) continue;
        // A read-only key may be dropped from a store, never set or changed.
        if (newValue !== undefined && editable.get(`${category}/${key}`) === false) {
          throw new AppError(403, "read_only", `Setting ${category}/${key} is read-only and cannot be overridden`, [
            { path: `settings.${category}.${key}`, message: "This setting is read-only" },
          ]);
        }
        changes.push({ category: category as SettingCategory, key, oldValue, newValue });
      }
    }
    if (changes.length === 0) return { overrides: { store_id: storeId, custom_settings: before }, changed: false };
    await tx.update(stores).set({ customSettings: clean }).where(eq(stores.id, storeId));
    for (const change of changes) await record(tx, actor, { ...change, store: { id: store.id, name: store.name } });
    await recordAudit(tx, {
      actor,
      action: "setting.store_override",
      entityType: "store",
      entityId: storeId,
      storeId,
      summary: `Settings of ${named("store", store.name)} overridden: ${changes.map((c) => `${c.category}/${c.key}`).join(", ")}`,
      before: flatOverrides(before),
      after: flatOverrides(clean),
    });
    return { overrides: { store_id: storeId, custom_settings: clean }, changed: true };
  });
}

/**
 * Changes newest first. A platform admin sees all; a store admin sees the
 * global changes and the overrides of the stores they manage.
 */
export async function settingHistory(opts: {
  db: Db;
  actor: AdminActor;
  category?: SettingCategory | undefined;
  key?: string | undefined;
  storeId?: string | undefined;
  limit: number;
  offset: number;
}): Promise<{ items: SettingChange[]; total: number }> {
  const { actor } = opts;
  if (opts.storeId) assertCanManageStore(actor, opts.storeId);
  const conditions = [sql`true`];
  if (opts.category) conditions.push(sql`category = ${opts.category}`);
  if (opts.key) conditions.push(sql`key = ${opts.key}`);
  if (opts.storeId) conditions.push(sql`store_id = ${opts.storeId}`);
  if (actor.role !== "platform_admin") {
    const own = actor.storeIds.length
      ? sql`store_id in (${sql.join(
          actor.storeIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`
      : sql`false`;
    conditions.push(sql`(not is_override or ${own})`);
  }
  const where = sql.join(conditions, sql` and `);
  const [rows, count] = await Promise.all([
    queryRows<{
      id: string;
      category: SettingCategory;
      key: string;
      store_id: string | null;
      store_name: string | null;
      admin_email: string | null;
      changed_at: Date | string;
      old_value: unknown;
      new_value: unknown;
    }>(
      opts.db,
      sql`select id, category, key, store_id, store_name, admin_email, changed_at, old_value, new_value
          from setting_changes where ${where}
          order by changed_at desc, id desc limit ${opts.limit} offset ${opts.offset}`,
    ),
    queryOne<{ n: number }>(opts.db, sql`select count(*)::int as n from setting_changes where ${where}`),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id,
      category: r.category,
      key: r.key,
      store_id: r.store_id,
      store_name: r.store_name,
      changed_by: r.admin_email,
      changed_at: new Date(r.changed_at).toISOString(),
      old_value: r.old_value,
      new_value: r.new_value,
    })),
    total: count.n,
  };
}
