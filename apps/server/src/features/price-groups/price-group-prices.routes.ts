import {
  priceGroupParams,
  priceGroupPriceListQuerySchema,
  priceGroupPriceListSchema,
  priceGroupPriceParams,
  priceGroupPriceSchema,
  storePriceImportQuery,
  storePriceImportReportSchema,
  storePriceUpdateSchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import {
  deletePriceGroupPrice,
  exportPriceGroupPricesCsv,
  importPriceGroupPricesCsv,
  listPriceGroupPrices,
  setPriceGroupPrice,
} from "./price-group-prices.service.ts";

const errors = errorResponses(400, 401, 403, 404, 422);
/** As a store's price list: a few thousand rows at most. */
const IMPORT_MAX_BYTES = 8 * 1024 * 1024;

/** A price group's prices: whoever reads the group reads them; platform admins change them. */
export const priceGroupPriceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preHandler", requireAdmin);
  const tags = ["price-groups"];

  app.get(
    "/api/v1/price-groups/:id/prices",
    {
      schema: {
        tags,
        summary:
          "The group's prices (kronor) beside the catalogue's, by product name; search matches name or SKU. The total is in X-Total-Count.",
        params: priceGroupParams,
        querystring: priceGroupPriceListQuerySchema,
        response: { 200: priceGroupPriceListSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { items, total } = await listPriceGroupPrices({
        db: app.db,
        actor: actorOf(request),
        groupId: request.params.id,
        query: request.query,
      });
      reply.header("x-total-count", String(total));
      return items;
    },
  );

  app.get(
    "/api/v1/price-groups/:id/prices/export",
    {
      schema: {
        tags,
        summary: "The group's prices as CSV: sku, name, catalogue_price, price",
        params: priceGroupParams,
      },
    },
    async (request, reply) => {
      const csv = await exportPriceGroupPricesCsv({ db: app.db, actor: actorOf(request), groupId: request.params.id });
      reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="price-group-prices.csv"');
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
      "/api/v1/price-groups/:id/prices/import",
      {
        bodyLimit: IMPORT_MAX_BYTES,
        schema: {
          tags,
          summary:
            "Set the group's prices from CSV (sku, price; an empty price removes the group's price), as a store's: dry_run=true (the default) reports per row; false applies all rows or nothing (422)",
          params: priceGroupParams,
          querystring: storePriceImportQuery,
          body: z.string(),
          response: { 200: storePriceImportReportSchema, ...errors },
        },
      },
      (request) =>
        importPriceGroupPricesCsv({
          db: app.db,
          actor: actorOf(request),
          groupId: request.params.id,
          csv: request.body,
          dryRun: request.query.dry_run,
        }),
    );
  });

  app.put(
    "/api/v1/price-groups/:id/prices/:productId",
    {
      schema: {
        tags,
        summary: "Set the group's price of a product (kronor), for its stores without a price of their own",
        params: priceGroupPriceParams,
        body: storePriceUpdateSchema,
        response: { 200: priceGroupPriceSchema, ...errors },
      },
    },
    (request) =>
      setPriceGroupPrice({
        db: app.db,
        actor: actorOf(request),
        groupId: request.params.id,
        productId: request.params.productId,
        price: request.body.price,
      }),
  );

  app.delete(
    "/api/v1/price-groups/:id/prices/:productId",
    {
      schema: {
        tags,
        summary: "Remove the group's price of a product; 404 when it has none",
        params: priceGroupPriceParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deletePriceGroupPrice({
        db: app.db,
        actor: actorOf(request),
        groupId: request.params.id,
        productId: request.params.productId,
      });
      return reply.status(204).send(null);
    },
  );
};
