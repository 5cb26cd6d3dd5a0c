import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "../fixtures.ts";

/** WCAG 2.1 A and AA, and axe's best practices: labels, names, contrast, landmarks, headings. */
const RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/** Fails with every axe violation on the page as it is now, each with where it is. */
export async function expectAccessible(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(RULES).analyze();
  const found = violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target).join(", ")}`);
  expect(found, `accessibility of ${what}`).toEqual([]);
}
