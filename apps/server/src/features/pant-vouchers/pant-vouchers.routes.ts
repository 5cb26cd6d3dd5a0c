import {
  cartSchema,
  cartVoucherAddSchema,
  cartVoucherParams,
  issuedPantVoucherSchema,
  pantVoucherIssueSchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { announce } from "../cart/cart.events.ts";
import { deviceOf } from "../devices/devices.service.ts";
import { requireShopper, shopperOf } from "../shopper-auth/shopper-auth.hooks.ts";
import { addVoucher, issueVoucher, removeVoucher } from "./pant-vouchers.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409, 422);
const tags = ["cart"];

/**
 * Pant machine vouchers (docs/pant.md, Vouchers): the machines report what
 * they print, and the shopper's cart takes those; each cart change is heard
 * on the live cart.
 */
export const pantVoucherRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/api/v1/pant-vouchers",
    {
      schema: {
        tags: ["pant"],
        summary:
          "A pant machine (Authorization: Device <pant_machine key>) reports a voucher it printed; only reported vouchers pay in a cart",
        body: pantVoucherIssueSchema,
        response: { 200: issuedPantVoucherSchema, 201: issuedPantVoucherSchema, ...errorResponses(400, 401, 409, 422) },
      },
    },
    async (request, reply) => {
      const machine = await deviceOf(app.db, request.headers.authorization, "pant_machine", {
        missing: "The pant machine must send its device key",
        unknown: "Unknown pant machine key",
      });
      const { voucher, created } = await issueVoucher(app.db, machine, request.body.barcode);
      return reply.status(created ? 201 : 200).send(voucher);
    },
  );

  app.post(
    "/api/v1/cart/vouchers",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "Add a pant machine voucher (pantkvitto) to the visit's cart; each voucher is taken once in the chain",
        body: cartVoucherAddSchema,
        response: { 200: cartSchema, ...errors },
      },
    },
    async (request) => {
      const { session_id, barcode, scan_id } = request.body;
      const cart = await addVoucher({
        db: app.db,
        customerId: shopperOf(request),
        sessionId: session_id,
        barcode,
        scanId: scan_id,
        at: app.saleClock(),
      });
      await announce(app.bus, request.log, session_id, [{ type: "cart_changed" }]);
      return cart;
    },
  );

  app.delete(
    "/api/v1/cart/:session_id/vouchers/:code",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "Take a pant machine voucher out of the visit's cart; it is free again",
        params: cartVoucherParams,
        response: { 200: cartSchema, ...errors },
      },
    },
    async (request) => {
      const { session_id, code } = request.params;
      const cart = await removeVoucher({
        db: app.db,
        customerId: shopperOf(request),
        sessionId: session_id,
        code,
        at: app.saleClock(),
      });
      await announce(app.bus, request.log, session_id, [{ type: "cart_changed" }]);
      return cart;
    },
  );
};
