/**
 * How `npm test` counts a step: green must mean that every test ran. A
 * step with no report, a suite that ran no test, or a process that failed
 * without a failing test (a crash, a server that did not start) each count
 * as one more failure, with the reason to show above the total.
 */
export type Counts = { passed: number; failed: number };

export function suiteOutcome(
  title: string,
  processOk: boolean,
  counts: Counts | null,
): Counts & { problem: string | null } {
  if (!counts) return { passed: 0, failed: 1, problem: `${title}: wrote no report` };
  if (counts.passed + counts.failed === 0) return { passed: 0, failed: 1, problem: `${title}: ran no tests` };
  if (!processOk && counts.failed === 0)
    return { ...counts, failed: 1, problem: `${title}: its process failed although no test did` };
  return { ...counts, problem: null };
}

/** Vitest's JSON report: a file that fails to load has no failing test but is a failed suite, counted once each. */
export function vitestCounts(
  processOk: boolean,
  report: { numPassedTests: number; numFailedTests: number; numFailedTestSuites: number },
): Counts {
  const brokenSuites = report.numFailedTests === 0 && !processOk ? Math.max(1, report.numFailedTestSuites) : 0;
  return { passed: report.numPassedTests, failed: report.numFailedTests + brokenSuites };
}

/** Playwright's JSON report: a flaky test passed on its retry. */
export function playwrightCounts(stats: { expected: number; unexpected: number; flaky: number }): Counts {
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected };
}

type VitestReport = {
  testResults?: {
    name: string;
    status?: string;
    message?: string;
    assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
};

/**
 * Each failed test of a Vitest report as "file › test: first line of the
 * reason", and each file that failed to load, so the final lines of a long
 * run say what failed without scrolling back.
 */
export function vitestFailures(report: VitestReport, root: string): string[] {
  const firstLine = (text: string | undefined) => (text ?? "").trim().split("\n")[0]?.slice(0, 200) ?? "";
  const failures: string[] = [];
  for (const file of report.testResults ?? []) {
    const name = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
    const failed = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failed) failures.push(`${name} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (failed.length === 0 && file.status === "failed") failures.push(`${name}: ${firstLine(file.message)}`);
  }
  return failures;
}
