import { gtinCheckDigit } from "@glide/contracts/barcodes";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { cartOf, line, voucher, withVouchers } from "./cart-sync.fixtures.ts";
import { cartKeeper } from "./cart-sync.ts";
import type { PendingScan } from "./scan-queue.ts";

const api = vi.hoisted(() => ({ scan: vi.fn(), addVoucher: vi.fn() }));
vi.mock("../lib/client.ts", () => ({ shopperApi: api }));
const { sendScan } = await import("./send-scan.ts");

const SESSION = "6f1c2b4e-8a47-4d3e-9a51-0c7d2e9b1f30";
const pending = (barcode: string): PendingScan => ({ scan_id: "scan-1", session_id: SESSION, barcode, at: 0 });
const ean = (body12: string) => body12 + gtinCheckDigit(body12);
const milk = line("line-milk", "milk", 1, 17.9);

describe("a scanned or typed code sent from the phone", () => {
  beforeEach(() => {
    api.scan.mockReset();
    api.addVoucher.mockReset();
  });

  it("a pant machine voucher goes to the vouchers with its scan_id, and its whole cart is the copy's", async () => {
    const code = ean("980123450024");
    const after = withVouchers(cartOf(milk), voucher("12345", 24));
    api.addVoucher.mockResolvedValue(after);
    const shown: unknown[] = [];
    const keeper = cartKeeper((cart) => shown.push(cart));
    keeper.socketCart(cartOf(milk));
    const sent = await sendScan(keeper, pending(code));
    expect(api.addVoucher).toHaveBeenCalledWith({ session_id: SESSION, barcode: code, scan_id: "scan-1" });
    expect(api.scan).not.toHaveBeenCalled();
    expect(sent).toEqual({ text: "✓ Pantkvitto 24,00 kr tillagt!", behind: false });
    expect(shown.at(-1)).toEqual(after);
  });

  it("a product's code, and a 980 code that is no voucher (a wrong check digit), go to the scan", async () => {
    api.scan.mockResolvedValue({ product: milk.product, item: milk });
    const keeper = cartKeeper(() => {});
    keeper.socketCart(cartOf());
    const body = ean("980123450024");
    const wrongCheck = body.slice(0, 12) + ((Number(body[12]) + 1) % 10);
    for (const code of [ean("731086500470"), wrongCheck]) {
      const sent = await sendScan(keeper, pending(code));
      expect(api.scan).toHaveBeenLastCalledWith({ session_id: SESSION, barcode: code, scan_id: "scan-1" });
      expect(sent.text).toBe(`✓ ${milk.product.name} tillagd!`);
    }
    expect(api.addVoucher).not.toHaveBeenCalled();
  });

  it("a refused voucher is thrown as the server refused it, for the queue to say", async () => {
    const refusal = new Error("Pantkvittot har redan använts.");
    api.addVoucher.mockRejectedValue(refusal);
    await expect(
      sendScan(
        cartKeeper(() => {}),
        pending(ean("980123450024")),
      ),
    ).rejects.toBe(refusal);
  });
});
