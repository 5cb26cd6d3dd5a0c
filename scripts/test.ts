/**
 * `npm test`: type check, lint, unit and HTTP tests (PGlite, and PostgreSQL
 * too when TEST_DATABASE_URL is set), then Playwright in Debian's Chromium.
 * Ends with one line: "N passed, N failed".
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const out = mkdtempSync(path.join(tmpdir(), "glide-test-results-"));
const { TEST_DATABASE_URL, ...baseEnv } = process.env;
let passed = 0;
let failed = 0;

function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = baseEnv): boolean {
  process.stdout.write(`\n── ${title}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  return result.status === 0;
}

/** A step that is one check (type check, lint): counts as one pass or one failure. */
function check(title: string, command: string, args: string[]): void {
  if (run(title, command, args)) passed++;
  else failed++;
}

function ensureChromium(): boolean {
  if (existsSync("/usr/bin/chromium")) return true;
  process.stdout.write("\n── Installing Debian's chromium for the browser tests\n");
  if (process.getuid?.() !== 0) {
    process.stderr.write("Chromium is missing: run `sudo apt-get install -y chromium` and try again.\n");
    return false;
  }
  const env = { ...baseEnv, DEBIAN_FRONTEND: "noninteractive" };
  return (
    run("apt-get update", "apt-get", ["update", "-qq"], env) &&
    run("apt-get install chromium", "apt-get", ["install", "-y", "-qq", "chromium"], env)
  );
}

function vitest(title: string, file: string, env: NodeJS.ProcessEnv): void {
  const ok = run(title, "npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile=${file}`], env);
  if (!existsSync(file)) {
    failed++;
    return;
  }
  const report = JSON.parse(readFileSync(file, "utf8")) as {
    numPassedTests: number;
    numFailedTests: number;
    numFailedTestSuites: number;
  };
  passed += report.numPassedTests;
  failed += report.numFailedTests + (report.numFailedTests === 0 && !ok ? Math.max(1, report.numFailedTestSuites) : 0);
}

check("Type check", "npm", ["run", "-s", "typecheck"]);
check("Lint", "npm", ["run", "-s", "lint"]);
vitest("Unit and HTTP tests on PGlite", path.join(out, "vitest-pglite.json"), baseEnv);
if (TEST_DATABASE_URL) {
  vitest("HTTP tests on PostgreSQL", path.join(out, "vitest-postgres.json"), { ...baseEnv, TEST_DATABASE_URL });
}

if (ensureChromium() && run("Build the web app", "npm", ["run", "-s", "build"])) {
  const file = path.join(out, "playwright.json");
  run(
    "Browser tests (Playwright, desktop and phone)",
    "npx",
    ["playwright", "test", "-c", "apps/web/e2e/playwright.config.ts"],
    {
      ...baseEnv,
      PLAYWRIGHT_JSON_OUTPUT_NAME: file,
    },
  );
  if (existsSync(file)) {
    const { stats } = JSON.parse(readFileSync(file, "utf8")) as {
      stats: { expected: number; unexpected: number; flaky: number };
    };
    passed += stats.expected + stats.flaky;
    failed += stats.unexpected;
  } else failed++;
} else failed++;

process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 ? 1 : 0);
