import { errorSchema, profileEmailSchema, profileSchema } from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireShopper, shopperOf } from "../shopper-auth/shopper-auth.hooks.ts";
import { readProfile, setEmail } from "./profile.service.ts";

const errors = { 400: errorSchema, 401: errorSchema, 404: errorSchema, 422: errorSchema };
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
