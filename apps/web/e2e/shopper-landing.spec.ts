import { expect, test } from "./fixtures.ts";

const INVALID = "Länken leder inte till någon butik. Skanna QR-koden vid butikens dörr igen.";

test("a store link that names no store says so in Swedish, on the landing and the login page", async ({ page }) => {
  for (const storeId of ["nope", "123e4567-e89b-12d3-a456-42661417400"]) {
    await page.goto(`/customer?store_id=${storeId}`);
    await expect(page.getByRole("alert")).toHaveText(INVALID);
    await expect(page.getByText(/store_id|UUID/)).toHaveCount(0);
  }
  await page.goto("/customer/login?store_id=nope");
  await expect(page.getByRole("alert").filter({ hasText: INVALID })).toBeVisible();

  // A well-formed id still asks the server, whose answer is Swedish too.
  await page.goto("/customer?store_id=00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("alert")).toHaveText("Butiken finns inte.");
});

test("the public store route answers a malformed id in Swedish, naming no field", async ({ request }) => {
  const res = await request.get("/api/v1/public/stores/nope");
  expect(res.status()).toBe(400);
  expect(await res.json()).toMatchObject({ detail: INVALID, code: "invalid_store_id" });
});
