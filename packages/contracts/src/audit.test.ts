import { describe, expect, it } from "vitest";
import {
  AUDIT_ACTION_GROUPS,
  auditEntrySchema,
  auditIdParams,
  auditListItemSchema,
  auditListQuerySchema,
  changedKeys,
} from "./audit.ts";
import { keeps } from "./testing.ts";

const uuid = "0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e";

/** The first message at `path`, as the console would show it beside the filter. */
function messageAt(query: Record<string, unknown>, path: string): string | undefined {
  return auditListQuerySchema.safeParse(query).error?.issues.find((issue) => issue.path.join(".") === path)?.message;
}

const takes = (query: Record<string, unknown>) => auditListQuerySchema.safeParse(query).success;
const parsed = (query: Record<string, unknown>) => auditListQuerySchema.parse(query);

describe("the action filter's groups", () => {
  // One action of each kind the server records, and the group the filter shows it under.
  const recorded: [string, string][] = [
    ["store.module_enable", "Stores"],
    ["product.image_upload", "Products"],
    ["setting.store_override", "Settings"],
    ["camera_system.update", "Camera systems"],
    ["camera.update", "Cameras"],
    ["admin_user.password_change", "Admin users"],
    ["refund.create", "Refunds"],
    ["spot_check.outcome", "Spot checks"],
    ["dispute.resolve", "Disputes"],
    ["vat_rate.update", "VAT rates"],
    ["pant_amount.update", "Pant amounts"],
    ["store_price.import", "Store prices"],
    ["campaign.update", "Campaigns"],
    ["offer.update", "Offers"],
  ];

  it("put every recorded action under exactly one group, named for a person", () => {
    for (const [action, label] of recorded) {
      const groups = AUDIT_ACTION_GROUPS.filter((group) => action.startsWith(group.value));
      expect(groups.map((group) => group.label)).toEqual([label]);
    }
    expect(AUDIT_ACTION_GROUPS.map((group) => group.label)).toEqual(recorded.map(([, label]) => label));
  });

  it("are prefixes the list query takes", () => {
    for (const group of AUDIT_ACTION_GROUPS) {
      expect(group.value.endsWith(".")).toBe(true);
      expect(parsed({ action: group.value }).action).toBe(group.value);
    }
  });
});

describe("audit list query", () => {
  it("shows the newest 50 from the start unless told", () => {
    expect(parsed({})).toEqual({ limit: 50, offset: 0 });
  });

  it("keeps a whole query as sent", () => {
    keeps(auditListQuerySchema, {
      search: "Lingonsylt",
      action: "product.update",
      entity_type: "product",
      entity_id: "A-1",
      actor: "admin@glide.se",
      store_id: uuid,
      from: "2026-03-01",
      to: "2026-03-31T23:59:59.999+02:00",
      limit: 20,
      offset: 40,
    });
  });

  it("reads page size and offset from the query string: 1 to 100 a page, from 0", () => {
    expect(parsed({ limit: "1", offset: "0" })).toEqual({ limit: 1, offset: 0 });
    expect(parsed({ limit: "100", offset: "7" })).toEqual({ limit: 100, offset: 7 });
    for (const limit of ["0", "101", "2.5", "x"]) expect(takes({ limit })).toBe(false);
    for (const offset of ["-1", "1.5"]) expect(takes({ offset })).toBe(false);
  });

  it("trims the search and the actor, and keeps each text within its limit", () => {
    expect(parsed({ search: " sylt ", actor: " Admin@Glide.se " })).toMatchObject({
      search: "sylt",
      actor: "Admin@Glide.se",
    });
    const longest = {
      search: ` ${"s".repeat(200)} `,
      entity_type: "t".repeat(100),
      entity_id: "i".repeat(200),
      actor: ` ${"a".repeat(320)} `,
    };
    expect(parsed(longest)).toMatchObject({
      search: "s".repeat(200),
      entity_type: "t".repeat(100),
      entity_id: "i".repeat(200),
      actor: "a".repeat(320),
    });
    expect(takes({ search: "s".repeat(201) })).toBe(false);
    expect(takes({ entity_type: "t".repeat(101) })).toBe(false);
    expect(takes({ entity_id: "i".repeat(201) })).toBe(false);
    expect(takes({ actor: "a".repeat(321) })).toBe(false);
  });

  it("takes an exact action or a prefix ending in a dot", () => {
    for (const action of ["store.update", "store.", "spot_check.", "admin_user.password_change", "az_.za_"]) {
      expect(parsed({ action }).action).toBe(action);
    }
    // A bare word is taken as an exact action; no entry has one, so it finds nothing.
    expect(parsed({ action: "store" }).action).toBe("store");
    expect(parsed({ action: "a".repeat(100) }).action).toHaveLength(100);
    expect(takes({ action: "a".repeat(101) })).toBe(false);
    const refused = [
      "",
      "Store.update",
      "store.Update",
      "store.update.x",
      ".update",
      "store update",
      "store-x",
      "DROP TABLE",
    ];
    for (const action of refused) {
      expect(messageAt({ action }, "action")).toBe("action must look like store.update or store.");
    }
  });

  it("takes a store only by its id", () => {
    expect(parsed({ store_id: uuid }).store_id).toBe(uuid);
    expect(messageAt({ store_id: "Glide Umeå" }, "store_id")).toBe("store_id must be a UUID");
  });

  it("takes a day or a date-time with its offset at each end of the range", () => {
    for (const time of ["2026-03-01", "2026-03-01T10:00:00Z", "2026-03-01T10:00:00.123+01:00"]) {
      expect(parsed({ from: time, to: time })).toMatchObject({ from: time, to: time });
    }
    for (const time of ["yesterday", "2026-02-30", "2026-03-01T10:00:00", "1740000000"]) {
      expect(messageAt({ from: time }, "from")).toBe(
        "from must be a date (YYYY-MM-DD) or an ISO date-time with offset",
      );
      expect(messageAt({ to: time }, "to")).toBe("to must be a date (YYYY-MM-DD) or an ISO date-time with offset");
    }
  });
});

describe("audit entries", () => {
  const item = {
    id: 7,
    occurred_at: "2026-03-01T10:00:00.000Z",
    actor_id: null,
    actor_email: "cli",
    action: "store.update",
    entity_type: "store",
    entity_id: uuid,
    store_id: uuid,
    summary: 'Store "Glide Umeå" updated: name (was "Glide")',
  };

  it("keep every field, and an entry its snapshots before and after", () => {
    keeps(auditListItemSchema, item);
    keeps(auditListItemSchema, { ...item, actor_id: uuid, entity_id: null, store_id: null });
    keeps(auditEntrySchema, { ...item, before: { name: "Glide" }, after: { name: "Glide Umeå" } });
    keeps(auditEntrySchema, { ...item, before: null, after: [1, "two"] });
  });

  it("are found by a positive whole id", () => {
    expect(auditIdParams.parse({ id: "1" })).toEqual({ id: 1 });
    for (const id of ["0", "-3"]) {
      expect(auditIdParams.safeParse({ id }).error?.issues[0]?.message).toBe(
        "Audit entry id must be a positive whole number",
      );
    }
    expect(auditIdParams.safeParse({ id: "1.5" }).success).toBe(false);
  });
});

describe("changed keys", () => {
  it("are the top-level keys whose values differ, before's keys first", () => {
    expect(changedKeys({ name: "A", price: 1, sku: "S" }, { sku: "S", price: 2, name: "B", brand: "X" })).toEqual([
      "name",
      "price",
      "brand",
    ]);
    expect(changedKeys({ name: "A" }, { name: "A" })).toEqual([]);
    expect(changedKeys({ active: true }, { active: false })).toEqual(["active"]);
  });

  it("compare values by content, nested objects and lists too", () => {
    expect(changedKeys({ tags: ["a"], settings: { door: 1 } }, { tags: ["a"], settings: { door: 1 } })).toEqual([]);
    expect(changedKeys({ tags: ["a"], settings: { door: 1 } }, { tags: ["a", "b"], settings: { door: 2 } })).toEqual([
      "tags",
      "settings",
    ]);
  });

  it("treat a missing key as null, and a key that appears or goes as a change", () => {
    expect(changedKeys({ notes: null }, {})).toEqual([]);
    expect(changedKeys({}, { notes: null })).toEqual([]);
    expect(changedKeys({ notes: "n" }, {})).toEqual(["notes"]);
    expect(changedKeys({}, { notes: "n" })).toEqual(["notes"]);
    expect(changedKeys({ count: 0 }, {})).toEqual(["count"]);
  });

  it("never count updated_at, which every save moves", () => {
    expect(changedKeys({ name: "A", updated_at: "1" }, { name: "A", updated_at: "2" })).toEqual([]);
    expect(changedKeys({ updated_at: "1", name: "A" }, { updated_at: "2", name: "B" })).toEqual(["name"]);
  });

  it("take a creation or a deletion as every key changed", () => {
    expect(changedKeys(null, { name: "A", price: 1 })).toEqual(["name", "price"]);
    expect(changedKeys({ name: "A" }, undefined)).toEqual(["name"]);
  });

  it("see no keys in a snapshot that is not a plain object", () => {
    for (const other of ["ab", 12, [1, 2], null, undefined, true]) {
      expect(changedKeys(other, other)).toEqual([]);
      expect(changedKeys(other, {})).toEqual([]);
    }
    expect(changedKeys(["a"], { 0: "a" })).toEqual(["0"]);
  });
});
