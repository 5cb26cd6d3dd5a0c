import { VAT_CATEGORIES } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { homeToday } from "./vat-rate-table.ts";
import {
  added,
  auditOf,
  listed,
  nobody,
  periodCount,
  platform,
  platformEmail,
  storeAdmin,
  URL,
  useVatRatesApp,
} from "./vat-rates.fixtures.ts";

/**
 * The VAT rate table through the API: Sweden's law as seeded, what each
 * caller may do, a period's life (added, replaced, deleted) in the audit log,
 * and bad input. Overlaps and their races: vat-rates.boundaries.test.ts.
 */
useVatRatesApp();

const period = (rate: Record<string, unknown>) => ({
  country: rate.country,
  category: rate.category,
  rate: rate.rate,
  valid_from: rate.valid_from,
  valid_to: rate.valid_to,
});

describe("the list", () => {
  it("holds Swedish law as seeded, by category in their order and then first day, rates in percent", async () => {
    const list = await listed("SE");
    expect(list.today).toBe(homeToday());
    expect(list.items.map(period)).toEqual([
      { country: "SE", category: "standard", rate: 25, valid_from: "1990-07-01", valid_to: null },
      { country: "SE", category: "food", rate: 12, valid_from: "1996-01-01", valid_to: "2026-03-31" },
      { country: "SE", category: "food", rate: 6, valid_from: "2026-04-01", valid_to: "2027-12-31" },
      { country: "SE", category: "food", rate: 12, valid_from: "2028-01-01", valid_to: null },
      { country: "SE", category: "alcoholic_drink", rate: 25, valid_from: "1990-07-01", valid_to: null },
      { country: "SE", category: "books_newspapers", rate: 6, valid_from: "2002-01-01", valid_to: null },
      { country: "SE", category: "exempt", rate: 0, valid_from: "1990-07-01", valid_to: null },
    ]);
    const categories = list.items.map((r) => r.category);
    expect([...categories].sort((a, b) => VAT_CATEGORIES.indexOf(a) - VAT_CATEGORIES.indexOf(b))).toEqual(categories);
    for (const item of list.items) expect(Date.parse(item.updated_at)).not.toBeNaN();
  });

  it("lists one country when asked, and every country, by country, without", async () => {
    const norway = await added({ country: "NO", category: "food", rate: 15, valid_from: "2024-01-01" });
    await added({ country: "NO", category: "standard", rate: 25, valid_from: "2024-01-01", valid_to: null });
    expect((await listed("NO")).items.map((r) => [r.category, r.rate])).toEqual([
      ["standard", 25],
      ["food", 15],
    ]);
    expect((await listed("SE")).items.map((r) => r.id)).not.toContain(norway.id);
    const all = (await listed()).items;
    expect(all.map((r) => r.country)).toEqual([...all.map((r) => r.country)].sort());
    expect(new Set(all.map((r) => r.country))).toEqual(new Set(["NO", "SE"]));
    expect((await listed("DE")).items).toEqual([]);
  });

  it("is read by a store admin too, and by nobody unsigned", async () => {
    const res = await storeAdmin.get(`${URL}?country=SE`);
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toHaveLength(7);
    const unsigned = await nobody.get(URL);
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json().detail).toBeTruthy();
  });

  it("refuses an unknown country with 400 naming the codes", async () => {
    const res = await platform.get(`${URL}?country=XX`);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain("Unknown country code");
  });
});

describe("a period's life", () => {
  it("is added, replaced and deleted by a platform admin, each step in the audit log with before and after", async () => {
    const created = await added({ country: "FI", category: "food", rate: 14, valid_from: "2025-01-01" });
    expect(created).toMatchObject({
      country: "FI",
      category: "food",
      rate: 14,
      valid_from: "2025-01-01",
      valid_to: null,
    });
    expect((await listed("FI")).items).toEqual([created]);

    const body = { country: "FI", category: "food", rate: 13.5, valid_from: "2025-01-01", valid_to: "2025-12-31" };
    const put = await platform.put(`${URL}/${created.id}`, body);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ id: created.id, ...body });
    expect((await listed("FI")).items.map(period)).toEqual([body]);

    const deleted = await platform.delete(`${URL}/${created.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await listed("FI")).items).toEqual([]);

    const audit = await auditOf(created.id);
    expect(audit.map((a) => [a.action, a.entity_type, a.actor_email, a.store_id])).toEqual([
      ["vat_rate.create", "vat_rate", platformEmail, null],
      ["vat_rate.update", "vat_rate", platformEmail, null],
      ["vat_rate.delete", "vat_rate", platformEmail, null],
    ]);
    expect(audit.map((a) => a.summary)).toEqual([
      "VAT rate food in FI, 14 % from 2025-01-01 with no end created",
      'VAT rate "food in FI, 14 % from 2025-01-01 with no end" updated: rate, valid_to',
      "VAT rate food in FI, 13.5 % from 2025-01-01 to 2025-12-31 deleted",
    ]);
    expect(audit[0]).toMatchObject({ before: null, after: created });
    expect(audit[1]).toMatchObject({ before: created, after: put.json() });
    expect(audit[2]).toMatchObject({ before: put.json(), after: null });
  });

  it("shows in the audit log's VAT rates group, readable with before and after", async () => {
    const created = await added({ country: "DE", category: "food", rate: 7, valid_from: "1983-07-01" });
    const list = await platform.get(`/api/v1/admin/audit?action=vat_rate.&entity_id=${created.id}`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toHaveLength(1);
    const entry = await platform.get(`/api/v1/admin/audit/${list.json()[0].id}`);
    expect(entry.json()).toMatchObject({ action: "vat_rate.create", before: null, after: created });
  });

  it("records nothing for a replacement that changes nothing", async () => {
    const created = await added({ country: "DE", category: "standard", rate: 19, valid_from: "2007-01-01" });
    const same = await platform.put(`${URL}/${created.id}`, period(created));
    expect(same.statusCode).toBe(200);
    expect((await auditOf(created.id)).map((a) => a.action)).toEqual(["vat_rate.create"]);
  });

  it("answers 404 with a detail for an id that names no period, malformed or unknown", async () => {
    const body = { country: "SE", category: "standard", rate: 25, valid_from: "3000-01-01" };
    for (const id of ["0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e", "not-an-id", "12"]) {
      for (const res of [await platform.put(`${URL}/${id}`, body), await platform.delete(`${URL}/${id}`)]) {
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json().detail).toBe(`VAT rate ${id} not found`);
      }
    }
  });
});

describe("who may change the table", () => {
  it("refuses a store admin's add, replace and delete with 403, and writes nothing", async () => {
    const [seeded] = (await listed("SE")).items;
    const before = await periodCount();
    const body = { country: "SE", category: "food", rate: 6, valid_from: "3000-01-01" };
    for (const res of [
      await storeAdmin.post(URL, body),
      await storeAdmin.put(`${URL}/${seeded!.id}`, { ...period(seeded!), rate: 20 }),
      await storeAdmin.delete(`${URL}/${seeded!.id}`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toBe("Only platform admins may change VAT rates");
    }
    expect(await periodCount()).toBe(before);
    expect((await listed("SE")).items[0]).toEqual(seeded);
  });

  it("refuses anyone unsigned with 401", async () => {
    const [seeded] = (await listed("SE")).items;
    for (const res of [
      await nobody.post(URL, { country: "SE", category: "food", rate: 6, valid_from: "3000-01-01" }),
      await nobody.put(`${URL}/${seeded!.id}`, period(seeded!)),
      await nobody.delete(`${URL}/${seeded!.id}`),
    ]) {
      expect(res.statusCode).toBe(401);
    }
  });
});

describe("bad input", () => {
  const good = { country: "FR", category: "food", rate: 5.5, valid_from: "2030-01-01", valid_to: "2030-12-31" };

  it.each([
    [{ ...good, valid_to: "2029-12-31" }, "valid_to cannot be before valid_from"],
    [{ ...good, category: "luxury" }, "A VAT category is one of standard, food, alcoholic_drink"],
    [{ ...good, country: "XX" }, "Unknown country code"],
    [{ ...good, country: "se" }, "Unknown country code"],
    [{ ...good, rate: 100.001 }, "The rate must be from 0 to 100 %"],
    [{ ...good, rate: -0.01 }, "The rate must be from 0 to 100 %"],
    [{ ...good, rate: 5.555 }, "The rate allows at most two decimals"],
    [{ ...good, rate: "6" }, "The rate is a number of percent from 0 to 100"],
    [{ ...good, valid_from: "2030-02-30" }, "valid_from is not a day of the calendar"],
    [{ ...good, valid_from: "1/1/2030" }, "valid_from is a date as YYYY-MM-DD"],
    [{ ...good, extra: 1 }, "extra"],
  ])("refuses %j with 422 and a detail (%s)", async (body, words) => {
    const before = await periodCount();
    for (const res of [
      await platform.post(URL, body),
      await platform.put(`${URL}/${(await listed("SE")).items[0]!.id}`, body),
    ]) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ code: "validation_error" });
      expect(res.json().detail).toContain(words);
    }
    expect(await periodCount()).toBe(before);
  });

  it("takes the edges of what is allowed: 0 and 100 %, two decimals, a one-day period", async () => {
    for (const [rate, from] of [
      [0, "2040-01-01"],
      [100, "2041-01-01"],
      [99.99, "2042-01-01"],
    ] as const) {
      const made = await added({ ...good, rate, valid_from: from, valid_to: from });
      expect(made).toMatchObject({ rate, valid_from: from, valid_to: from });
    }
  });
});
