import { type Db, queryRows, sql } from "../db/client.ts";

/** An audit entry as the tests of a feature read it back. */
export type AuditRow = {
  actor_email: string;
  action: string;
  entity_type: string;
  store_id: string | null;
  summary: string;
  before: unknown;
  after: unknown;
};

/** What the audit log holds about one entity (a store, a VAT period, …), oldest first. */
export const auditRowsOf = (db: Db, entityId: string) =>
  queryRows<AuditRow>(
    db,
    sql`select actor_email, action, entity_type, store_id, summary, before, after from audit_log
        where entity_id = ${entityId} order by id`,
  );
