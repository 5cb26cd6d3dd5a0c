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
