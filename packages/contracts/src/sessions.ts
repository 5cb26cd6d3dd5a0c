import { z } from "zod";

export { decodeEntryQr, encodeEntryQr } from "./shopper-constants.ts";

export const entryRequestSchema = z.object({ store_id: z.uuid("store_id must be a UUID") });
export const entryResponseSchema = z.object({
  session_id: z.string(),
  session_token: z.string(),
  store_id: z.string(),
  /** When the entry QR code stops opening the door (ISO time). */
  expires_at: z.string(),
});
export type EntrySession = z.infer<typeof entryResponseSchema>;

export const doorScanSchema = z.object({
  session_id: z.uuid("session_id must be a UUID"),
  session_token: z.string().min(1).max(200),
  store_id: z.uuid("store_id must be a UUID"),
});
export const doorScanResponseSchema = z.object({ door_opened: z.boolean(), session_id: z.string() });
export const doorStatusSchema = z.object({ door_opened: z.boolean() });
export const sessionIdParams = z.object({ session_id: z.uuid("session_id must be a UUID") });

export const deviceKeyCreateSchema = z.object({
  kind: z.enum(["door_scanner", "exit_gate", "camera_worker", "pant_machine"]),
  label: z.string().trim().max(100).optional(),
});
export const deviceKeySchema = z.object({
  id: z.string(),
  store_id: z.string(),
  kind: z.string(),
  label: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
/** Only the answer to creating a key carries the key itself. */
export const deviceKeyCreatedSchema = deviceKeySchema.extend({ key: z.string() });
export type DeviceKeyCreated = z.infer<typeof deviceKeyCreatedSchema>;
export type DeviceKind = z.infer<typeof deviceKeyCreateSchema>["kind"];

/** GET /api/v1/visits/unpaid: the shopper's visits left with goods and no payment (they pay before entering again). */
export const unpaidVisitSchema = z.object({
  session_id: z.string(),
  store_name: z.string(),
  /** Kronor, two decimals. */
  total: z.number(),
  /** When the shopper went (through the gate, or the visit went quiet). */
  left_at: z.string(),
});
export type UnpaidVisit = z.infer<typeof unpaidVisitSchema>;

/**
 * GET /api/v1/visits/open: the shopper's visit inside a store now (through
 * the door, not yet paid), the one that went through the door last; null
 * when there is none. The landing page offers "Fortsätt handla" with it.
 */
export const openVisitSchema = z.object({
  session_id: z.string(),
  store_id: z.string(),
  store_name: z.string(),
  /** Kronor, two decimals: the cart as it is now. */
  total: z.number(),
  /** Units in the cart (a line of three counts three). */
  item_count: z.number().int(),
});
export type OpenVisit = z.infer<typeof openVisitSchema>;
