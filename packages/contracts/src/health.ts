import { z } from "zod";

/** GET /api/health: liveness and whether the database answers (the same shape with 200 and 503). */
export const healthSchema = z.object({
  status: z.enum(["ok", "unavailable"]),
  database: z.object({
    kind: z.enum(["pglite", "postgres"]),
    status: z.enum(["up", "down"]),
    detail: z.string().optional(),
  }),
});
export type Health = z.infer<typeof healthSchema>;

/** GET /api/ready: whether a load balancer should send this instance requests. */
export const readySchema = z.object({ status: z.enum(["ready", "draining", "database_unavailable"]) });
export type Ready = z.infer<typeof readySchema>;
