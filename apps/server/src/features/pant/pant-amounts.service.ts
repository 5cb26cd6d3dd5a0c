import {
  PANT_CODE_LABELS,
  PANT_CODES,
  type PantAmount,
  type PantAmountList,
  type PantCode,
  pantCodeSchema,
  pantCountrySchema,
} from "@glide/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { pantAmounts } from "../../db/schema/index.ts";
import { notFound, unprocessable } from "../../platform/errors.ts";
import { fromOre, toOre } from "../../platform/money.ts";
import { assertPlatformAdmin } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { recordAudit } from "../audit/audit.ts";

/**
 * The pant table as platform admins keep it: what each mark is worth in each
 * country. A mark without a row carries no pant there, so removing a row is
 * how a country stops taking a mark. Scans read the table when they make a
 * line (pant.ts), so a change counts from the next scan on.
 */

type Row = typeof pantAmounts.$inferSelect;
type Place = { country: string; code: PantCode };

/** The country of a request, or 422 naming the known ones. */
function countryOf(country: string): string {
  const known = pantCountrySchema.safeParse(country);
  if (!known.success) throw unprocessable(known.error.issues[0]!.message);
  return known.data;
}

/** The country and mark of a request's path, or 422 naming the known ones. */
function placeOf(country: string, code: string): Place {
  const where = countryOf(country);
  const known = pantCodeSchema.safeParse(code);
  if (!known.success) throw unprocessable(known.error.issues[0]!.message);
  return { country: where, code: known.data };
}

const toPantAmount = ({ country, code }: Place, row: Row | undefined): PantAmount => ({
  country,
  code,
  amount: row ? fromOre(row.amountOre) : null,
  updated_at: row ? row.updatedAt.toISOString() : null,
});

/** "Can in SE": how the audit log names a mark in a country. */
const describePlace = ({ country, code }: Place) => `${PANT_CODE_LABELS[code]} in ${country}`;
const describeAmount = (amount: number | null) => (amount === null ? "no pant" : `${amount} kr`);
const entityIdOf = ({ country, code }: Place) => `${country}/${code}`;

const rowOf = (place: Place) => and(eq(pantAmounts.country, place.country), eq(pantAmounts.code, place.code));

/** Every mark of PANT_CODES for one country, in that order; a mark without a row has amount null. */
export async function listPantAmounts(opts: { db: Db; country: string }): Promise<PantAmountList> {
  const country = countryOf(opts.country);
  const rows = await opts.db.select().from(pantAmounts).where(eq(pantAmounts.country, country));
  const byCode = new Map(rows.map((row) => [row.code, row]));
  return { country, items: PANT_CODES.map((code) => toPantAmount({ country, code }, byCode.get(code))) };
}

async function findRow(tx: Tx, place: Place): Promise<Row | undefined> {
  const [row] = await tx.select().from(pantAmounts).where(rowOf(place)).for("update");
  return row;
}

/** Sets what a mark is worth in a country, adding the row when the country had none. */
export async function setPantAmount(opts: {
  db: Db;
  actor: AdminActor;
  country: string;
  code: string;
  amount: number;
}): Promise<PantAmount> {
  assertPlatformAdmin(opts.actor, "change pant amounts");
  const place = placeOf(opts.country, opts.code);
  const amountOre = toOre(opts.amount);
  return opts.db.transaction(async (tx) => {
    const old = await findRow(tx, place);
    const before = old ? toPantAmount(place, old) : null;
    const [row] = await tx
      .insert(pantAmounts)
      .values({ ...place, amountOre })
      .onConflictDoUpdate({
        target: [pantAmounts.country, pantAmounts.code],
        set: { amountOre, updatedAt: sql`now()` },
      })
      .returning();
    const after = toPantAmount(place, row);
    // A save that changes nothing is no event, as elsewhere in the log.
    if (before?.amount === after.amount) return after;
    await recordAudit(tx, {
      actor: opts.actor,
      action: "pant_amount.update",
      entityType: "pant_amount",
      entityId: entityIdOf(place),
      summary: `Pant of ${describePlace(place)} changed from ${describeAmount(before?.amount ?? null)} to ${describeAmount(after.amount)}`,
      before,
      after,
    });
    return after;
  });
}

/** Removes a mark's amount in a country: packages with that mark carry no pant there from the next scan. */
export async function deletePantAmount(opts: { db: Db; actor: AdminActor; country: string; code: string }) {
  assertPlatformAdmin(opts.actor, "change pant amounts");
  const place = placeOf(opts.country, opts.code);
  await opts.db.transaction(async (tx) => {
    const [row] = await tx.delete(pantAmounts).where(rowOf(place)).returning();
    if (!row) throw notFound(`${describePlace(place)} has no pant amount`);
    await recordAudit(tx, {
      actor: opts.actor,
      action: "pant_amount.delete",
      entityType: "pant_amount",
      entityId: entityIdOf(place),
      summary: `Pant of ${describePlace(place)} removed (was ${describeAmount(fromOre(row.amountOre))})`,
      before: toPantAmount(place, row),
    });
  });
}
