import { VAT_CATEGORIES, type VatRate, type VatRateList, type vatRateInputSchema } from "@glide/contracts";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "../../db/client.ts";
import { vatRates } from "../../db/schema/index.ts";
import { conflict, isUniqueViolation, notFound } from "../../platform/errors.ts";
import { assertPlatformAdmin } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { named, recordAudit, recordUpdate } from "../audit/audit.ts";
import { homeToday } from "./vat-rate-table.ts";

/**
 * The VAT rate table as platform admins keep it: periods of a category's
 * rate per country, which never share a day. The check is made under a lock
 * of the table (two saves cannot both pass it), and the unique index on
 * (country, category, valid_from) is the second guard.
 */

type Row = typeof vatRates.$inferSelect;
type Input = z.output<typeof vatRateInputSchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const toVatRate = (row: Row): VatRate => ({
  id: row.id,
  country: row.country,
  category: row.category as VatRate["category"],
  rate: row.rateBp / 100,
  valid_from: row.validFrom,
  valid_to: row.validTo,
  updated_at: row.updatedAt.toISOString(),
});

const toColumns = (input: Input) => ({
  country: input.country,
  category: input.category,
  rateBp: Math.round(input.rate * 100),
  validFrom: input.valid_from,
  validTo: input.valid_to ?? null,
});

type Period = Pick<VatRate, "country" | "category" | "rate" | "valid_from" | "valid_to">;
const daysOf = (p: Period) =>
  p.valid_to ? `from ${p.valid_from} to ${p.valid_to}` : `from ${p.valid_from} with no end`;

/** "food in SE, 6 % from 2026-04-01 to 2027-12-31": how the audit log names a period. */
export const describePeriod = (p: Period) => `${p.category} in ${p.country}, ${p.rate} % ${daysOf(p)}`;

const overlapError = (other: Period) =>
  conflict(
    `${other.category} in ${other.country} already has ${other.rate} % ${daysOf(other)}; end that period first or choose other days`,
    "vat_rate_overlap",
  );

/** Category order as VAT_CATEGORIES lists it. */
const categoryOrder = sql`array_position(array[${sql.join(
  VAT_CATEGORIES.map((c) => sql`${c}`),
  sql`, `,
)}]::text[], ${vatRates.category})`;

export async function listVatRates(opts: { db: Db; country?: string | undefined }): Promise<VatRateList> {
  const rows = await opts.db
    .select()
    .from(vatRates)
    .where(opts.country ? eq(vatRates.country, opts.country) : undefined)
    .orderBy(asc(vatRates.country), asc(categoryOrder), asc(vatRates.validFrom));
  return { items: rows.map(toVatRate), today: homeToday() };
}

/** The first period of the same country and category that shares a day with `input`, other than `self`. */
async function overlapping(tx: Tx, input: Input, self?: string): Promise<VatRate | null> {
  const to = input.valid_to ?? null;
  const [row] = await tx
    .select()
    .from(vatRates)
    .where(
      and(
        eq(vatRates.country, input.country),
        eq(vatRates.category, input.category),
        self ? ne(vatRates.id, self) : undefined,
        to === null ? undefined : sql`${vatRates.validFrom} <= ${to}::date`,
        sql`(${vatRates.validTo} is null or ${vatRates.validTo} >= ${input.valid_from}::date)`,
      ),
    )
    .orderBy(asc(vatRates.validFrom))
    .limit(1);
  return row ? toVatRate(row) : null;
}

/**
 * Runs a write of the table: locked against every other write (SHARE ROW
 * EXCLUSIVE conflicts with itself and with plain inserts), refused when the
 * new days meet another period's. A unique violation (a write that got past
 * the check) is answered as the same conflict.
 */
async function writeChecked<T>(db: Db, input: Input, self: string | undefined, write: (tx: Tx) => Promise<T>) {
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`lock table vat_rates in share row exclusive mode`);
      const other = await overlapping(tx, input, self);
      if (other) throw overlapError(other);
      return write(tx);
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const [row] = await db
      .select()
      .from(vatRates)
      .where(
        and(
          eq(vatRates.country, input.country),
          eq(vatRates.category, input.category),
          eq(vatRates.validFrom, input.valid_from),
        ),
      );
    if (row) throw overlapError(toVatRate(row));
    throw conflict(
      `Another period of ${input.category} in ${input.country} starts on ${input.valid_from}`,
      "vat_rate_overlap",
    );
  }
}

async function findPeriod(tx: Db | Tx, id: string, lock = false): Promise<Row> {
  if (!UUID.test(id)) throw notFound(`VAT rate ${id} not found`);
  const query = tx.select().from(vatRates).where(eq(vatRates.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound(`VAT rate ${id} not found`);
  return row;
}

export async function createVatRate(opts: { db: Db; actor: AdminActor; input: Input }): Promise<VatRate> {
  assertPlatformAdmin(opts.actor, "change VAT rates");
  return writeChecked(opts.db, opts.input, undefined, async (tx) => {
    const [row] = await tx.insert(vatRates).values(toColumns(opts.input)).returning();
    const created = toVatRate(row!);
    await recordAudit(tx, {
      actor: opts.actor,
      action: "vat_rate.create",
      entityType: "vat_rate",
      entityId: created.id,
      summary: `VAT rate ${describePeriod(created)} created`,
      after: created,
    });
    return created;
  });
}

/** Replaces a period with the body: every field as sent. */
export async function replaceVatRate(opts: { db: Db; actor: AdminActor; id: string; input: Input }): Promise<VatRate> {
  assertPlatformAdmin(opts.actor, "change VAT rates");
  await findPeriod(opts.db, opts.id);
  return writeChecked(opts.db, opts.input, opts.id, async (tx) => {
    const before = toVatRate(await findPeriod(tx, opts.id, true));
    const [row] = await tx
      .update(vatRates)
      .set({ ...toColumns(opts.input), updatedAt: sql`now()` })
      .where(eq(vatRates.id, opts.id))
      .returning();
    const after = toVatRate(row!);
    await recordUpdate(tx, {
      actor: opts.actor,
      action: "vat_rate.update",
      entityType: "vat_rate",
      entityId: opts.id,
      label: named("VAT rate", describePeriod(before)),
      before,
      after,
    });
    return after;
  });
}

export async function deleteVatRate(opts: { db: Db; actor: AdminActor; id: string }): Promise<void> {
  assertPlatformAdmin(opts.actor, "change VAT rates");
  await opts.db.transaction(async (tx) => {
    const before = toVatRate(await findPeriod(tx, opts.id, true));
    await tx.delete(vatRates).where(eq(vatRates.id, opts.id));
    await recordAudit(tx, {
      actor: opts.actor,
      action: "vat_rate.delete",
      entityType: "vat_rate",
      entityId: opts.id,
      summary: `VAT rate ${describePeriod(before)} deleted`,
      before,
    });
  });
}
