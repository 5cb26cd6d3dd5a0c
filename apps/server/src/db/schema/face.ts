import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { shoppingSessions } from "./shoppers.ts";

/**
 * The face descriptor learnt at the door for one visit of a shopper who
 * consented to the face check, sealed (AES-256-GCM, its own key, bound to the
 * visit). Gone with the visit: database triggers delete it when the visit
 * leaves the store (paid, ended, abandoned, let out, through the gate) and
 * when the shopper withdraws consent; a sweep deletes any left behind.
 */
export const faceDescriptors = pgTable("face_descriptors", {
  sessionId: uuid("session_id")
    .primaryKey()
    .references(() => shoppingSessions.id, { onDelete: "cascade" }),
  sealed: text("sealed").notNull(),
  /** Which model made it: a descriptor is compared only with one of the same model. */
  model: text("model").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
