import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shopper as newShopper, walkIn } from "../../test/factories.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";

let ctx: TestContext;
let admin: ReturnType<typeof as>;
let store: string;
/** The verifier plugged into this server recognises these shoppers, as a store's face system would. */
const recognised = new Set<string>();
const asked: string[] = [];

async function shopper(entered = true) {
  const who = await newShopper(ctx.app, { card: null, name: "Eva", birthDate: "1975-07-07" });
  if (entered) await walkIn(ctx.app, who, store);
  const verify = async () =>
    (await who.call({ method: "POST", url: "/api/v1/face/verify", payload: { user_id: who.id } })).json();
  const consent = async (value: boolean) =>
    (await who.call({ method: "PUT", url: "/api/v1/face/consent", payload: { consent: value } })).json();
  return { id: who.id, call: who.call, verify, consent };
}

const setModule = async (enabled: boolean) =>
  expect((await admin.post(`/api/v1/stores/${store}/modules/face_checkout`, { enabled })).statusCode).toBe(200);

beforeAll(async () => {
  ctx = await createTestContext(
    {},
    {
      faceVerifier: {
        async verify({ customerId }) {
          asked.push(customerId);
          return recognised.has(customerId);
        },
      },
    },
  );
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  store = (await admin.post("/api/v1/stores/", { name: "Ansiktsbutiken" })).json().id;
});
afterAll(() => ctx.close());

describe("the face check at the exit", () => {
  it("asks the verifier only with consent and the store's module; withdrawn consent stops it at once", async () => {
    const eva = await shopper();
    recognised.add(eva.id);
    await setModule(false);
    expect(await eva.verify()).toEqual({ status: "not_verified", reason: "module_off" });
    await setModule(true);
    expect(await eva.verify()).toEqual({ status: "not_verified", reason: "no_consent" });
    expect(asked).not.toContain(eva.id);

    const given = await eva.consent(true);
    expect(given.consent).toBe(true);
    expect(Date.parse(given.given_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(await eva.verify()).toEqual({ status: "ok", reason: "verified" });
    expect(asked).toContain(eva.id);

    expect(await eva.consent(false)).toEqual({ consent: false, given_at: null });
    asked.length = 0;
    expect(await eva.verify()).toEqual({ status: "not_verified", reason: "no_consent" });
    expect(asked).toEqual([]);
  });

  it("someone the verifier does not recognise falls back to the exit code; nobody outside a visit is checked", async () => {
    await setModule(true);
    const stranger = await shopper();
    await stranger.consent(true);
    expect(await stranger.verify()).toEqual({ status: "not_verified", reason: "no_match" });
    const outside = await shopper(false);
    await outside.consent(true);
    expect(await outside.verify()).toEqual({ status: "not_verified", reason: "no_visit" });
  });

  it("refuses to check anyone but the signed-in shopper", async () => {
    const eva = await shopper();
    const other = await shopper();
    const res = await eva.call({ method: "POST", url: "/api/v1/face/verify", payload: { user_id: other.id } });
    expect(res.statusCode).toBe(403);
  });
});
