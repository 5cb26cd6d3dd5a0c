import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The console's folders form layers: a folder may import another only if that
 * one never imports it back, however many folders lie between. A loop (shell
 * read stores, stores read shell) means neither can change or be understood
 * without the other; what both need belongs in a folder below them (lib/) or
 * in the one that owns the idea.
 */
const admin = import.meta.dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every relative module a file imports or re-exports (types and lazy imports included), as absolute paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [
    ...text.matchAll(/\b(?:import|export)\b[^'"]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']\s*\)?/g),
  ]
    .map((m) => m[1] ?? m[2] ?? "")
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => path.resolve(path.dirname(file), specifier));
}

/** The top folder under admin/ that holds a path, or undefined outside admin/ (ui/, lib/ of the web app). */
function folderOf(file: string): string | undefined {
  const relative = path.relative(admin, file);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
  const [first, ...rest] = relative.split(path.sep);
  return rest.length > 0 ? first : undefined;
}

/** folder -> the other admin folders its files import. */
function folderGraph(root: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(root)) {
    const from = folderOf(file);
    if (!from) continue;
    const targets = graph.get(from) ?? new Set<string>();
    graph.set(from, targets);
    for (const target of importsOf(file).map(folderOf)) {
      if (target && target !== from) targets.add(target);
    }
  }
  return graph;
}

/** One loop per folder that can reach itself, as "a -> b -> a" (the shortest way back). */
function folderLoops(graph: Map<string, Set<string>>): string[] {
  const loops = new Set<string>();
  for (const start of [...graph.keys()].sort()) {
    // Breadth first, so the loop reported is the shortest one through `start`.
    const cameFrom = new Map<string, string>();
    const queue = [...(graph.get(start) ?? [])].sort();
    for (const next of queue) cameFrom.set(next, start);
    while (queue.length > 0) {
      const current = queue.shift() as string;
      if (current === start) {
        const way = [start];
        for (let at = cameFrom.get(start) as string; at !== start; at = cameFrom.get(at) as string) way.unshift(at);
        loops.add([start, ...way].join(" -> "));
        break;
      }
      for (const next of [...(graph.get(current) ?? [])].sort()) {
        if (!cameFrom.has(next)) {
          cameFrom.set(next, current);
          queue.push(next);
        }
      }
    }
  }
  return [...loops];
}

describe("admin folder loops", () => {
  it("no admin folder imports one that imports it back", () => {
    const graph = folderGraph(admin);
    expect(graph.size).toBeGreaterThan(8);
    expect(folderLoops(graph)).toEqual([]);
  });

  it("reads the imports between folders, so the check above can fail", () => {
    const graph = folderGraph(admin);
    // Every screen sits in the shell's page header; the stores screen reads settings.
    expect(graph.get("stores")).toContain("shell");
    expect(graph.get("stores")).toContain("settings");
  });

  it("finds a loop through any number of folders, and none in layers", () => {
    const graph = (edges: Record<string, string[]>) =>
      new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));
    expect(folderLoops(graph({ shell: ["stores"], stores: ["shell"] }))).toEqual([
      "shell -> stores -> shell",
      "stores -> shell -> stores",
    ]);
    expect(folderLoops(graph({ a: ["b"], b: ["c"], c: ["a"], d: ["a"] }))).toEqual([
      "a -> b -> c -> a",
      "b -> c -> a -> b",
      "c -> a -> b -> c",
    ]);
    expect(
      folderLoops(graph({ stores: ["settings", "shell", "lib"], settings: ["shell", "lib"], shell: ["lib"] })),
    ).toEqual([]);
  });
});
