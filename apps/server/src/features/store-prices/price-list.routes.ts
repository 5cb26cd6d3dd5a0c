import { storePriceImportQuery, storePriceImportReportSchema, storePriceUpdateSchema } from "@glide/contracts";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";

const errors = errorResponses(400, 401, 403, 404, 422);
/** A price list is a few thousand rows at most; 8 MB is ample and keeps a stray upload cheap. */
const IMPORT_MAX_BYTES = 8 * 1024 * 1024;

type Who = { db: Db; actor: AdminActor; ownerId: string };

/**
 * A price list's routes under `path` (`/api/v1/stores/:id/prices`,
 * `/api/v1/price-groups/:id/prices`): the list, its CSV export and import,
 * and one product's price set or removed. The owner (a store, a price group)
 * is `:id`; who may read and change it is the service's to say.
 */
export function priceListRoutes<Query>(list: {
  path: string;
  tags: string[];
  /** The export's file name. */
  filename: string;
  summaries: { list: string; export: string; import: string; set: string; remove: string };
  params: z.ZodType<{ id: string }>;
  productParams: z.ZodType<{ id: string; productId: string }>;
  query: z.ZodType<Query>;
  /** The answers' schemas; the services' types are theirs. */
  listed: z.ZodType;
  price: z.ZodType;
  read: (who: Who, query: Query) => Promise<{ items: unknown; total: number }>;
  exportCsv: (who: Who) => Promise<string>;
  importCsv: (who: Who, csv: string, dryRun: boolean) => Promise<z.infer<typeof storePriceImportReportSchema>>;
  set: (who: Who, productId: string, price: number) => Promise<unknown>;
  remove: (who: Who, productId: string) => Promise<void>;
}): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook("preHandler", requireAdmin);
    const { tags, summaries } = list;
    const who = (request: Parameters<typeof actorOf>[0], ownerId: string): Who => ({
      db: app.db,
      actor: actorOf(request),
      ownerId,
    });

    app.get(
      list.path,
      {
        schema: {
          tags,
          summary: summaries.list,
          params: list.params,
          querystring: list.query,
          response: { 200: list.listed, ...errors },
        },
      },
      async (request, reply) => {
        const { items, total } = await list.read(who(request, request.params.id), request.query as Query);
        reply.header("x-total-count", String(total));
        return items;
      },
    );

    app.get(
      `${list.path}/export`,
      { schema: { tags, summary: summaries.export, params: list.params } },
      async (request, reply) => {
        const csv = await list.exportCsv(who(request, request.params.id));
        reply
          .header("content-type", "text/csv; charset=utf-8")
          .header("content-disposition", `attachment; filename="${list.filename}"`);
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
        `${list.path}/import`,
        {
          bodyLimit: IMPORT_MAX_BYTES,
          schema: {
            tags,
            summary: summaries.import,
            params: list.params,
            querystring: storePriceImportQuery,
            body: z.string(),
            response: { 200: storePriceImportReportSchema, ...errors },
          },
        },
        (request) => list.importCsv(who(request, request.params.id), request.body, request.query.dry_run),
      );
    });

    app.put(
      `${list.path}/:productId`,
      {
        schema: {
          tags,
          summary: summaries.set,
          params: list.productParams,
          body: storePriceUpdateSchema,
          response: { 200: list.price, ...errors },
        },
      },
      (request) => list.set(who(request, request.params.id), request.params.productId, request.body.price),
    );

    app.delete(
      `${list.path}/:productId`,
      {
        schema: { tags, summary: summaries.remove, params: list.productParams, response: { 204: z.null(), ...errors } },
      },
      async (request, reply) => {
        await list.remove(who(request, request.params.id), request.params.productId);
        return reply.status(204).send(null);
      },
    );
  };
}
