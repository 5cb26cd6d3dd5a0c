import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The layers of ARCHITECTURE.md, held by a test: `platform/` knows no
 * domain (nothing under features/, nor the app that assembles them), and
 * `db/` holds schema and migrations that know no feature either. Test files
 * may reach across; shipped code may not.
 */
const src = path.resolve(import.meta.dirname, "..");

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

function crossings(layer: string, forbidden: RegExp): string[] {
  return sourceFiles(path.join(src, layer)).flatMap((file) =>
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

  it("sees an import that crosses, so the checks above can fail", () => {
    expect(importsOf(path.join(src, "app.ts")).some((target) => target.startsWith("features/"))).toBe(true);
  });
});
