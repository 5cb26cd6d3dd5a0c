import { membershipSchema, membershipUpdateSchema, profileEmailSchema, profileSchema } from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { announce } from "../cart/cart.events.ts";
import { requireShopper, shopperOf } from "../shopper-auth/shopper-auth.hooks.ts";
import { readMembership, setMembership } from "./membership.ts";
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

  app.get(
    "/api/v1/profile/membership",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "Whether the shopper is a member of the chain, and since when",
        response: { 200: membershipSchema, ...errors },
      },
    },
    (request) => readMembership(app.db, shopperOf(request)),
  );

  app.put(
    "/api/v1/profile/membership",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary:
          "Join the chain's membership (true: the shopper's consent; lines already scanned get the members' price) or leave it (false), at once",
        body: membershipUpdateSchema,
        response: { 200: membershipSchema, ...errors },
      },
    },
    async (request) => {
      const { membership, repriced } = await setMembership(app.db, shopperOf(request), request.body.member, new Date());
      // The phone's cart is read anew: its lines now cost the members' price.
      for (const sessionId of repriced) await announce(app.bus, request.log, sessionId, [{ type: "cart_changed" }]);
      return membership;
    },
  );
};
