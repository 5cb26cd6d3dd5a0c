import closeWithGrace from "close-with-grace";
import { buildApp } from "./app.ts";
import { bootstrap } from "./bootstrap.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { DataFolderLockedError } from "./db/client.ts";

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);

  const first = await bootstrap(app);
  if (first) {
    const lines = [
      "",
      "  First start: a platform admin was created.",
      `    e-mail:   ${first.email}`,
      first.password ? `    password: ${first.password}` : "    password: the one in ADMIN_PASSWORD",
      first.password ? "  This password is shown only now. Change it with: npm run admin -- set-password" : "",
      "",
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  }

  // SIGTERM/SIGINT: stop accepting, let in-flight requests finish, then close the database.
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, "shutting down after an error");
    else app.log.info({ signal }, "shutting down");
    await app.close();
  });

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Glide is running at ${config.publicUrl} (database: ${app.database.kind})`);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DataFolderLockedError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`Failed to start: ${(err as Error).stack ?? String(err)}\n`);
  }
  process.exit(1);
});
