import { describe, expect, it } from "vitest";
import { errorMessage, failedMessage, pendingMessage, RFA } from "./messages.ts";
import { qrCodeData } from "./qr.ts";

describe("animated QR code", () => {
  // BankID's published test vectors.
  const token = "67df3917-fa0d-44e5-b327-edcc928297f8";
  const secret = "d28db9a7-4cde-429e-a983-359be676944c";
  it.each([
    [0, "dc69358e712458a66a7525beef148ae8526b1c71610eff2c16cdffb4cdac9bf8"],
    [1, "949d559bf23403952a94d103e67743126381eda00f0b3cbddbf7c96b1adcbce2"],
    [2, "a9e5ec59cb4eee4ef4117150abc58fad7a85439a6a96ccbecc3668b41795b3f3"],
  ])("second %i", (time, code) => {
    expect(qrCodeData(token, secret, time)).toBe(`bankid.${token}.${time}.${code}`);
  });
  it("counts whole seconds", () => {
    expect(qrCodeData(token, secret, 1.9)).toBe(qrCodeData(token, secret, 1));
  });
});

describe("recommended user messages", () => {
  const qr = { autostart: false, mobile: false };
  const app = { autostart: true, mobile: true };
  it.each([
    ["outstandingTransaction", qr, RFA.RFA1],
    ["outstandingTransaction", app, RFA.RFA13],
    ["noClient", qr, RFA.RFA1],
    ["started", qr, RFA.RFA15A],
    ["started", app, RFA.RFA15B],
    ["userSign", qr, RFA.RFA9],
    ["userMrtd", qr, RFA.RFA23],
    ["userCallConfirm", qr, RFA.RFA21],
    ["someFutureCode", qr, RFA.RFA21],
    [undefined, qr, RFA.RFA21],
  ] as const)("pending %s", (hint, mode, text) => expect(pendingMessage(hint, mode)).toBe(text));

  it.each([
    ["expiredTransaction", qr, RFA.RFA8],
    ["certificateErr", qr, RFA.RFA16],
    ["userCancel", qr, RFA.RFA6],
    ["cancelled", qr, RFA.RFA3],
    ["startFailed", qr, RFA.RFA17B],
    ["startFailed", app, RFA.RFA17A],
    ["userDeclinedCall", qr, RFA.RFA22],
    ["notSupportedByUserApp", qr, RFA.RFA22],
    ["transactionRiskBlocked", qr, RFA.RFA22],
    ["someFutureCode", qr, RFA.RFA22],
  ] as const)("failed %s", (hint, mode, text) => expect(failedMessage(hint, mode)).toBe(text));

  it.each([
    ["alreadyInProgress", RFA.RFA4],
    ["requestTimeout", RFA.RFA5],
    ["internalError", RFA.RFA5],
    ["maintenance", RFA.RFA5],
    ["invalidParameters", RFA.RFA22],
    ["somethingNew", RFA.RFA22],
  ])("error %s", (code, text) => expect(errorMessage(code)).toBe(text));
});
