import { publicConfigSchema, publicStoreParams, publicStoreSchema } from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { bankIdAppUrlFor } from "../../platform/bankid/addresses.ts";
import { errorResponses } from "../../platform/route-errors.ts";
import { publicStore } from "./public.service.ts";

/**
 * What the shopper's landing page may know of a store: its name and where
 * it is. "demo" is the store the demo start marks (store/demo_store_id), or
 * the oldest active store.
 */
export const publicRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/v1/public/config",
    {
      schema: {
        tags: ["shopper"],
        summary:
          "What the shopper app needs to know of the server: whether the development aids are on, where the BankID app is",
        response: { 200: publicConfigSchema },
      },
    },
    async (request, reply) => {
      // The app's address depends on the host name asked for (see bankIdAppUrlFor).
      reply.header("vary", "Host");
      return {
        dev_tools: app.config.devTools,
        bankid_app_url: bankIdAppUrlFor(app.config.bankidAppUrl, request.hostname),
        // A simulator on loopback is reached under the host the phone used, as the BankID app page is.
        card_page_url: app.config.cardPageUrl ? bankIdAppUrlFor(app.config.cardPageUrl, request.hostname) : null,
      };
    },
  );

  app.get(
    "/api/v1/public/stores/:store_id",
    {
      schema: {
        tags: ["shopper"],
        summary: "A store's name and address for the landing page (no sign-in)",
        // Checked in the service, so that the shopper reads a Swedish sentence rather than a field name.
        params: publicStoreParams,
        response: { 200: publicStoreSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => publicStore(app.db, request.params.store_id),
  );
};
