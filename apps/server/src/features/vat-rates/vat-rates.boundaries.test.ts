import { describe, expect, it } from "vitest";
import { added, auditOf, listed, periodCount, platform, URL, useVatRatesApp } from "./vat-rates.fixtures.ts";

/**
 * Periods of one country and category never share a day: both sides of each
 * edge, a replacement, and saves made at the same moment.
 */
useVatRatesApp();

const refusal = "end that period first or choose other days";

describe("periods that meet", () => {
  it("refuses a Swedish food period that shares a day with the 6 % one, naming it", async () => {
    const res = await platform.post(URL, {
      country: "SE",
      category: "food",
      rate: 8,
      valid_from: "2027-12-31",
      valid_to: "2027-12-31",
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: "vat_rate_overlap",
      detail: `food in SE already has 6 % from 2026-04-01 to 2027-12-31; ${refusal}`,
    });
  });

  it("takes a period that ends the day before another starts, or starts the day after it ends", async () => {
    await added({ country: "DK", category: "food", rate: 25, valid_from: "2030-01-01", valid_to: "2030-12-31" });
    const before = await added({
      country: "DK",
      category: "food",
      rate: 20,
      valid_from: "2029-01-01",
      valid_to: "2029-12-31",
    });
    const after = await added({ country: "DK", category: "food", rate: 15, valid_from: "2031-01-01" });
    expect((await listed("DK")).items.map((r) => [r.valid_from, r.valid_to])).toEqual([
      ["2029-01-01", "2029-12-31"],
      ["2030-01-01", "2030-12-31"],
      ["2031-01-01", null],
    ]);
    expect([before.rate, after.rate]).toEqual([20, 15]);
  });

  it.each([
    ["the last day", "2030-12-31", "2030-12-31"],
    ["the first day", "2029-06-01", "2030-01-01"],
    ["days inside", "2030-03-01", "2030-03-31"],
    ["every day and more", "2028-01-01", "2032-01-01"],
  ])("refuses a period that shares %s of another", async (_, from, to) => {
    const count = await periodCount();
    const res = await platform.post(URL, { country: "DK", category: "food", rate: 5, valid_from: from, valid_to: to });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toMatch(/^food in DK already has \d+ % from \d{4}-\d\d-\d\d/);
    expect(res.json().detail).toContain(refusal);
    expect(await periodCount()).toBe(count);
  });

  it("counts a period without an end as lasting for ever", async () => {
    const res = await platform.post(URL, { country: "DK", category: "food", rate: 5, valid_from: "2040-01-01" });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(`food in DK already has 15 % from 2031-01-01 with no end; ${refusal}`);
    const open = await platform.post(URL, { country: "DK", category: "food", rate: 5, valid_from: "2000-01-01" });
    expect(open.statusCode).toBe(409);
    expect(open.json().detail).toBe(`food in DK already has 20 % from 2029-01-01 to 2029-12-31; ${refusal}`);
  });

  it("lets the same days go to another category or another country", async () => {
    await added({ country: "DK", category: "standard", rate: 25, valid_from: "2030-01-01", valid_to: "2030-12-31" });
    await added({ country: "NO", category: "food", rate: 15, valid_from: "2030-01-01", valid_to: "2030-12-31" });
  });
});

describe("replacing a period", () => {
  it("keeps its own days without meeting itself, and may move up to its neighbour", async () => {
    const [first] = (await listed("DK")).items.filter((r) => r.valid_from === "2029-01-01");
    const body = { country: "DK", category: "food", rate: 21, valid_from: "2028-06-01", valid_to: "2029-12-31" };
    const res = await platform.put(`${URL}/${first!.id}`, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject(body);
  });

  it("refuses days that reach a neighbour, and leaves the period and the audit log as they were", async () => {
    const [first] = (await listed("DK")).items.filter((r) => r.valid_from === "2028-06-01");
    const audit = await auditOf(first!.id);
    const res = await platform.put(`${URL}/${first!.id}`, {
      country: "DK",
      category: "food",
      rate: 21,
      valid_from: "2028-06-01",
      valid_to: "2030-01-01",
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(`food in DK already has 25 % from 2030-01-01 to 2030-12-31; ${refusal}`);
    expect((await listed("DK")).items).toContainEqual(first);
    expect(await auditOf(first!.id)).toEqual(audit);
  });

  it("may move to another category's free days, and is refused where that category has a period", async () => {
    const [first] = (await listed("DK")).items.filter((r) => r.valid_from === "2028-06-01");
    const taken = await platform.put(`${URL}/${first!.id}`, {
      country: "DK",
      category: "standard",
      rate: 21,
      valid_from: "2030-06-01",
      valid_to: "2030-06-30",
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().detail).toBe(`standard in DK already has 25 % from 2030-01-01 to 2030-12-31; ${refusal}`);
    const free = await platform.put(`${URL}/${first!.id}`, {
      country: "DK",
      category: "standard",
      rate: 21,
      valid_from: "2028-06-01",
      valid_to: "2029-12-31",
    });
    expect(free.statusCode, free.body).toBe(200);
  });
});

describe("saves at the same moment", () => {
  it("lets exactly one of several overlapping new periods in", async () => {
    // Each starts on another day, so the unique index cannot be what decides: only the check under the lock can.
    const bodies = [1, 2, 3, 4, 5].map((day) => ({
      country: "FI",
      category: "books_newspapers",
      rate: 10,
      valid_from: `2035-01-0${day}`,
      valid_to: "2035-12-31",
    }));
    const answers = await Promise.all(bodies.map((body) => platform.post(URL, body)));
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    for (const res of answers.filter((r) => r.statusCode === 409)) expect(res.json().detail).toContain(refusal);
    expect((await listed("FI")).items.filter((r) => r.category === "books_newspapers")).toHaveLength(1);
  });

  it("lets exactly one of several replacements onto the same days in", async () => {
    const periods = await Promise.all(
      [2050, 2051, 2052, 2053].map((year) =>
        added({ country: "FR", category: "food", rate: 5.5, valid_from: `${year}-01-01`, valid_to: `${year}-12-31` }),
      ),
    );
    const answers = await Promise.all(
      periods.map((p, i) =>
        platform.put(`${URL}/${p.id}`, {
          country: "FR",
          category: "standard",
          rate: 20,
          valid_from: `2060-01-0${i + 1}`,
          valid_to: "2060-12-31",
        }),
      ),
    );
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect((await listed("FR")).items.filter((r) => r.category === "standard")).toHaveLength(1);
  });
});
