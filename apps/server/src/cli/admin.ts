import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { ADMIN_ROLES, type AdminRole } from "@glide/contracts";
import pino from "pino";
import { ConfigError, loadConfig } from "../config.ts";
import { DataFolderLockedError, openDatabase } from "../db/client.ts";
import { seedReferenceData } from "../db/reference-data.ts";
import { createAdmin, deleteAdmin, listAdmins, setAdminPassword } from "../features/admin-auth/admin-auth.service.ts";
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
        const admin = await createAdmin({
          db,
          email,
          password: await readPassword(),
          role,
          storeIds: values.store ?? [],
        });
        process.stdout.write(`Created ${admin.role} ${admin.email}\n`);
        return 0;
      }
      case "set-password": {
        const email = needEmail();
        await setAdminPassword({ db, email, password: await readPassword() });
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
        await deleteAdmin(db, email);
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
