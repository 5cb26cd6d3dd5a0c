import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * The repository's own import graph, read from the source text: what each
 * file imports (types and lazy imports included), the loops in it, and the
 * files that grew too long. The structure tests hold the code to it, so a
 * circle or a 600-line service is a failing test rather than a review
 * comment.
 */

const SOURCE = /\.tsx?$/;
/** Tests, and the setup modules beside them (`*.fixtures.ts`), which may reach across layers as tests do. */
const TEST = /\.(test|spec|vitest|fixtures)\.tsx?$/;

/** Every .ts/.tsx file under `dir` (tests too when `withTests`), skipping node_modules, build output and migrations. */
export function sourceFiles(dir: string, withTests = false): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return ["node_modules", "dist", "migrations", ".vite"].includes(entry.name) ? [] : sourceFiles(full, withTests);
    }
    return SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") && (withTests || !TEST.test(entry.name))
      ? [full]
      : [];
  });
}

/** The file a relative specifier names, trying the extensions and index files the bundler would. */
function resolve(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** The relative modules a file imports or re-exports, as absolute paths of files that exist. */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [
    ...text.matchAll(/\b(?:import|export)\b[^'"]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']\s*\)?/g),
  ].map((m) => m[1] ?? m[2] ?? "");
  return specifiers
    .filter((specifier) => specifier.startsWith("."))
    .flatMap((specifier) => resolve(file, specifier) ?? []);
}

export type Graph = Map<string, Set<string>>;

/** file -> the files it imports, over `files`. */
export function fileGraph(files: readonly string[]): Graph {
  return new Map(files.map((file) => [file, new Set(importsOf(file))]));
}

/**
 * The graph between groups of files: `groupOf` names a file's group (a
 * feature folder, a console area) or undefined for files outside every group.
 */
export function groupGraph(graph: Graph, groupOf: (file: string) => string | undefined): Graph {
  const groups: Graph = new Map();
  for (const [file, targets] of graph) {
    const from = groupOf(file);
    if (!from) continue;
    const edges = groups.get(from) ?? new Set<string>();
    groups.set(from, edges);
    for (const target of targets) {
      const to = groupOf(target);
      if (to && to !== from) edges.add(to);
    }
  }
  return groups;
}

/**
 * One loop per node that can reach itself, as "a -> b -> a", the shortest
 * way back (breadth first), so a failure names the imports to cut.
 */
export function loops(graph: Graph): string[] {
  const found = new Set<string>();
  for (const start of [...graph.keys()].sort()) {
    const cameFrom = new Map<string, string>();
    const queue = [...(graph.get(start) ?? [])].sort();
    for (const next of queue) cameFrom.set(next, start);
    while (queue.length > 0) {
      const current = queue.shift() as string;
      if (current === start) {
        const way = [start];
        for (let at = cameFrom.get(start) as string; at !== start; at = cameFrom.get(at) as string) way.unshift(at);
        found.add([start, ...way].join(" -> "));
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
  return [...found];
}

/** The files longer than `limit` lines, as "path: lines". */
export function longFiles(files: readonly string[], limit: number, root: string): string[] {
  return files.flatMap((file) => {
    const lines = readFileSync(file, "utf8").split("\n").length - 1;
    return lines > limit ? [`${path.relative(root, file)}: ${lines}`] : [];
  });
}
