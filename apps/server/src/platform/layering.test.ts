import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The layers of ARCHITECTURE.md, held by a test: `platform/` knows no
 * domain (nothing under features/, nor the app that assembles them), and
 * `db/` holds schema and migrations that know no feature either. Test files
 * may reach across; shipped code may not. Nor may shipped code use the
 * simulators in the repository's tools/: the helpers that start them for
 * tests live in test/.
 */
const src = path.resolve(import.meta.dirname, "..");
/** An import of the repository's tools/, climbed to from src/. */
const TOOLS = /^(\.\.\/)+tools\//;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** Every relative module a file imports or re-exports, resolved to a path under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [
    ...text.matchAll(/\b(?:import|export)\b[^'"]*?\bfrom\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g),
  ]
    .map((m) => m[1] ?? m[2]!)
    .filter((s) => s.startsWith("."));
  return specifiers.map((s) => path.relative(src, path.resolve(path.dirname(file), s)));
}

/** The imports of the shipped files under `layer` (or of `files`) that `forbidden` matches. */
function crossings(layer: string, forbidden: RegExp, files = sourceFiles(path.join(src, layer))): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter((target) => forbidden.test(target))
      .map((target) => `${path.relative(src, file)} -> ${target}`),
  );
}

describe("layers", () => {
  it("platform/ imports no feature and not the app", () => {
    expect(sourceFiles(path.join(src, "platform")).length).toBeGreaterThan(20);
    expect(crossings("platform", /^(features\/|app\.ts$|bootstrap\.ts$|main\.ts$|cli\/)/)).toEqual([]);
  });

  it("db/ imports no feature", () => {
    expect(crossings("db", /^(features\/|app\.ts$|cli\/)/)).toEqual([]);
  });

  it("no shipped file imports tools/ (the simulators); only test/ and test files may", () => {
    const shipped = sourceFiles(src).filter((file) => !path.relative(src, file).startsWith("test/"));
    expect(shipped.length).toBeGreaterThan(100);
    expect(crossings("", TOOLS, shipped)).toEqual([]);
  });

  it("sees an import that crosses, so the checks above can fail", () => {
    expect(importsOf(path.join(src, "app.ts")).some((target) => target.startsWith("features/"))).toBe(true);
    expect(crossings("test", TOOLS)).toContain("test/payments.ts -> ../../../tools/payment-simulator/simulator.ts");
  });
});
