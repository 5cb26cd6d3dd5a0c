import type { Profile } from "@glide/contracts";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { notFound } from "../../platform/errors.ts";

/** The shopper's own profile: the name BankID gave, and the e-mail receipts go to. */
export async function readProfile(db: Db, customerId: string): Promise<Profile> {
  const [row] = await queryRows<Profile>(db, sql`select name, email from customers where id = ${customerId}`);
  if (!row) throw notFound("Kontot finns inte längre.", "no_account");
  return row;
}

/**
 * Sets (or with null removes) where receipts are e-mailed. Receipts of
 * purchases paid from now on go there; one already queued goes to the
 * address given when it was paid.
 */
export async function setEmail(opts: { db: Db; customerId: string; email: string | null }): Promise<Profile> {
  const [row] = await queryRows<Profile>(
    opts.db,
    sql`update customers set email = ${opts.email} where id = ${opts.customerId} returning name, email`,
  );
  if (!row) throw notFound("Kontot finns inte längre.", "no_account");
  return row;
}
