import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * The cluster test starts three servers and HAProxy and times their live
 * carts through a rolling restart: `npm test` runs it on its own after the
 * other passes (GLIDE_CLUSTER_TEST=1), so two busy passes beside it do not
 * decide its timings.
 */
const CLUSTER_TEST = "apps/server/src/cluster.test.ts";
const clusterOnly = Boolean(process.env.GLIDE_CLUSTER_TEST);

export default defineConfig({
  test: {
    // Unit tests beside the browser tests end in .vitest.ts: Playwright takes *.test.ts there as its own.
    include: clusterOnly
      ? [CLUSTER_TEST]
      : [
          "packages/*/src/**/*.test.ts",
          "apps/server/src/**/*.test.ts",
          "apps/web/e2e/support/*.vitest.ts",
          "apps/web/src/**/*.test.ts",
          "scripts/*.test.ts",
        ],
    exclude: clusterOnly ? configDefaults.exclude : [...configDefaults.exclude, CLUSTER_TEST],
    // The PostgreSQL pass copies each file's database from one migrated template instead of migrating each.
    globalSetup: ["apps/server/src/test/postgres-template.ts"],
    pool: "forks",
    // The HTTP tests mostly wait on their databases and simulators: two files at a time even on two cores
    // (Vitest's default there is one), which halved the PostgreSQL pass (5.8 to 2.6 minutes).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Files in one worker share its loaded modules instead of importing the whole server again per file
    // (104 s of imports summed over a PGlite pass became 17 s: that pass went from 351 to 239 s, PostgreSQL's
    // from 215 to 148 s). Every file builds its own app and database, so no state crosses between them.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
