import { describe, expect, it } from "vitest";
import { playwrightCounts, suiteOutcome, vitestCounts, vitestFailures } from "./outcome.ts";

describe("how npm test counts a step", () => {
  it("counts a suite that wrote no report as a failure, with why", () => {
    expect(suiteOutcome("Browser tests", false, null)).toEqual({
      passed: 0,
      failed: 1,
      problem: "Browser tests: wrote no report",
    });
  });

  it("counts a suite that ran no test as a failure, even when its process says all is well", () => {
    expect(suiteOutcome("Browser tests", true, { passed: 0, failed: 0 })).toEqual({
      passed: 0,
      failed: 1,
      problem: "Browser tests: ran no tests",
    });
  });

  it("adds one failure for a process that failed with no failing test (a web server that did not start)", () => {
    expect(suiteOutcome("Browser tests", false, { passed: 225, failed: 0 })).toMatchObject({ passed: 225, failed: 1 });
    expect(suiteOutcome("Browser tests", false, { passed: 225, failed: 0 }).problem).toContain("process failed");
  });

  it("takes the counts as they are when the process agrees with them", () => {
    expect(suiteOutcome("HTTP", true, { passed: 10, failed: 0 })).toEqual({ passed: 10, failed: 0, problem: null });
    expect(suiteOutcome("HTTP", false, { passed: 10, failed: 2 })).toEqual({ passed: 10, failed: 2, problem: null });
  });

  it("counts a test file that failed to load once per broken file, only when no test failed", () => {
    const report = { numPassedTests: 50, numFailedTests: 0, numFailedTestSuites: 2 };
    expect(vitestCounts(false, report)).toEqual({ passed: 50, failed: 2 });
    expect(vitestCounts(false, { ...report, numFailedTestSuites: 0 })).toEqual({ passed: 50, failed: 1 });
    expect(vitestCounts(true, report)).toEqual({ passed: 50, failed: 0 });
    expect(vitestCounts(false, { ...report, numFailedTests: 3 })).toEqual({ passed: 50, failed: 3 });
  });

  it("counts a flaky browser test that passed on its retry as passed", () => {
    expect(playwrightCounts({ expected: 10, unexpected: 1, flaky: 2 })).toEqual({ passed: 12, failed: 1 });
  });

  it("names each failed test with its file and the first line of its reason, and each file that did not load", () => {
    const report = {
      testResults: [
        {
          name: "/repo/apps/server/src/a.test.ts",
          status: "failed",
          assertionResults: [
            { fullName: "a passes", status: "passed" },
            { fullName: "a fails", status: "failed", failureMessages: ["AssertionError: 1 !== 2\n    at a.test.ts:3"] },
          ],
        },
        { name: "/repo/b.test.ts", status: "failed", message: "SyntaxError: oops\nmore", assertionResults: [] },
        { name: "/repo/c.test.ts", status: "passed", assertionResults: [{ fullName: "c", status: "passed" }] },
      ],
    };
    expect(vitestFailures(report, "/repo")).toEqual([
      "apps/server/src/a.test.ts › a fails: AssertionError: 1 !== 2",
      "b.test.ts: SyntaxError: oops",
    ]);
    expect(vitestFailures({ testResults: [] }, "/repo")).toEqual([]);
  });
});
