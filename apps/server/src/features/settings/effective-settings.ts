import {
  type CustomSettings,
  SETTING_CATEGORIES,
  SETTING_DEFINITIONS,
  type SettingCategory,
  type SettingValues,
  settingValueSchema,
} from "@glide/contracts";
import type { FastifyBaseLogger } from "fastify";
import { type Db, queryRows, sql } from "../../db/client.ts";
import type { EventBus } from "../../platform/event-bus.ts";
import { keptCopies } from "../../platform/kept-copies.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Settings as every feature reads them (effective-settings.ts). */
    settings: SettingsReader;
  }
}

/** The topic on which an instance that changed a setting tells every instance to drop its copy. */
export const SETTINGS_TOPIC = "settings.changed";
/**
 * How long a copy is used before it is read again (kept-copies.ts). Events
 * are delivered at most once (an instance reconnecting to the bus may miss
 * one), so a missed drop heals by itself within this time, and at most as
 * long again while the reads in the background fail.
 */
export const SETTINGS_CACHE_MS = 60_000;
/** Stores whose overrides are kept; past it the copy made first is forgotten. */
const STORE_COPIES = 10_000;

export type SettingsChanged = { store_id: string | null };

export interface SettingsReader {
  /**
   * Every known setting's value for one store (its override, else the
   * global value, else the built-in one) or, without a store, globally.
   * A stored value that no longer fits its schema is passed over, so a
   * feature always reads a value of the documented shape.
   */
  effective(storeId?: string | null): Promise<SettingValues>;
  /** Drops this instance's copies and tells every other instance to drop theirs. */
  changed(storeId: string | null): Promise<void>;
}

type Stored = Map<string, unknown>;
const keyOf = (category: string, key: string) => `${category}/${key}`;

function fits(category: SettingCategory, key: string, value: unknown): boolean {
  return settingValueSchema(category, key)?.safeParse(value).success ?? false;
}

/** Global values over built-in ones, then a store's overrides over those. */
export function resolveSettings(globals: Stored, overrides: CustomSettings | null): SettingValues {
  const out: Record<string, Record<string, unknown>> = {};
  for (const category of SETTING_CATEGORIES) {
    const defs = SETTING_DEFINITIONS[category] as Record<string, { value: unknown }>;
    const values: Record<string, unknown> = {};
    for (const [key, def] of Object.entries(defs)) {
      const override = overrides?.[category]?.[key];
      const global = globals.get(keyOf(category, key));
      values[key] =
        override !== undefined && fits(category, key, override)
          ? override
          : global !== undefined && fits(category, key, global)
            ? global
            : def.value;
    }
    out[category] = values;
  }
  return out as SettingValues;
}

/** Values shared by every caller: frozen, so no caller can change what another reads. */
function frozen<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

export function createSettingsReader(opts: {
  db: Db;
  bus: EventBus;
  logger: FastifyBaseLogger;
  now?: () => number;
}): SettingsReader & { close(): void } {
  const { db, bus } = opts;
  // The values last resolved for a store ("" for none), with the copies they were resolved from.
  const resolved = new Map<string, { globals: Stored; overrides: CustomSettings | null; values: SettingValues }>();

  const loadGlobals = async (): Promise<Stored> => {
    const rows = await queryRows<{ category: string; key: string; value: unknown }>(
      db,
      sql`select category, key, value from settings order by category, key`,
    );
    return new Map(rows.map((r) => [keyOf(r.category, r.key), r.value]));
  };
  const loadStore = async (storeId: string): Promise<CustomSettings | null> => {
    const [row] = await queryRows<{ custom_settings: CustomSettings }>(
      db,
      sql`select custom_settings from stores where id = ${storeId}`,
    );
    return row?.custom_settings ?? null;
  };
  const kept = <V>(load: (key: string) => Promise<V>, limit: number) =>
    keptCopies<V>({
      load,
      freshMs: SETTINGS_CACHE_MS,
      staleMs: SETTINGS_CACHE_MS,
      same: (a, b) => JSON.stringify(a instanceof Map ? [...a] : a) === JSON.stringify(b instanceof Map ? [...b] : b),
      limit,
      now: opts.now ?? Date.now,
      onRefreshError: (key, err) =>
        opts.logger.warn(
          { err: (err as Error).message, store_id: key || null },
          "settings not read again; the copy stays",
        ),
    });
  const globals = kept(loadGlobals, 1);
  const stores = kept(loadStore, STORE_COPIES);

  const drop = (storeId: string | null) => {
    if (storeId === null) globals.clear();
    else stores.drop(storeId);
    resolved.delete(storeId ?? "");
  };
  const stop = bus.subscribe(SETTINGS_TOPIC, (message) => {
    const storeId = (message as Partial<SettingsChanged>)?.store_id;
    drop(typeof storeId === "string" ? storeId : null);
  });

  return {
    async effective(storeId) {
      const [gv, ov] = await Promise.all([globals.get(""), storeId ? stores.get(storeId) : null]);
      // Resolving checks every value against its schema: done once per pair of copies, not on every call.
      const key = storeId ?? "";
      const known = resolved.get(key);
      if (known && known.globals === gv && known.overrides === ov) return known.values;
      const values = frozen(resolveSettings(gv, ov));
      resolved.set(key, { globals: gv, overrides: ov, values });
      return values;
    },
    async changed(storeId) {
      drop(storeId);
      try {
        await bus.publish(SETTINGS_TOPIC, { store_id: storeId } satisfies SettingsChanged);
      } catch (err) {
        // The change is stored; other instances see it within SETTINGS_CACHE_MS at the latest.
        opts.logger.warn({ err }, "could not tell other instances that a setting changed");
      }
    },
    close: stop,
  };
}
