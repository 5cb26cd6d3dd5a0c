import { describe, expect, it } from "vitest";
import {
  added,
  auditOf,
  body,
  campaignCount,
  day,
  listed,
  platform,
  product,
  storeAdmin,
  URL,
  useCampaignsApp,
} from "./campaigns.fixtures.ts";

/**
 * Members-only campaigns through the API: the flag written, replaced both
 * ways, listed and in the audit log; left out it is false, and anything but
 * true or false is refused. How a cart prices them is pricing's.
 */
useCampaignsApp();

const put = (id: string, change: Record<string, unknown>) => platform.put(`${URL}/${id}`, body(change));
const listedOne = async (id: string) =>
  (await listed(`search=${product.sku}&limit=100`)).items.find((c) => c.id === id);

describe("a members-only campaign", () => {
  it("is for everyone when the body leaves members_only out, and for members when it says true", async () => {
    const everyone = await added();
    const members = await added({ members_only: true });
    expect(everyone.members_only).toBe(false);
    expect(members.members_only).toBe(true);
    expect(await listedOne(everyone.id)).toMatchObject({ members_only: false });
    expect(await listedOne(members.id)).toMatchObject({ members_only: true });
  });

  it("is turned on and off by a replacement, each change in the audit log; a body without it turns it off", async () => {
    const made = await added();
    const on = await put(made.id, { members_only: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toEqual({ ...made, members_only: true });
    expect(await listedOne(made.id)).toMatchObject({ members_only: true });

    const off = await put(made.id, { members_only: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual(made);
    expect(await listedOne(made.id)).toMatchObject({ members_only: false });

    expect((await put(made.id, { members_only: true })).json()).toMatchObject({ members_only: true });
    // A PUT is a replacement: a body that leaves members_only out makes it false again.
    expect((await put(made.id, {})).json()).toMatchObject({ members_only: false });

    const audit = await auditOf(made.id);
    expect(audit.map((a) => a.action)).toEqual([
      "campaign.create",
      "campaign.update",
      "campaign.update",
      "campaign.update",
      "campaign.update",
    ]);
    expect(audit[1]).toMatchObject({ before: { members_only: false }, after: { members_only: true } });
    expect(audit[1]!.summary).toMatch(/" updated: members_only$/);
    expect(audit[2]).toMatchObject({ before: { members_only: true }, after: { members_only: false } });
    expect(audit[2]!.summary).toContain(`from ${day(0)} to ${day(6)}, members only" updated: members_only`);
  });

  it("says so in the audit summary of its creation", async () => {
    const made = await added({ members_only: true });
    const [created] = await auditOf(made.id);
    expect(created!.summary).toBe(
      `Campaign Kaffe 500 g (${product.sku}) at 19.90 kr in Kampanjbutiken from ${day(0)} to ${day(6)}, members only created`,
    );
    expect(created!.after).toMatchObject({ members_only: true });
  });

  it("may be set by a store admin for their store", async () => {
    const made = await added({ members_only: true }, storeAdmin);
    expect(made.members_only).toBe(true);
  });

  it.each([["yes"], [1], [null], ["true"]])("refuses members_only %j with 422 naming it", async (value) => {
    const made = await added();
    const before = await campaignCount();
    for (const res of [
      await platform.post(URL, body({ members_only: value })),
      await put(made.id, { members_only: value }),
    ]) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({
        code: "validation_error",
        detail: "members_only: members_only must be true or false",
      });
      expect(res.json().errors[0].path).toBe("members_only");
    }
    expect(await campaignCount()).toBe(before);
    expect(await listedOne(made.id)).toEqual(made);
  });
});
