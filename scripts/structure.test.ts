import path from "node:path";
import { describe, expect, it } from "vitest";
import { fileGraph, groupGraph, importsOf, longFiles, loops, sourceFiles } from "./import-graph.ts";

/**
 * The shape docs/architecture.md describes, held by tests: no module imports
 * itself back through others, no feature folder climbs back into one that
 * imports it, the shopper app and the console share nothing but ui/ and
 * lib/, and no source file passes 400 lines.
 */
const root = path.resolve(import.meta.dirname, "..");
const at = (...parts: string[]) => path.join(root, ...parts);

const shipped = ["apps/server/src", "apps/web/src", "packages/contracts/src", "tools", "scripts", "bench"].flatMap(
  (dir) => sourceFiles(at(dir)),
);

/** The folder right under `base` that holds a file, or undefined for files elsewhere or directly in `base`. */
const folderUnder = (base: string) => (file: string) => {
  const relative = path.relative(at(base), file);
  if (relative.startsWith("..")) return undefined;
  const [first, ...rest] = relative.split(path.sep);
  return rest.length > 0 ? first : undefined;
};

describe("structure", () => {
  it("no module imports itself back, however many modules lie between", () => {
    const graph = fileGraph(shipped);
    const cycles = loops(graph).map((loop) =>
      loop
        .split(" -> ")
        .map((file) => path.relative(root, file))
        .join(" -> "),
    );
    expect(cycles).toEqual([]);
  });

  it("no server feature imports one that imports it back", () => {
    const features = shipped.filter((file) => file.startsWith(at("apps/server/src/features")));
    const graph = groupGraph(fileGraph(features), folderUnder("apps/server/src/features"));
    expect(graph.size).toBeGreaterThan(20);
    expect(loops(graph)).toEqual([]);
  });

  it("no console folder imports one that imports it back (shared code lives in admin/lib/)", () => {
    const admin = shipped.filter((file) => file.startsWith(at("apps/web/src/admin")));
    const graph = groupGraph(fileGraph(admin), folderUnder("apps/web/src/admin"));
    expect(graph.size).toBeGreaterThan(8);
    // Every screen sits in the shell's page header and the stores screen reads settings, so the graph is read.
    expect(graph.get("stores")).toContain("shell");
    expect(graph.get("stores")).toContain("settings");
    expect(loops(graph)).toEqual([]);
  });

  it("no shopper-app folder imports one that imports it back", () => {
    const shopper = shipped.filter((file) => file.startsWith(at("apps/web/src/shopper")));
    const graph = groupGraph(fileGraph(shopper), folderUnder("apps/web/src/shopper"));
    expect(graph.size).toBeGreaterThan(5);
    expect(loops(graph)).toEqual([]);
  });

  it("the shopper app and the console import nothing of each other", () => {
    const web = shipped.filter((file) => file.startsWith(at("apps/web/src")));
    const crossing = web.flatMap((file) => {
      const from = folderUnder("apps/web/src")(file);
      if (from !== "shopper" && from !== "admin") return [];
      const other = at("apps/web/src", from === "shopper" ? "admin" : "shopper");
      return importsOf(file)
        .filter((target) => target.startsWith(other + path.sep))
        .map((target) => `${path.relative(root, file)} -> ${path.relative(root, target)}`);
    });
    expect(crossing).toEqual([]);
  });

  it("no source file is longer than 400 lines, tests included (generated code and migrations aside)", () => {
    const everything = [
      "apps/server/src",
      "apps/web/src",
      "apps/web/e2e",
      "packages/contracts/src",
      "tools",
      "scripts",
      "bench",
    ].flatMap((dir) => sourceFiles(at(dir), true));
    expect(everything.length).toBeGreaterThan(shipped.length + 150);
    expect(longFiles(everything, 400, root)).toEqual([]);
  });

  it("finds loops through any number of nodes and none in layers, so the checks above can fail", () => {
    const graph = (edges: Record<string, string[]>) =>
      new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));
    expect(loops(graph({ a: ["b"], b: ["c"], c: ["a"], d: ["a"] }))).toEqual([
      "a -> b -> c -> a",
      "b -> c -> a -> b",
      "c -> a -> b -> c",
    ]);
    expect(loops(graph({ exit: ["checkout", "orders"], checkout: ["orders"], orders: [] }))).toEqual([]);
    // Real imports are read: the app assembles the features, a long file is counted.
    expect(
      importsOf(at("apps/server/src/app.ts")).some((file) => file.includes(`${path.sep}features${path.sep}`)),
    ).toBe(true);
    expect(longFiles([at("apps/server/src/app.ts")], 10, root)).toHaveLength(1);
  });
});
