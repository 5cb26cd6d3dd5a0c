import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { underStartLock } from "./db/migrate.ts";
import { seedDemoData } from "./demo/demo-data.ts";
import { countAdmins, createAdmin } from "./features/admin-auth/admin-auth.service.ts";

/**
 * First start of an installation: the first platform admin, and demo data
 * when asked for. Returns the generated password so the caller can print it once.
 */
export async function bootstrap(app: FastifyInstance): Promise<{ email: string; password?: string } | null> {
  const url = app.config.databaseUrl;
  // Instances started at once on an empty PostgreSQL database: one makes the admin, the others then find it.
  return url ? underStartLock(url, () => firstStart(app)) : firstStart(app);
}

async function firstStart(app: FastifyInstance): Promise<{ email: string; password?: string } | null> {
  const { config, db } = app;
  if ((await countAdmins(db)) > 0) return null;
  if (config.demoData) {
    const c = config.demoCameraSystem;
    // With the payment provider (the simulator under npm start), the seeded payments are real ones there.
    await seedDemoData(db, c ? { ...c, passwordSealed: app.cameraSealer.seal(c.password) } : null, app.payments);
  }
  const generated = config.adminPassword ? undefined : randomBytes(12).toString("base64url");
  await createAdmin({
    db,
    email: config.adminEmail,
    password: config.adminPassword ?? generated!,
    role: "platform_admin",
  });
  return { email: config.adminEmail, ...(generated ? { password: generated } : {}) };
}
