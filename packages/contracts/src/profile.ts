import { z } from "zod";

/** GET /api/v1/profile: the signed-in shopper's name (from BankID) and the e-mail receipts go to, if any. */
export const profileSchema = z.object({
  name: z.string(),
  email: z.string().nullable(),
});
export type Profile = z.infer<typeof profileSchema>;

export const EMAIL_MAX_LENGTH = 254;

/** PUT /api/v1/profile/email: where receipts are e-mailed; null stops them. */
export const profileEmailSchema = z.object({
  email: z
    .string("email must be an e-mail address or null")
    .trim()
    .max(EMAIL_MAX_LENGTH, `email must be at most ${EMAIL_MAX_LENGTH} characters`)
    .pipe(z.email("email must be an e-mail address, such as namn@example.se"))
    // The trim makes this a pipe, whose input side alone would lose the format in the OpenAPI document.
    .meta({ format: "email" })
    .nullable(),
});
export type ProfileEmail = z.infer<typeof profileEmailSchema>;

/**
 * GET and PUT /api/v1/profile/membership: the chain's membership. Joining is
 * the shopper's consent (the app shows the terms first); leaving withdraws it
 * at once. Members pay members-only prices and offers; others are shown them
 * as "Medlemspris".
 */
export const membershipSchema = z.object({
  member: z.boolean(),
  /** When the shopper joined; null when not a member. */
  since: z.string().nullable(),
});
export type Membership = z.infer<typeof membershipSchema>;

/** PUT /api/v1/profile/membership: join (true, with consent) or leave (false). */
export const membershipUpdateSchema = z.object({
  member: z.boolean({ error: "member must be true (join) or false (leave)" }),
});
