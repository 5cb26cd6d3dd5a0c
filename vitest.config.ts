import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Unit tests beside the browser tests end in .vitest.ts: Playwright takes *.test.ts there as its own.
    include: [
      "packages/*/src/**/*.test.ts",
      "apps/server/src/**/*.test.ts",
      "apps/web/e2e/support/*.vitest.ts",
      "scripts/*.test.ts",
    ],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
