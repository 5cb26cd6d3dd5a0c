import type { Page } from "@playwright/test";
import { expect } from "../fixtures.ts";

/** Today in Stockholm as the server counts it (the test stores keep Stockholm's calendar), moved by `days`. */
export async function serverDay(page: Page, days = 0): Promise<string> {
  const answer = await page.request.get("/api/v1/vat-rates?country=SE");
  expect(answer.ok(), await answer.text()).toBe(true);
  const date = new Date(`${((await answer.json()) as { today: string }).today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
