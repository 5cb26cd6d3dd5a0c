import type { Store, StoreModule, storeCreateSchema, storeUpdateSchema } from "@glide/contracts";
import {
  COUNTRY_TIMEZONES,
  type CountryCode,
  formatSwedishOrganisationNumber,
  isValidSwedishOrganisationNumber,
  type SettingValues,
  STORE_DEFAULTS,
} from "@glide/contracts";
import { and, asc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import { type Db, queryRows, type Tx } from "../../db/client.ts";
import { modules, storeModules, stores } from "../../db/schema/index.ts";
import { AppError, notFound, unprocessable } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import { assertCanManageStore, assertPlatformAdmin } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { named, recordAudit, recordUpdate } from "../audit/audit.ts";

type StoreRow = typeof stores.$inferSelect;
type CreateInput = z.output<typeof storeCreateSchema>;
type UpdateInput = z.output<typeof storeUpdateSchema>;

function toStore(row: StoreRow, moduleMap: Record<string, { enabled: boolean }>): Store {
  return {
    id: row.id,
    name: row.name,
    legal_name: row.legalName,
    organization_number: row.organizationNumber,
    vat_number: row.vatNumber,
    store_type: row.storeType,
    size_sqm: row.sizeSqm,
    description: row.description,
    address: row.address,
    city: row.city,
    postal_code: row.postalCode,
    country: row.country,
    timezone: row.timezone,
    phone: row.phone,
    email: row.email,
    website: row.website,
    contact_person: row.contactPerson,
    contact_title: row.contactTitle,
    is_active: row.isActive,
    // A Date from Drizzle's mapping and node-postgres, a string from some drivers' plain rows.
    created_at: new Date(row.createdAt).toISOString(),
    settings: {
      language: row.language,
      currency: row.currency,
      vat_rate: row.vatRateBp / 10_000,
      modules: moduleMap,
    },
    custom_settings: row.customSettings,
  };
}

/** Every column of a store under the names Drizzle gives them (StoreRow), for queries written as SQL. */
const storeColumns = sql.raw(
  Object.entries(getTableColumns(stores))
    .map(([key, column]) => `"stores"."${column.name}" as "${key}"`)
    .join(", "),
);

/** The store's `settings.modules` map, built in the same query as the store. */
const moduleMapColumn = sql<Record<string, { enabled: boolean }>>`coalesce((
  select json_object_agg(${storeModules.moduleId}, json_build_object('enabled', ${storeModules.enabled}))
  from ${storeModules} where ${storeModules.storeId} = ${stores.id}), '{}'::json)`;

/** Column values from API fields; only the fields present are set. */
function toColumns(input: UpdateInput): Partial<typeof stores.$inferInsert> {
  const cols: Partial<typeof stores.$inferInsert> = {};
  const map = {
    name: "name",
    legal_name: "legalName",
    organization_number: "organizationNumber",
    vat_number: "vatNumber",
    store_type: "storeType",
    size_sqm: "sizeSqm",
    description: "description",
    address: "address",
    city: "city",
    postal_code: "postalCode",
    country: "country",
    timezone: "timezone",
    phone: "phone",
    email: "email",
    website: "website",
    contact_person: "contactPerson",
    contact_title: "contactTitle",
    is_active: "isActive",
  } as const;
  for (const [field, column] of Object.entries(map) as [keyof typeof map, (typeof map)[keyof typeof map]][]) {
    if (input[field] !== undefined) (cols as Record<string, unknown>)[column] = input[field];
  }
  if (input.settings?.language !== undefined) cols.language = input.settings.language;
  if (input.settings?.currency !== undefined) cols.currency = input.settings.currency;
  if (input.settings?.vat_rate !== undefined) cols.vatRateBp = Math.round(input.settings.vat_rate * 10_000);
  return cols;
}

/** Rules that need more than one field: a Swedish store's organisation number has a check digit. */
function checkStore(cols: { country?: string | null; organizationNumber?: string | null }) {
  if (cols.organizationNumber && (cols.country ?? STORE_DEFAULTS.country) === "SE") {
    if (!isValidSwedishOrganisationNumber(cols.organizationNumber)) {
      // Like a schema error: the form puts the message beside the field, API clients read the path in `detail`.
      const message = "Not a valid Swedish organisation number: use NNNNNN-NNNN with a correct check digit";
      throw new AppError(422, "validation_error", `organization_number: ${message}`, [
        { path: "organization_number", message },
      ]);
    }
    cols.organizationNumber = formatSwedishOrganisationNumber(cols.organizationNumber);
  }
}

export async function listStores(opts: {
  db: Db;
  actor: AdminActor;
  search?: string | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}): Promise<{ items: Store[]; total: number }> {
  const { db, actor } = opts;
  const conditions = [];
  if (actor.role !== "platform_admin") {
    if (actor.storeIds.length === 0) return { items: [], total: 0 };
    conditions.push(inArray(stores.id, actor.storeIds));
  }
  const search = opts.search?.trim();
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const digits = search.replace(/\D/g, "");
    conditions.push(
      sql`(${stores.name} ilike ${like} or ${stores.city} ilike ${like} or ${stores.email} ilike ${like}
        or ${stores.organizationNumber} ilike ${like}
        ${digits.length >= 3 ? sql`or replace(${stores.organizationNumber}, '-', '') like ${`%${digits}%`}` : sql``})`,
    );
  }
  const where = conditions.length ? and(...conditions) : undefined;
  // The total rides along with the page (a window count over every match): one statement, not two. Read as plain
  // rows in the shape toStore takes: Drizzle's mapping of a whole store per row was a sixth of the server's time
  // on a long list (bench/results.md, GET /api/v1/stores/).
  const rows = await queryRows<StoreRow & { modules: Record<string, { enabled: boolean }>; total: number }>(
    db,
    sql`select ${storeColumns}, ${moduleMapColumn} as modules, (count(*) over ())::int as total
        from ${stores} ${where ? sql`where ${where}` : sql``}
        order by ${stores.createdAt} desc, ${stores.name} asc, ${stores.id} asc
        ${opts.limit ? sql`limit ${opts.limit}` : sql``} offset ${opts.offset ?? 0}`,
  );
  // A page past the end has no row to carry the total: only then is it counted apart.
  const total = rows[0]?.total ?? (opts.offset ? await db.$count(stores, where) : 0);
  return { items: rows.map((row) => toStore(row, row.modules)), total };
}

export async function getStore(db: Db | Tx, id: string): Promise<Store> {
  const [row] = await db.select({ store: stores, modules: moduleMapColumn }).from(stores).where(eq(stores.id, id));
  if (!row) throw notFound(`Store ${id} not found`);
  return toStore(row.store, row.modules);
}

/**
 * What a new store starts with where the request says nothing: the
 * `default_*` settings, or, for a store in another country than the default
 * one, that country's currency and time zone; its VAT rate is its country's
 * standard rate (product/vat_rates_by_country), whatever the country.
 */
export function newStoreDefaults(input: CreateInput, s: SettingValues) {
  const country = input.country ?? s.store.default_country;
  const home = country === s.store.default_country;
  const currency = s.product.currencies_by_country[country as CountryCode]?.code;
  const vat = s.product.vat_rates_by_country[country as CountryCode];
  return {
    country,
    timezone: home ? s.store.default_timezone : (COUNTRY_TIMEZONES[country as CountryCode] ?? s.store.default_timezone),
    language: s.store.default_locale,
    currency: home || !currency ? s.product.default_currency : currency,
    vatRateBp: Math.round((vat ?? STORE_DEFAULTS.vat_rate) * 10_000),
  };
}

export async function createStore(opts: {
  db: Db;
  actor: AdminActor;
  input: CreateInput;
  settings: SettingValues;
}): Promise<Store> {
  assertPlatformAdmin(opts.actor, "create stores");
  const cols = { ...newStoreDefaults(opts.input, opts.settings), ...toColumns(opts.input) };
  checkStore(cols);
  return opts.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(stores)
      .values({ ...cols, name: opts.input.name })
      .returning();
    const store = toStore(row!, {});
    await recordAudit(tx, {
      actor: opts.actor,
      action: "store.create",
      entityType: "store",
      entityId: store.id,
      storeId: store.id,
      summary: `${named("Store", store.name)} created`,
      after: store,
    });
    return store;
  });
}

export async function updateStore(opts: { db: Db; actor: AdminActor; id: string; input: UpdateInput }): Promise<Store> {
  const { actor, id, input } = opts;
  assertCanManageStore(actor, id);
  if (input.is_active !== undefined) assertPlatformAdmin(actor, "activate or deactivate stores");
  return opts.db.transaction(async (tx) => {
    const [existing] = await tx.select().from(stores).where(eq(stores.id, id)).for("update");
    if (!existing) throw notFound(`Store ${id} not found`);
    const cols = toColumns(input);
    const merged = { country: cols.country ?? existing.country, organizationNumber: cols.organizationNumber };
    // Re-check the stored number too when only the country changes.
    if (merged.organizationNumber === undefined && cols.country !== undefined) {
      checkStore({ country: merged.country, organizationNumber: existing.organizationNumber });
    }
    if (merged.organizationNumber !== undefined) {
      checkStore(merged);
      cols.organizationNumber = merged.organizationNumber;
    }
    const before = await getStore(tx, id);
    if (Object.keys(cols).length > 0) await tx.update(stores).set(cols).where(eq(stores.id, id));
    const after = await getStore(tx, id);
    await recordUpdate(tx, {
      actor,
      action: "store.update",
      entityType: "store",
      entityId: id,
      storeId: id,
      label: named("Store", after.name),
      before,
      after,
    });
    return after;
  });
}

export async function deleteStore(opts: { db: Db; actor: AdminActor; id: string }): Promise<void> {
  assertPlatformAdmin(opts.actor, "delete stores");
  await opts.db.transaction(async (tx) => {
    const before = await getStore(tx, opts.id);
    const deleted = await tx.delete(stores).where(eq(stores.id, opts.id)).returning({ id: stores.id });
    // Another request deleted it between the two statements.
    if (deleted.length === 0) throw notFound(`Store ${opts.id} not found`);
    await recordAudit(tx, {
      actor: opts.actor,
      action: "store.delete",
      entityType: "store",
      entityId: opts.id,
      storeId: opts.id,
      summary: `${named("Store", before.name)} deleted`,
      before,
    });
  });
}

export async function listStoreModules(opts: { db: Db; actor: AdminActor; storeId: string }): Promise<StoreModule[]> {
  const { db, storeId } = opts;
  assertCanManageStore(opts.actor, storeId);
  const [store] = await db.select({ id: stores.id }).from(stores).where(eq(stores.id, storeId));
  if (!store) throw notFound(`Store ${storeId} not found`);
  const rows = await db
    .select({
      moduleId: modules.moduleId,
      name: modules.name,
      description: modules.description,
      category: modules.category,
      priceOre: modules.pricePerMonthOre,
      enabled: sql<boolean>`coalesce(${storeModules.enabled}, false)`,
    })
    .from(modules)
    .leftJoin(storeModules, and(eq(storeModules.moduleId, modules.moduleId), eq(storeModules.storeId, storeId)))
    .orderBy(asc(modules.sortOrder), asc(modules.moduleId));
  return rows.map((r) => ({
    module_id: r.moduleId,
    name: r.name,
    description: r.description,
    category: r.category,
    price_per_month: fromOre(r.priceOre),
    enabled: r.enabled,
  }));
}

export async function setStoreModule(opts: {
  db: Db;
  actor: AdminActor;
  storeId: string;
  moduleId: string;
  bodyModuleId?: string | undefined;
  enabled: boolean;
}): Promise<StoreModule> {
  const { db, storeId, moduleId } = opts;
  assertPlatformAdmin(opts.actor, "change store modules");
  if (opts.bodyModuleId !== undefined && opts.bodyModuleId !== moduleId) {
    throw unprocessable(`module_id: ${opts.bodyModuleId} does not match the module in the path (${moduleId})`);
  }
  return db.transaction(async (tx) => {
    const [store] = await tx.select({ id: stores.id, name: stores.name }).from(stores).where(eq(stores.id, storeId));
    if (!store) throw notFound(`Store ${storeId} not found`);
    const [mod] = await tx.select().from(modules).where(eq(modules.moduleId, moduleId));
    if (!mod) throw notFound(`Module ${moduleId} not found`);
    const [current] = await tx
      .select({ enabled: storeModules.enabled })
      .from(storeModules)
      .where(and(eq(storeModules.storeId, storeId), eq(storeModules.moduleId, moduleId)));
    const wasEnabled = current?.enabled ?? false;
    if (wasEnabled !== opts.enabled) {
      await recordAudit(tx, {
        actor: opts.actor,
        action: opts.enabled ? "store.module_enable" : "store.module_disable",
        entityType: "store",
        entityId: storeId,
        storeId,
        summary: `${named("Module", mod.name)} ${opts.enabled ? "enabled" : "disabled"} for ${named("store", store.name)}`,
        before: { module_id: moduleId, enabled: wasEnabled },
        after: { module_id: moduleId, enabled: opts.enabled },
      });
    }
    await tx
      .insert(storeModules)
      .values({ storeId, moduleId, enabled: opts.enabled })
      .onConflictDoUpdate({
        target: [storeModules.storeId, storeModules.moduleId],
        set: { enabled: opts.enabled, updatedAt: sql`now()` },
      });
    return {
      module_id: mod.moduleId,
      name: mod.name,
      description: mod.description,
      category: mod.category,
      price_per_month: fromOre(mod.pricePerMonthOre),
      enabled: opts.enabled,
    };
  });
}
