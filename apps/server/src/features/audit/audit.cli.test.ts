import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/client.ts";
import { auditLog } from "../../db/schema/index.ts";
import { TEST_PASSWORD } from "../../test/harness.ts";
import { ctx, openAuditTests } from "./audit.fixtures.ts";

beforeAll(openAuditTests);
afterAll(() => ctx.close());

describe("the command line", () => {
  it("records the admins it creates, re-passwords and deletes, as the actor cli, never a password", async () => {
    // The CLI opens the database itself: a PostgreSQL test database, or an embedded one in a folder of its own.
    const dataDir = mkdtempSync(path.join(tmpdir(), "glide-audit-cli-"));
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent" };
    if (ctx.databaseUrl) env.DATABASE_URL = ctx.databaseUrl;
    else delete env.DATABASE_URL;
    const cli = path.resolve(import.meta.dirname, "../../cli/admin.ts");
    const run = async (args: string[], password?: string) => {
      const child = promisify(execFile)(process.execPath, [cli, ...args], { env });
      child.child.stdin?.end(password === undefined ? "" : `${password}\n`);
      return child.then(
        () => 0,
        (err: { code?: number }) => err.code ?? 1,
      );
    };
    const email = "cli-made@example.se";
    expect(await run(["create", "--email", email, "--role", "platform_admin"], TEST_PASSWORD)).toBe(0);
    expect(await run(["set-password", "--email", email], `${TEST_PASSWORD} 2`)).toBe(0);
    expect(await run(["delete", "--email", "nobody@example.se"])).toBe(1);
    expect(await run(["delete", "--email", email])).toBe(0);

    const database = ctx.databaseUrl ? null : await openDatabase({ dataDir, logger: pino({ level: "silent" }) });
    try {
      const db = database?.db ?? ctx.app.db;
      const rows = await db.select().from(auditLog).where(sql`actor_email = 'cli'`).orderBy(auditLog.id);
      const id = rows[0]?.entityId;
      expect(rows.map((r) => [r.action, r.actorId, r.entityType, r.entityId, r.summary])).toEqual([
        ["admin_user.create", null, "admin_user", id, `Admin ${email} created (platform_admin)`],
        [
          "admin_user.password_change",
          null,
          "admin_user",
          id,
          `Password of admin ${email} changed; their sessions were signed out`,
        ],
        ["admin_user.delete", null, "admin_user", id, `Admin ${email} deleted`],
      ]);
      expect(rows[0]!.after).toEqual({ id, email, role: "platform_admin", store_ids: [] });
      expect(rows[2]!.before).toEqual({ id, email, role: "platform_admin", store_ids: [] });
      const snapshots = JSON.stringify(rows.map((r) => [r.before, r.after]));
      expect(snapshots).not.toMatch(/password|hash|argon|scrypt/i);
      expect(snapshots).not.toContain(TEST_PASSWORD);
    } finally {
      await database?.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
