import type { Page } from "@playwright/test";
import { createStore, expect, test } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { enterStore, withoutCard } from "./support/shopping.ts";

/** On the payment provider's card page (the simulator's): types a test card and saves it. */
async function addCardAtProvider(page: Page, number = "4242 4242 4242 4242") {
  await expect(page.getByRole("heading", { name: "Lägg till betalkort" })).toBeVisible();
  await page.getByLabel("Kortnummer", { exact: true }).fill(number);
  await page.getByLabel("Giltig till", { exact: true }).fill("12/34");
  await page.getByLabel("CVC", { exact: true }).fill("123");
  await page.getByRole("button", { name: "Spara kort" }).click();
}

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
  // Brand in any case: how brands are written is another change's (issue 22, item 9).
  await expect(page.getByTestId("card-on-file")).toHaveText("Visa •••• 4242");

  await page.getByRole("link", { name: "Byt kort" }).click();
  await page.getByLabel("Kortnummer", { exact: true }).fill("5555 5555 5555 4444");
  await page.getByLabel("Giltig till", { exact: true }).fill("11/33");
  await page.getByLabel("CVC", { exact: true }).fill("321");
  await page.getByRole("button", { name: "Spara kort" }).click();
  await expect(page.getByTestId("card-on-file")).toHaveText("Mastercard •••• 4444");
  await page.reload();
  await expect(page.getByTestId("card-on-file")).toHaveText("Mastercard •••• 4444");

  await page.getByRole("button", { name: "Ta bort kortet" }).click();
  await expect(page.getByText("Kortet är borttaget.")).toBeVisible();
  await expect(page.getByTestId("card-on-file")).toHaveText("Inget kort sparat");

  // "Tillbaka" leads to the start page it came from, not back through the provider's form.
  await page.getByRole("link", { name: "Tillbaka" }).click();
  await expect(page).toHaveURL(/\/customer$/);
});

test("the exit says there is no card and leads to the card page", async ({ page }) => {
  await withoutCard(page, await enterStore(page));
  await page.goto("/customer/exit");
  await expect(page.getByRole("heading", { name: "Scanna för att gå ut" })).toBeVisible();
  await expect(page.getByText("Du har inget betalkort sparat.")).toBeVisible();
  await page.getByRole("link", { name: "Lägg till betalkort" }).click();
  await expect(page).toHaveURL(/\/customer\/betalkort\?return=%2Fcustomer%2Fexit$/);

  // "Avbryt" on the provider's page comes back to the card page, still on the way to the exit.
  await page.getByRole("link", { name: "Lägg till kort" }).click();
  await page.getByRole("link", { name: "Avbryt" }).click();
  await expect(page).toHaveURL(/\/customer\/betalkort\?return=%2Fcustomer%2Fexit$/);
  await expect(page.getByTestId("card-on-file")).toHaveText("Inget kort sparat");

  await page.getByRole("link", { name: "Lägg till kort" }).click();
  await addCardAtProvider(page);
  await expect(page).toHaveURL(/\/customer\/betalkort\?return=%2Fcustomer%2Fexit$/);
  await expect(page.getByText("Kortet är sparat.")).toBeVisible();
  await page.getByRole("link", { name: "Tillbaka" }).click();
  await expect(page).toHaveURL(/\/customer\/exit$/);
  await expect(page.getByRole("heading", { name: "Scanna för att gå ut" })).toBeVisible();
  await expect(page.getByText("Du har inget betalkort sparat.")).toHaveCount(0);
});

test("the card page goes back only to the shopper app's own pages", async ({ page }) => {
  await enterStore(page);
  const back = page.getByRole("link", { name: "Tillbaka" });
  // [what ?return= says, where "Tillbaka" leads]: only a path of the shopper app is taken, else the start page.
  const cases: [string, string | null][] = [
    ["/customer/exit", "/customer/exit"],
    ["/customer/receipts?x=1", "/customer/receipts?x=1"],
    ["/customer", "/customer"],
    ["https://evil.example/customer/exit", null],
    ["//evil.example/customer/exit", null],
    ["/\\evil.example/customer", null],
    ["javascript:alert(1)", null],
    ["/sessions", null],
    ["/customer/../sessions", null],
    ["/customerx", null],
    ["/customer/betalkort", null],
  ];
  for (const [given, taken] of cases) {
    await page.goto(`/customer/betalkort?return=${encodeURIComponent(given)}`);
    await expect(page.getByTestId("card-on-file")).toBeVisible();
    await expect(back, given).toHaveAttribute("href", taken ?? "/customer");
    // The provider's page is given this page back, with the return only when it is one of ours.
    const add = await page.getByRole("link", { name: /^(Lägg till|Byt) kort$/ }).getAttribute("href");
    const returnUrl = new URL(new URL(add!).searchParams.get("return_url")!);
    expect(returnUrl.origin).toBe(new URL(page.url()).origin);
    expect(`${returnUrl.pathname}${returnUrl.search}`, given).toBe(
      taken ? `/customer/betalkort?return=${encodeURIComponent(taken)}` : "/customer/betalkort",
    );
  }
});

test("a store that asks for a card at the door: the entry page says so, the card page comes back to a code", async ({
  page,
}) => {
  // On a phone the login page opens BankID's app (a universal link): a 204 keeps the page where it is.
  await page.route("https://app.bankid.com/**", (route) => route.fulfill({ status: 204 }));
  const store = await createStore(page.request, { requireCard: true });
  const login = await page.request.post("/api/v1/auth/dev-login");
  const { access_token } = (await login.json()) as { access_token: string };
  const removed = await page.request.delete("/api/v1/payment-method", {
    headers: { Authorization: `Bearer ${access_token}` },
  });
  expect(removed.status(), await removed.text()).toBe(204);

  await page.goto(`/customer/login?store_id=${store.id}`);
  await page.getByRole("button", { name: "Quick Dev Login" }).click();
  await expect(page).toHaveURL(/\/customer\/qr-entry$/, { timeout: 10_000 });
  await expect(page.getByRole("heading", { name: "Lägg till ett betalkort" })).toBeVisible();
  await expect(
    page.getByText("Lägg till ett betalkort innan du går in, så betalas köpet automatiskt när du går ut."),
  ).toBeVisible();
  // No code the door could open.
  await expect(page.getByRole("img", { name: "QR-kod för inträde i butiken" })).toHaveCount(0);
  await expectAccessible(page, "the entry page asking for a card");

  await page.getByRole("link", { name: "Lägg till betalkort" }).click();
  await expect(page).toHaveURL(/\/customer\/betalkort\?return=%2Fcustomer%2Fqr-entry$/);
  await page.getByRole("link", { name: "Lägg till kort" }).click();
  await addCardAtProvider(page);
  await expect(page.getByText("Kortet är sparat.")).toBeVisible();
  await page.getByRole("link", { name: "Tillbaka" }).click();
  await expect(page).toHaveURL(/\/customer\/qr-entry$/);
  await expect(page.getByRole("img", { name: "QR-kod för inträde i butiken" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("store_id"))).toBe(store.id);

  // The code opens the door as any other: the door scanner reads it, the shop page follows.
  const entry = await page.evaluate(() => ({
    session_id: localStorage.getItem("session_id"),
    session_token: localStorage.getItem("session_token"),
    store_id: localStorage.getItem("store_id"),
  }));
  const door = await page.request.post("/api/v1/sessions/door/scan", {
    data: entry,
    headers: { Authorization: `Device ${store.doorKey}` },
  });
  expect(door.ok(), await door.text()).toBe(true);
  await expect(page.getByText("Dörr öppnad! Välkommen in!")).toBeVisible();
  await expect(page).toHaveURL(/\/customer\/shop$/);
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
  await expect(page.getByRole("link", { name: "Lägg till betalkort" })).toHaveAttribute(
    "href",
    "/customer/betalkort?return=%2Fcustomer%2Fqr-entry",
  );
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
