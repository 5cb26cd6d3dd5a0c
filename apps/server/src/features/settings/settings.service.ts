import type { Setting, SettingCategory } from "@glide/contracts";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { settings } from "../../db/schema/index.ts";
import { notFound } from "../../platform/errors.ts";

type SettingRow = typeof settings.$inferSelect;

const toSetting = (r: SettingRow): Setting => ({
  id: r.id,
  category: r.category,
  key: r.key,
  value: r.value,
  description: r.description,
  is_editable: r.isEditable,
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

export async function getSetting(opts: { db: Db; category: SettingCategory; key: string }): Promise<Setting> {
  const [row] = await opts.db
    .select()
    .from(settings)
    .where(and(eq(settings.category, opts.category), eq(settings.key, opts.key)));
  if (!row) throw notFound(`Setting ${opts.category}/${opts.key} not found`);
  return toSetting(row);
}
