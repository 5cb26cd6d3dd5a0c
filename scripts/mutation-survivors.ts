/**
 * Lists what a mutation run left alive, one line per mutant, from the JSON
 * report of `npm run mutate` (stryker.config.mjs writes one per group):
 *
 *   npm run mutate:survivors -- reports/mutation/cart/mutation.json
 *
 * Each line: file:line:column, status, the mutator, and the code as mutated.
 * Ends with each file's score (killed and timed out over every counted mutant).
 */
import { readFileSync } from "node:fs";
import path from "node:path";

type Mutant = {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  static?: boolean;
  location: { start: { line: number; column: number } };
};
type Report = { files: Record<string, { mutants: Mutant[] }> };

const DETECTED = new Set(["Killed", "Timeout"]);
const UNDETECTED = new Set(["Survived", "NoCoverage"]);

const file = process.argv[2];
if (!file) {
  console.error("usage: npm run mutate:survivors -- <mutation.json>");
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, "utf8")) as Report;
const scores: string[] = [];
for (const [name, { mutants }] of Object.entries(report.files)) {
  const short = path.relative(process.cwd(), path.resolve(name));
  const alive = mutants
    .filter((m) => UNDETECTED.has(m.status))
    .sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column);
  for (const m of alive) {
    const where = `${short}:${m.location.start.line}:${m.location.start.column}`;
    const code = (m.replacement ?? "").replace(/\s+/g, " ").slice(0, 140);
    console.log(`${where}\t${m.status}${m.static ? " (static)" : ""}\t${m.mutatorName}\t${code}`);
  }
  const detected = mutants.filter((m) => DETECTED.has(m.status)).length;
  const counted = detected + alive.length;
  const score = counted === 0 ? 100 : (100 * detected) / counted;
  scores.push(`${short}: ${score.toFixed(1)} % (${detected} detected, ${alive.length} undetected)`);
}
console.log(scores.join("\n"));
