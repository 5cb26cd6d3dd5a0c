import { z } from "zod";

export const ADMIN_ROLES = ["platform_admin", "store_admin"] as const;
export const adminRoleSchema = z.enum(ADMIN_ROLES);
export type AdminRole = z.infer<typeof adminRoleSchema>;

export const loginSchema = z.object({
  email: z.string().trim().min(1, "Email is required").max(200),
  password: z.string().min(1, "Password is required").max(200),
});

export const adminMeSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: adminRoleSchema,
  /** Stores a store admin manages; empty for platform admins (they manage all). */
  store_ids: z.array(z.string()),
});
export type AdminMe = z.infer<typeof adminMeSchema>;

export const ADMIN_PASSWORD_MIN_LENGTH = 12;
