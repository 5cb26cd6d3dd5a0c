import { profileEmailSchema, profileSchema } from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { requireShopper, shopperOf } from "../shopper-auth/shopper-auth.hooks.ts";
import { readProfile, setEmail } from "./profile.service.ts";

const errors = errorResponses(400, 401, 404, 422);
const tags = ["profile"];

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/v1/profile",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "The signed-in shopper's name and the e-mail receipts are sent to (null: none)",
        response: { 200: profileSchema, ...errors },
      },
    },
    (request) => readProfile(app.db, shopperOf(request)),
  );

  app.put(
    "/api/v1/profile/email",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "Set the e-mail receipts are sent to, or null to stop receipt e-mails",
        body: profileEmailSchema,
        response: { 200: profileSchema, ...errors },
      },
    },
    (request) => setEmail({ db: app.db, customerId: shopperOf(request), email: request.body.email }),
  );
};
