import type { Receipt } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { escapeHtml, receiptMail } from "./receipt-mail.ts";

const receipt = (over: Partial<Receipt> = {}): Receipt => ({
  id: "00000000-0000-4000-8000-000000000001",
  number: 42,
  store: {
    name: "Hörnbutiken",
    legal_name: "Hörnbutiken i Lund AB",
    organization_number: "556036-0793",
    address: "Storgatan 1, 222 22 Lund",
  },
  // 13:05:09 UTC is 14:05:09 in Stockholm in winter.
  paid_at: "2026-01-15T13:05:09.000Z",
  items: [
    {
      name: "Mjölk",
      quantity: 2,
      unit_price: 17.9,
      ordinary_unit_price: null,
      total: 35.8,
      vat_rate: 0.12,
      weight_grams: null,
      pant: null,
    },
    {
      name: "Tvål",
      quantity: 1,
      unit_price: 1234.5,
      ordinary_unit_price: null,
      total: 1234.5,
      vat_rate: 0.25,
      weight_grams: null,
      pant: null,
    },
    {
      name: "Äpplen",
      quantity: 1,
      unit_price: 14.46,
      ordinary_unit_price: null,
      total: 14.46,
      vat_rate: 0.12,
      weight_grams: 482,
      pant: null,
    },
  ],
  discounts: [],
  total: 1284.76,
  vouchers: [],
  paid_by_card: 1284.76,
  vat: [
    { rate: 0.12, amount: 5.39, net: 44.87, gross: 50.26 },
    { rate: 0.25, amount: 246.9, net: 987.6, gross: 1234.5 },
  ],
  currency: "SEK",
  payment: { brand: "visa", last4: "4242" },
  refunds: [],
  refunded: 0,
  refunded_vat: [],
  emailed: true,
  dispute: null,
  ...over,
});

/** The text part's lines without the padding between label and amount. */
const lines = (text: string) => text.split("\n").map((line) => line.replace(/ {2,}/g, " | "));

describe("the receipt e-mail", () => {
  it("says in Swedish what a kvitto must: seller, time, number, lines, total, VAT per rate, card", () => {
    const mail = receiptMail(receipt());
    expect(mail.subject).toBe("Kvitto från Hörnbutiken nr 42");
    expect(lines(mail.text)).toEqual([
      "Hörnbutiken",
      "Hörnbutiken i Lund AB",
      "Org.nr 556036-0793",
      "Storgatan 1, 222 22 Lund",
      "",
      "Datum: 2026-01-15 14:05:09",
      "Kvitto nr 42",
      "",
      "2 x Mjölk | 35,80 kr",
      "1 x Tvål | 1\u00a0234,50 kr",
      "1 x Äpplen (0,482 kg) | 14,46 kr",
      "",
      "Totalt | 1\u00a0284,76 kr",
      "",
      "Moms 12 %: 5,39 kr (netto 44,87 kr, brutto 50,26 kr)",
      "Moms 25 %: 246,90 kr (netto 987,60 kr, brutto 1\u00a0234,50 kr)",
      "",
      "Betalt med kort: Visa **** 4242",
      "",
      "Tack för ditt köp!",
      "",
    ]);
    for (const part of ["Org.nr 556036-0793", "Kvitto nr 42", "2026-01-15 14:05:09", "Visa **** 4242", "246,90 kr"]) {
      expect(mail.html).toContain(part);
    }
  });

  it("puts a campaign's ordinary price for one under its line, and nothing under a line at its ordinary price", () => {
    const items = receipt().items.map((item, i) => (i === 0 ? { ...item, ordinary_unit_price: 24.9 } : item));
    const text = lines(receiptMail(receipt({ items })).text);
    expect(text.slice(8, 12)).toEqual([
      "2 x Mjölk | 35,80 kr",
      " | Kampanj, ord. pris 24,90 kr/st",
      "1 x Tvål | 1\u00a0234,50 kr",
      "1 x Äpplen (0,482 kg) | 14,46 kr",
    ]);
    expect(receiptMail(receipt({ items })).html).toContain("Kampanj, ord. pris 24,90 kr/st");
  });

  it("puts each multi-buy discount under the goods as a negative amount, and no such line without one", () => {
    const discounts = [{ offer_id: null, label: "3 för 2 Mjölk", times: 1, amount: 17.9 }];
    const text = lines(receiptMail(receipt({ discounts })).text);
    expect(text.slice(10, 12)).toEqual(["1 x Äpplen (0,482 kg) | 14,46 kr", "3 för 2 Mjölk | \u221217,90 kr"]);
    expect(receiptMail(receipt({ discounts })).html).toContain("3 för 2 Mjölk");
    expect(receiptMail(receipt()).text).not.toContain("\u2212");
  });

  it("puts a pant voucher under the total with what the card paid, and neither without one", () => {
    const vouchers = [{ code: "9801234500240", amount: 24 }];
    const text = lines(receiptMail(receipt({ vouchers, paid_by_card: 1260.76 })).text);
    const at = text.indexOf("Totalt | 1\u00a0284,76 kr");
    expect(text.slice(at, at + 3)).toEqual([
      "Totalt | 1\u00a0284,76 kr",
      "Pantkvitto 9801234500240 | \u221224,00 kr",
      "Betalt med kort | 1\u00a0260,76 kr",
    ]);
    expect(receiptMail(receipt({ vouchers, paid_by_card: 1260.76 })).html).toContain("Pantkvitto 9801234500240");
    expect(receiptMail(receipt()).text).not.toContain("Pantkvitto");
  });

  it("shows the time in Stockholm: summer time, and the day after midnight there", () => {
    expect(receiptMail(receipt({ paid_at: "2026-07-01T22:30:00.000Z" })).text).toContain("Datum: 2026-07-02 00:30:00");
    expect(receiptMail(receipt({ paid_at: "2026-07-01T21:59:59.000Z" })).text).toContain("Datum: 2026-07-01 23:59:59");
  });

  it("leaves out what the store has not given, and names the legal name only when it differs", () => {
    const bare = receiptMail(
      receipt({
        store: { name: "Kiosken", legal_name: "Kiosken", organization_number: null, address: null },
        payment: null,
      }),
    );
    expect(bare.text.split("\n").slice(0, 3)).toEqual(["Kiosken", "", "Datum: 2026-01-15 14:05:09"]);
    expect(bare.text).not.toContain("Org.nr");
    expect(bare.text).toContain("\nBetalt\n");
  });

  it("escapes everything it puts in the HTML part, and keeps the subject on one line", () => {
    const hostile = "<img src=x onerror=alert(1)> & \"Co\" 'n'";
    const mail = receiptMail(
      receipt({
        store: {
          name: `Butik\r\nBcc: x@y.se ${hostile}`,
          legal_name: hostile,
          organization_number: null,
          address: hostile,
        },
        items: [
          {
            name: hostile,
            quantity: 1,
            unit_price: 1,
            ordinary_unit_price: null,
            total: 1,
            vat_rate: 0.25,
            weight_grams: null,
            pant: null,
          },
        ],
        payment: { brand: "<b>", last4: "<i>" },
      }),
    );
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject).toBe(`Kvitto från Butik Bcc: x@y.se ${hostile} nr 42`);
    expect(mail.html).not.toContain("<img");
    expect(mail.html).not.toContain("<b>");
    expect(mail.html).not.toContain("<i>");
    expect(mail.html).not.toContain('"Co"');
    expect(mail.html).toContain(escapeHtml(hostile));
    // The text part is plain text: shown as it is.
    expect(mail.text).toContain(`1 x ${hostile}`);
  });

  it("escapeHtml turns every character that means something in HTML into a reference", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;",
    );
    expect(escapeHtml("Åke & Söner")).toBe("Åke &#38; Söner");
  });
});
