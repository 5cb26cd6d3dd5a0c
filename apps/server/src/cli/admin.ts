import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { ADMIN_ROLES, type AdminRole } from "@glide/contracts";
import pino from "pino";
import { ConfigError, loadConfig } from "../config.ts";
import type { Db } from "../db/client.ts";
import { DataFolderLockedError, openDatabase } from "../db/client.ts";
import { seedReferenceData } from "../db/reference-data.ts";
import {
  type AdminActor,
  createAdmin,
  deleteAdmin,
  listAdmins,
  setAdminPassword,
} from "../features/admin-auth/admin-auth.service.ts";
import { type AuditEntry, recordAudit } from "../features/audit/audit.ts";
import { AppError } from "../platform/errors.ts";

const USAGE = `Manage console admins without the UI.

  npm run admin -- create --email EMAIL --role platform_admin|store_admin [--store STORE_ID ...]
  npm run admin -- set-password --email EMAIL
  npm run admin -- list
  npm run admin -- delete --email EMAIL

The password is read from standard input (one line), e.g.
  printf '%s\\n' 'a long passphrase' | npm run admin -- create --email a@b.se --role platform_admin
With the embedded database, stop the server first: only one process may open the data folder.`;

async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write("Password: ");
  const rl = createInterface({ input: process.stdin, terminal: false });
  for await (const line of rl) {
    rl.close();
    return line.replace(/\r$/, "");
  }
  throw new AppError(400, "bad_request", "No password on standard input");
}

/** What the audit log shows of an admin: never a password or its hash. */
const adminShape = (a: Pick<AdminActor, "id" | "email" | "role" | "storeIds">) => ({
  id: a.id,
  email: a.email,
  role: a.role,
  store_ids: a.storeIds,
});

/**
 * Runs a change and records it in the same transaction, so the audit log has
 * an entry exactly when the change happened. The actor is the command line.
 */
function audited<T>(
  db: Db,
  change: (tx: Db) => Promise<T>,
  entry: (result: T) => Omit<AuditEntry, "actor" | "entityType">,
): Promise<T> {
  return db.transaction(async (tx) => {
    const result = await change(tx);
    await recordAudit(tx, { actor: { id: null, email: "cli" }, entityType: "admin_user", ...entry(result) });
    return result;
  });
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: "string" },
      role: { type: "string" },
      store: { type: "string", multiple: true },
      help: { type: "boolean", short: "h" },
    },
  });
  const command = positionals[0];
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  const needEmail = () => {
    if (!values.email) throw new AppError(400, "bad_request", "--email is required");
    return values.email;
  };

  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    logger: pino({ level: "warn" }),
  });
  try {
    await seedReferenceData(database.db);
    const db = database.db;
    switch (command) {
      case "create": {
        const email = needEmail();
        if (!ADMIN_ROLES.includes(values.role as AdminRole)) {
          throw new AppError(400, "bad_request", `--role must be one of ${ADMIN_ROLES.join(", ")}`);
        }
        const role = values.role as AdminRole;
        if (role === "store_admin" && !values.store?.length) {
          throw new AppError(400, "bad_request", "a store_admin needs at least one --store STORE_ID");
        }
        const password = await readPassword();
        const admin = await audited(
          db,
          (tx) => createAdmin({ db: tx, email, password, role, storeIds: values.store ?? [] }),
          (created) => ({
            action: "admin_user.create",
            entityId: created.id,
            summary: `Admin ${created.email} created (${created.role})`,
            after: adminShape(created),
          }),
        );
        process.stdout.write(`Created ${admin.role} ${admin.email}\n`);
        return 0;
      }
      case "set-password": {
        const email = needEmail();
        const password = await readPassword();
        const [admin] = (await listAdmins(db)).filter((a) => a.email.toLowerCase() === email.trim().toLowerCase());
        await audited(
          db,
          (tx) => setAdminPassword({ db: tx, email, password }),
          () => ({
            action: "admin_user.password_change",
            entityId: admin?.id ?? null,
            summary: `Password of admin ${admin?.email ?? email} changed; their sessions were signed out`,
          }),
        );
        process.stdout.write(`Password changed for ${email}; their sessions were signed out\n`);
        return 0;
      }
      case "list": {
        for (const a of await listAdmins(db)) {
          process.stdout.write(`${a.email}\t${a.role}${a.storeIds.length ? `\t${a.storeIds.join(",")}` : ""}\n`);
        }
        return 0;
      }
      case "delete": {
        const email = needEmail();
        const [admin] = (await listAdmins(db)).filter((a) => a.email.toLowerCase() === email.trim().toLowerCase());
        await audited(
          db,
          (tx) => deleteAdmin(tx, email),
          () => ({
            action: "admin_user.delete",
            entityId: admin?.id ?? null,
            summary: `Admin ${admin?.email ?? email} deleted`,
            before: admin ? adminShape(admin) : null,
          }),
        );
        process.stdout.write(`Deleted ${email}\n`);
        return 0;
      }
      default:
        process.stderr.write(`Unknown command ${command}\n\n${USAGE}\n`);
        return 2;
    }
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof AppError || err instanceof ConfigError || err instanceof DataFolderLockedError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
