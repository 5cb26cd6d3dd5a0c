import { errorSchema, publicConfigSchema, publicStoreSchema } from "@glide/contracts";
import { and, asc, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { settings, stores } from "../../db/schema/index.ts";
import { bankIdAppUrlFor } from "../../platform/bankid/addresses.ts";
import { fieldError, notFound } from "../../platform/errors.ts";

/** The shopper followed a link or QR code whose store id is not one. */
export const STORE_LINK_INVALID = "Länken leder inte till någon butik. Skanna QR-koden vid butikens dörr igen.";

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
        // Checked in the handler, so that the shopper reads a Swedish sentence rather than a field name.
        params: z.object({ store_id: z.string().describe("The store's id (a UUID) or demo") }),
        response: { 200: publicStoreSchema, 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      let id = request.params.store_id;
      if (id !== "demo" && !z.uuid().safeParse(id).success) {
        throw fieldError("store_id", STORE_LINK_INVALID, 400, "invalid_store_id");
      }
      if (id === "demo") {
        const [marked] = await app.db
          .select({ value: settings.value })
          .from(settings)
          .where(and(eq(settings.category, "store"), eq(settings.key, "demo_store_id")));
        const [oldest] = await app.db
          .select({ id: stores.id })
          .from(stores)
          .where(eq(stores.isActive, true))
          .orderBy(asc(stores.createdAt), asc(stores.name))
          .limit(1);
        id = typeof marked?.value === "string" ? marked.value : (oldest?.id ?? "");
        if (!id) throw notFound("Det finns ingen demobutik.", "unknown_store");
      }
      const [store] = await app.db
        .select({
          id: stores.id,
          name: stores.name,
          address: stores.address,
          postal_code: stores.postalCode,
          city: stores.city,
          is_active: stores.isActive,
        })
        .from(stores)
        .where(eq(stores.id, id));
      if (!store) throw notFound("Butiken finns inte.", "unknown_store");
      return store;
    },
  );
};
