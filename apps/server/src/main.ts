// First: how the heap is collected, before any request code runs (platform/heap.ts).
import "./platform/heap.ts";
import closeWithGrace from "close-with-grace";
import { buildApp } from "./app.ts";
import { bootstrap } from "./bootstrap.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { DataFolderLockedError } from "./db/client.ts";
import { isDatabaseUnavailable, safeError } from "./platform/errors.ts";
import { drainAndClose } from "./platform/shutdown.ts";

const CLOSE_DELAY_MS = 10_000;

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

  // SIGTERM/SIGINT: /api/ready fails while requests are still served for SHUTDOWN_DRAIN_MS, then the
  // server stops accepting, lets in-flight requests finish and closes the database (platform/shutdown.ts).
  closeWithGrace(
    {
      delay: config.shutdownDrainMs + CLOSE_DELAY_MS,
      logger: app.log,
      skip: ["uncaughtException", "unhandledRejection"],
    },
    async ({ signal }) => {
      app.log.info({ signal, drain_ms: config.shutdownDrainMs }, "shutting down");
      await drainAndClose(app, config.shutdownDrainMs);
    },
  );
  // A lost database connection is an outage to wait out (requests get 503 meanwhile), not a reason
  // to exit; any other error nobody handled still ends the process, after a graceful close.
  let exiting = false;
  let reportedUnhandled = false;
  const onProcessError = (err: unknown) => {
    if (isDatabaseUnavailable(err)) {
      app.database.health.failed(err);
      // Once is enough to point at the code that left it unhandled; the outage itself is logged by the tracker.
      if (!reportedUnhandled)
        app.log.warn({ err: safeError(err) }, "a database error was not handled where it happened");
      reportedUnhandled = true;
      return;
    }
    app.log.error({ err: safeError(err) }, "shutting down after an error");
    if (exiting) return;
    exiting = true;
    const timer = setTimeout(() => process.exit(1), CLOSE_DELAY_MS);
    timer.unref();
    app.close().finally(() => process.exit(1));
  };
  process.on("uncaughtException", onProcessError);
  process.on("unhandledRejection", onProcessError);

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
