import { createStore, expect, isPhone, openNav, signIn, test } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";

test("a platform admin renames a store, then finds the change in the audit log with its old and new name", async ({
  page,
}) => {
  await signIn(page);
  const store = await createStore(page.request);
  const renamed = `${store.name} Nord`;

  // The change, made in the console.
  await openNav(page);
  await page.getByRole("link", { name: "Stores", exact: true }).click();
  const card = page.getByRole("article", { name: store.name, exact: true });
  await card.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Store" });
  await edit.getByLabel("Store Name *").fill(renamed);
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole("article", { name: renamed, exact: true })).toBeVisible();
  // The "Store updated" notice is closed so that it is not part of the audit log page's checks below.
  const notice = page.locator("[data-sonner-toast]").filter({ hasText: "Store updated" });
  await notice.getByRole("button", { name: "Close toast" }).click();
  await expect(notice).toHaveCount(0);

  // The log is reached from the account area of the sidebar.
  await openNav(page);
  await page.getByRole("link", { name: "Audit log" }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  await expect(page).toHaveTitle("Audit log · Glide");

  await page.getByRole("searchbox", { name: "Search the audit log" }).fill(renamed);
  await expect(page).toHaveURL(/search=/);
  const summary = `Store "${renamed}" updated: name`;
  const entry = page.getByRole("button", { name: summary });
  await expect(entry).toHaveCount(1);
  // On a phone the log is a list of cards; on a wide screen a table.
  await expect(page.getByRole(isPhone(page) ? "list" : "table", { name: "Audit log" })).toBeVisible();
  await expect(page.getByText("1 change", { exact: true })).toBeVisible();
  await expectAccessible(page, "the audit log");

  // Keyboard: the entry opens with Enter and closes with Escape, focus back where it was.
  await entry.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Audit entry" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("store.update");
  await expect(dialog).toContainText("e2e-admin@example.se");
  const nameRow = dialog.getByRole("row").filter({ hasText: "(changed)" });
  await expect(nameRow).toHaveCount(1);
  await expect(nameRow.getByRole("rowheader")).toContainText("name");
  await expect(nameRow.getByRole("cell").nth(0)).toHaveText(store.name);
  await expect(nameRow.getByRole("cell").nth(1)).toHaveText(renamed);
  // Fields the change did not touch are there, unmarked.
  await expect(dialog.getByRole("row").filter({ hasText: "Testköping" })).not.toContainText("(changed)");
  await expectAccessible(page, "an audit entry");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(entry).toBeFocused();

  // The filters live in the URL: a reload shows the same list.
  await page.getByLabel("Action").selectOption("store.");
  await expect(page).toHaveURL(/action=store\./);
  await page.reload();
  await expect(page.getByRole("searchbox", { name: "Search the audit log" })).toHaveValue(renamed);
  await expect(page.getByLabel("Action")).toHaveValue("store.");
  await expect(page.getByRole("button", { name: summary })).toBeVisible();
  await page.getByLabel("Action").selectOption("product.");
  await expect(page.getByText("No changes found")).toBeVisible();
});

test("a store admin sees no Audit log link, and the page says it is not for them", async ({ page }) => {
  await signIn(page);
  // The e2e server has one platform admin; the console decides what to show from /me, so a store admin's answer
  // is enough here. The server's own 403 for store admins is tested in audit.reading.test.ts.
  const me = await (await page.request.get("/api/v1/admin/me")).json();
  await page.route("**/api/v1/admin/me", (route) =>
    route.fulfill({ json: { ...me, role: "store_admin", store_ids: [] } }),
  );
  await page.goto("/");
  await openNav(page);
  await expect(page.getByRole("link", { name: "Dashboard", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Audit log" })).toHaveCount(0);

  await page.goto("/audit");
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  await expect(page.getByText("Only platform administrators can see the audit log.")).toBeVisible();
  await expect(page.getByRole("searchbox", { name: "Search the audit log" })).toHaveCount(0);
});
