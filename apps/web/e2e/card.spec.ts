import { createStore, expect, test } from "./fixtures.ts";
import { enterStore, withoutCard } from "./support/shopping.ts";

test("the shopper adds a card on the card page, replaces it and removes it", async ({ page }) => {
  await withoutCard(page, await enterStore(page));
  await page.goto("/customer");
  await page.getByRole("link", { name: "Betalkort" }).click();
  await expect(page).toHaveURL(/\/customer\/betalkort$/);
  await expect(page.getByTestId("card-on-file")).toHaveText("Inget kort sparat");

  // The payment provider's card page, and back with the card it made.
  await page.getByRole("link", { name: "Lägg till kort" }).click();
  await expect(page.getByRole("heading", { name: "Lägg till betalkort" })).toBeVisible();
  await page.getByLabel("Kortnummer", { exact: true }).fill("4242 4242 4242 4242");
  await page.getByLabel("Giltig till", { exact: true }).fill("12/34");
  await page.getByLabel("CVC", { exact: true }).fill("123");
  await page.getByRole("button", { name: "Spara kort" }).click();
  await expect(page).toHaveURL(/\/customer\/betalkort$/);
  await expect(page.getByText("Kortet är sparat.")).toBeVisible();
  await expect(page.getByTestId("card-on-file")).toHaveText("visa •••• 4242");

  await page.getByRole("link", { name: "Byt kort" }).click();
  await page.getByLabel("Kortnummer", { exact: true }).fill("5555 5555 5555 4444");
  await page.getByLabel("Giltig till", { exact: true }).fill("11/33");
  await page.getByLabel("CVC", { exact: true }).fill("321");
  await page.getByRole("button", { name: "Spara kort" }).click();
  await expect(page.getByTestId("card-on-file")).toHaveText("mastercard •••• 4444");
  await page.reload();
  await expect(page.getByTestId("card-on-file")).toHaveText("mastercard •••• 4444");

  await page.getByRole("button", { name: "Ta bort kortet" }).click();
  await expect(page.getByText("Kortet är borttaget.")).toBeVisible();
  await expect(page.getByTestId("card-on-file")).toHaveText("Inget kort sparat");
});

test("the exit says there is no card and leads to the card page", async ({ page }) => {
  await withoutCard(page, await enterStore(page));
  await page.goto("/customer/exit");
  await expect(page.getByRole("heading", { name: "Scanna för att gå ut" })).toBeVisible();
  await expect(page.getByText("Du har inget betalkort sparat.")).toBeVisible();
  await page.getByRole("link", { name: "Lägg till betalkort" }).click();
  await expect(page).toHaveURL(/\/customer\/betalkort$/);
});

test("the entry QR page says, before the door, that no card is saved", async ({ page }) => {
  const visit = await enterStore(page);
  await withoutCard(page, visit);
  // Another store: a new entry code to the store of the open visit continues that visit, whose door is open.
  const next = await createStore(page.request);
  await page.goto(`/customer/login?store_id=${next.id}`);
  await page.route("https://app.bankid.com/**", (route) => route.fulfill({ status: 204 }));
  await page.getByRole("button", { name: "Quick Dev Login" }).click();
  await expect(page.getByRole("img", { name: "QR-kod för inträde i butiken" })).toBeVisible({ timeout: 10_000 });
  await expect(
    page.getByText("Du har inget betalkort sparat. Lägg till ett innan du går in, så betalas köpet när du går ut."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Lägg till betalkort" })).toHaveAttribute("href", "/customer/betalkort");
});

test("the face check is off until the shopper agrees, and the consent is taken back as easily", async ({ page }) => {
  const visit = await enterStore(page);
  const consent = async () =>
    (
      (await (
        await page.request.get("/api/v1/face/consent", { headers: { Authorization: `Bearer ${visit.accessToken}` } })
      ).json()) as { consent: boolean }
    ).consent;
  await page.request.put("/api/v1/face/consent", {
    data: { consent: false },
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  await page.goto("/customer/betalkort");
  const box = page.getByRole("checkbox", { name: "Jag samtycker till ansiktsverifiering vid utgången" });
  await expect(box).not.toBeChecked();
  await box.check();
  await expect(page.getByText("Samtycket är sparat.")).toBeVisible();
  expect(await consent()).toBe(true);
  await page.reload();
  await expect(box).toBeChecked();
  await box.uncheck();
  await expect(page.getByText("Samtycket är återkallat.")).toBeVisible();
  expect(await consent()).toBe(false);
});

test("receipts go to the e-mail address the shopper gives; a wrong one is explained, an empty one stops them", async ({
  page,
}) => {
  const visit = await enterStore(page);
  await page.goto("/customer/betalkort");
  const field = page.getByLabel("E-postadress");
  await field.fill("inte en adress");
  await page.getByRole("button", { name: "Spara e-post" }).click();
  await expect(page.getByText("Skriv en giltig e-postadress, till exempel namn@example.se.")).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await field.fill("  kund@example.se ");
  await page.getByRole("button", { name: "Spara e-post" }).click();
  await expect(page.getByText("E-postadressen är sparad.")).toBeVisible();
  const profile = await page.request.get("/api/v1/profile", {
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  expect(((await profile.json()) as { email: string | null }).email).toBe("kund@example.se");
  await field.fill("");
  await page.getByRole("button", { name: "Spara e-post" }).click();
  await expect(page.getByText("Kvitton skickas inte längre på e-post.")).toBeVisible();
});
