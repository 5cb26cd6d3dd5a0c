/**
 * The zod schemas of the shopper app's own routes: BankID sign-in, the
 * tokens, the public store and config. The phone takes them as types only;
 * its run-time constants are zod-free in shopper-constants.ts
 * ("@glide/contracts/shopper").
 */
import { z } from "zod";

export { SHOPPER_STORAGE_KEYS, SHOPPER_TIMING } from "./shopper-constants.ts";

export const authInitSchema = z.object({
  user_visible_data: z.string().max(1500).optional(),
  /** Where the BankID app returns to on this phone; a path of the shopper app. */
  return_path: z
    .string()
    .max(400)
    .regex(/^\/customer(\/[\w\-/?=&%.]*)?$/, "return_path must be a path under /customer")
    .optional(),
  /** The app is opened on this device (autostart) rather than by scanning the QR code. */
  autostart: z.boolean().optional(),
});
export const authInitResponseSchema = z.object({ order_ref: z.string(), auto_start_token: z.string() });
export type AuthInitResponse = z.infer<typeof authInitResponseSchema>;

export const orderRefParams = z.object({ order_ref: z.uuid("order_ref must be a UUID") });
export const authCollectSchema = z.object({ order_ref: z.uuid("order_ref must be a UUID") });
export const qrResponseSchema = z.object({ qr_code_data: z.string() });
export type QrResponse = z.infer<typeof qrResponseSchema>;

export const shopperUserSchema = z.object({ id: z.string(), name: z.string() });
export const tokensSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  /** Seconds until the access token expires. */
  expires_in: z.number().int(),
  user: shopperUserSchema,
});
export type ShopperTokens = z.infer<typeof tokensSchema>;

export const collectResponseSchema = z.object({
  status: z.enum(["pending", "failed", "complete"]),
  hint_code: z.string().nullable(),
  /** BankID's recommended message for the state, in Swedish. */
  message: z.string().nullable(),
  access_token: z.string().optional(),
  refresh_token: z.string().optional(),
  expires_in: z.number().int().optional(),
  user: shopperUserSchema.optional(),
});
export type CollectResponse = z.infer<typeof collectResponseSchema>;

export const refreshSchema = z.object({ refresh_token: z.string().min(1).max(200) });

export const publicStoreSchema = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string().nullable(),
  postal_code: z.string().nullable(),
  city: z.string().nullable(),
  is_active: z.boolean(),
});
export type PublicStore = z.infer<typeof publicStoreSchema>;
/** Checked by the route rather than here, so that the shopper reads a Swedish sentence rather than a field name. */
export const publicStoreParams = z.object({ store_id: z.string().describe("The store's id (a UUID) or demo") });

export const publicConfigSchema = z.object({
  /** The development aids (Quick Dev Login, "Test: Öppna Dörr") are on. */
  dev_tools: z.boolean(),
  /** Where "open the BankID app" on this device goes: BankID's universal link, or the simulator's app page. */
  bankid_app_url: z.string(),
  /** The hosted card page ("Lägg till kort"); it returns to the page with ?payment_method=pm_…. null: none. */
  card_page_url: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
