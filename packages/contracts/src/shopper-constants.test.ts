import { describe, expect, it } from "vitest";
import { decodeEntryQr, encodeEntryQr } from "./shopper-constants.ts";

const entry = {
  session_id: "0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e",
  session_token: "abc_DEF-123456789",
  store_id: "11111111-2222-4333-8444-555555555555",
};

describe("the entry QR code", () => {
  it("says the session, its token and the store, and reads back", () => {
    const text = encodeEntryQr(entry);
    expect(text).toBe(`GLIDE1.${entry.session_id}.${entry.session_token}.${entry.store_id}`);
    expect(decodeEntryQr(text)).toEqual(entry);
    expect(decodeEntryQr(` ${text}\n`)).toEqual(entry);
  });

  it("takes tokens of 16 to 200 characters", () => {
    for (const session_token of ["a".repeat(16), "a".repeat(200)]) {
      expect(decodeEntryQr(encodeEntryQr({ ...entry, session_token }))?.session_token).toBe(session_token);
    }
  });

  it("refuses anything else", () => {
    const text = encodeEntryQr(entry);
    const refused = [
      `x${text}`,
      `${text}x`,
      text.replace("GLIDE1", "GLIDE2"),
      encodeEntryQr({ ...entry, session_token: "a".repeat(15) }),
      encodeEntryQr({ ...entry, session_token: "a".repeat(201) }),
      encodeEntryQr({ ...entry, session_token: `${"a".repeat(16)}.x` }),
      encodeEntryQr({ ...entry, session_token: `${"a".repeat(16)} x` }),
      encodeEntryQr({ ...entry, session_id: entry.session_id.slice(1) }),
      encodeEntryQr({ ...entry, session_id: entry.session_id.replace("0", "g") }),
      encodeEntryQr({ ...entry, store_id: `${entry.store_id}0` }),
      encodeEntryQr({ ...entry, store_id: entry.store_id.replace("1", "x") }),
      "",
    ];
    for (const qr of refused) expect(decodeEntryQr(qr)).toBeNull();
  });
});
