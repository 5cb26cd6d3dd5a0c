import { z } from "zod";
import { receiptSchema } from "./checkout.ts";

/** GET /api/v1/exit/token: the exit QR code, signed and bound to the visit and store, valid two minutes. */
export const exitTokenSchema = z.object({ token: z.string(), session_id: z.string(), expires_at: z.string() });
export type ExitToken = z.infer<typeof exitTokenSchema>;

export const EXIT_STATES = ["shopping", "pending", "declined", "paid", "empty"] as const;
export type ExitState = (typeof EXIT_STATES)[number];

/** GET /api/v1/exit/status: where the visit stands at the exit, and its receipt once paid. */
export const exitStatusSchema = z.object({
  state: z.enum(EXIT_STATES),
  receipt: receiptSchema.nullable(),
  notice: z
    .string()
    .optional()
    .describe("Swedish, for the phone; only when the visit was picked for a staff check at the exit"),
  needs_card: z
    .literal(true)
    .optional()
    .describe(
      "Only when the gate refused the exit code for want of a card and there is still none on file: the phone leads to the card page",
    ),
  vouchers_cover_cart: z
    .literal(true)
    .optional()
    .describe(
      "Only when the gate refused the exit code because pant vouchers pay the whole cart and they still do: the phone leads back to the cart",
    ),
});
export type ExitStatus = z.infer<typeof exitStatusSchema>;

/** POST /api/v1/exit/scan: the exit code the gate read. */
export const exitScanSchema = z.object({ token: z.string().trim().min(1, "token is required").max(400) });

/** The gate's answer: whether it opened, how the visit ended, and the receipt's number when one was paid. */
export const exitScanResponseSchema = z.object({
  gate_opened: z.boolean(),
  status: z.enum(["paid", "empty", "pending"]),
  receipt_number: z.number().int().nullable(),
});
export type ExitScanResponse = z.infer<typeof exitScanResponseSchema>;
