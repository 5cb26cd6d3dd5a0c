import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.ts";

/**
 * The test setup for `npm run mutate` (stryker.config.mjs). Two changes from
 * the everyday run, so that a mutant of module-level code (a constant, a
 * schema, a top-level function) is really tested:
 * - every test file imports the server's modules afresh (`isolate: true`), so
 *   a module evaluated under one mutant is not reused under the next;
 * - scripts/stryker-activate.ts switches the mutant on before the test file
 *   imports anything (see there why Stryker's own setup does it too late).
 */
export default mergeConfig(
  base,
  defineConfig({
    test: {
      isolate: true,
      setupFiles: ["scripts/stryker-activate.ts"],
    },
  }),
);
