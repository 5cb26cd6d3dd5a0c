import {
  storePriceImportQuery,
  storePriceImportReportSchema,
  storePriceListQuerySchema,
  storePriceListSchema,
  storePriceParams,
  storePriceSchema,
  storePricesParams,
  storePriceUpdateSchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import { exportStorePricesCsv, importStorePricesCsv } from "./store-prices.csv.ts";
import { deleteStorePrice, listStorePrices, setStorePrice } from "./store-prices.service.ts";

const errors = errorResponses(400, 401, 403, 404, 422);
/** A store's price list is a few thousand rows at most; 8 MB is ample and keeps a stray upload cheap. */
const IMPORT_MAX_BYTES = 8 * 1024 * 1024;

/** A store's own prices: admins who see the store read them; platform admins and its store admins change them. */
export const storePriceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preHandler", requireAdmin);
  const tags = ["store-prices"];

  app.get(
    "/api/v1/stores/:id/prices",
    {
      schema: {
        tags,
        summary:
          "The store's own prices (kronor) beside the catalogue's, by product name; search matches name or SKU. The total is in X-Total-Count.",
        params: storePricesParams,
        querystring: storePriceListQuerySchema,
        response: { 200: storePriceListSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { items, total } = await listStorePrices({
        db: app.db,
        actor: actorOf(request),
        storeId: request.params.id,
        query: request.query,
      });
      reply.header("x-total-count", String(total));
      return items;
    },
  );

  app.get(
    "/api/v1/stores/:id/prices/export",
    {
      schema: {
        tags,
        summary: "The store's own prices as CSV: sku, name, catalogue_price, price",
        params: storePricesParams,
      },
    },
    async (request, reply) => {
      const csv = await exportStorePricesCsv({ db: app.db, actor: actorOf(request), storeId: request.params.id });
      reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="store-prices.csv"');
      return reply.send(csv);
    },
  );

  // Only the import takes text: every other route answers 415 to a body that is not JSON.
  await app.register(async (csvScope) => {
    csvScope.addContentTypeParser(
      ["text/csv", "text/plain"],
      { parseAs: "string", bodyLimit: IMPORT_MAX_BYTES },
      (_req, body, done) => done(null, body),
    );
    csvScope.withTypeProvider<ZodTypeProvider>().post(
      "/api/v1/stores/:id/prices/import",
      {
        bodyLimit: IMPORT_MAX_BYTES,
        schema: {
          tags,
          summary:
            "Set the store's prices from CSV (sku, price; an empty price removes the store's price). dry_run=true (the default) reports per row; false applies every row in one transaction, or nothing (422) while any row is rejected",
          params: storePricesParams,
          querystring: storePriceImportQuery,
          body: z.string(),
          response: { 200: storePriceImportReportSchema, ...errors },
        },
      },
      (request) =>
        importStorePricesCsv({
          db: app.db,
          actor: actorOf(request),
          storeId: request.params.id,
          csv: request.body,
          dryRun: request.query.dry_run,
        }),
    );
  });

  app.put(
    "/api/v1/stores/:id/prices/:productId",
    {
      schema: {
        tags,
        summary: "Set the store's own price of a product (kronor), from the next scan in the store on",
        params: storePriceParams,
        body: storePriceUpdateSchema,
        response: { 200: storePriceSchema, ...errors },
      },
    },
    (request) =>
      setStorePrice({
        db: app.db,
        actor: actorOf(request),
        storeId: request.params.id,
        productId: request.params.productId,
        price: request.body.price,
      }),
  );

  app.delete(
    "/api/v1/stores/:id/prices/:productId",
    {
      schema: {
        tags,
        summary: "Remove the store's own price of a product: scans use the catalogue's again; 404 when it has none",
        params: storePriceParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteStorePrice({
        db: app.db,
        actor: actorOf(request),
        storeId: request.params.id,
        productId: request.params.productId,
      });
      return reply.status(204).send(null);
    },
  );
};
