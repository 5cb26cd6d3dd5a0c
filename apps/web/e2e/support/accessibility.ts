import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "../fixtures.ts";

/** WCAG 2.1 A and AA, and axe's best practices: labels, names, contrast, landmarks, headings. */
const RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/** Fails with every axe violation on the page as it is now, each with where it is. */
export async function expectAccessible(page: Page, what: string) {
  // A colour still fading after a theme switch (transition-colors) is not the contrast anyone reads. Only
  // animations that end are waited for: a spinner or the Sessions screen's live dot never finishes.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        // One cancelled meanwhile (a transition cut short) rejects: it is over all the same.
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const { violations } = await new AxeBuilder({ page }).withTags(RULES).analyze();
  const found = violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target).join(", ")}`);
  expect(found, `accessibility of ${what}`).toEqual([]);
}
