import { readFileSync } from "node:fs";
import path from "node:path";
import { fileGraph, sourceFiles } from "./import-graph.ts";

/** What chooses the suite's database (apps/server/src/test/harness.ts): a file that never reads it runs on PGlite. */
const DATABASE_CHOICE = "TEST_DATABASE_URL";

/**
 * The server's test files that cannot tell which database the suite runs
 * on: nothing they import, however indirectly, reads TEST_DATABASE_URL.
 * The PostgreSQL pass of `npm test` leaves them out, as they would run
 * there exactly as they just did in the PGlite pass: main.test.ts starts
 * servers of its own on PGlite, the face model's tests run the model, the
 * camera protocols' tests talk to the simulator. Paths relative to `root`,
 * sorted. A file that only names the variable in a comment counts as
 * reading it: a mistake here runs a test twice, never zero times. Only
 * imports are followed, not the processes a test starts: one that started
 * a program reading TEST_DATABASE_URL would have to read it itself too
 * (main.test.ts starts its servers with PATH and a PGlite folder alone).
 */
export function databaseBlindTests(root: string): string[] {
  const files = sourceFiles(path.join(root, "apps/server/src"), true);
  const graph = fileGraph(files);
  const reads = new Map(files.map((file) => [file, readFileSync(file, "utf8").includes(DATABASE_CHOICE)]));
  const seesDatabase = (test: string): boolean => {
    const seen = new Set<string>();
    const todo = [test];
    for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
      if (seen.has(file)) continue;
      seen.add(file);
      if (reads.get(file)) return true;
      todo.push(...(graph.get(file) ?? []));
    }
    return false;
  };
  return files
    .filter((file) => file.endsWith(".test.ts") && !seesDatabase(file))
    .map((file) => path.relative(root, file))
    .sort();
}
