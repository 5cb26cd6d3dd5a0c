import { inject } from "vitest";

/*
 * Setup file of the mutation runs only (vitest.mutate.config.ts).
 *
 * StrykerJS 10.1.1 runs a mutant with a test filter, which `testFiles` in
 * stryker.config.mjs always gives, with "runtime" activation: its setup file
 * switches the mutant on in a beforeAll hook, after the test file has imported
 * the code under test. A mutant of code that runs while a module loads (a
 * constant, a schema, a function made at the top level) is then never active,
 * and Stryker reports it as surviving whatever the tests do (stryker-js issues
 * 6144 and 6209). Switching it on here, before the test file's imports, is
 * what Stryker's "static" activation does; for every other mutant it changes
 * nothing, since their code does not run before the tests do.
 */
type StrykerContext = { mode?: "dry-run" | "mutant"; globalNamespace?: string; activeMutant?: string };
const read = <K extends keyof StrykerContext>(key: K) => (inject as (k: string) => unknown)(key) as StrykerContext[K];

if (read("mode") === "mutant") {
  const namespace = read("globalNamespace");
  if (namespace) {
    const global = globalThis as unknown as Record<string, { activeMutant?: string } | undefined>;
    const ns = global[namespace] ?? {};
    global[namespace] = ns;
    ns.activeMutant = read("activeMutant");
  }
}
