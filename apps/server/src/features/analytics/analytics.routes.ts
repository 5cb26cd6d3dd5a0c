import {
  type AnalyticsTable,
  analyticsHourSchema,
  analyticsQuerySchema,
  analyticsRefundDaySchema,
  analyticsRevenueRowSchema,
  analyticsRevenueSchema,
  analyticsSummarySchema,
  analyticsTopCategorySchema,
  analyticsTopProductSchema,
  analyticsTopQuerySchema,
} from "@glide/contracts";
import { stringify } from "csv-stringify/sync";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import { csvCell } from "../products/products.csv-format.ts";
import {
  type AnalyticsScope,
  analyticsRefunds,
  analyticsRevenue,
  analyticsRevenueRows,
  analyticsScope,
  analyticsSessionsByHour,
  analyticsSummary,
  analyticsTopCategories,
  analyticsTopProducts,
} from "./analytics.service.ts";

const tags = ["analytics"];
const errors = errorResponses(400, 401, 403, 404);
const BOM = "\uFEFF";

/** Columns holding kronor: written with two decimals and a dot (1234.50), as the API's numbers. */
const MONEY = new Set(["revenue", "vat", "revenue_excl_vat", "average_basket", "refunded", "net_revenue", "amount"]);

/**
 * A table as CSV: a BOM so spreadsheets read å, ä and ö as UTF-8, a header
 * row of the JSON field names, money with two decimals, and text cells that
 * a spreadsheet would run as a formula neutralised (products export's rule).
 */
export function analyticsCsv(rows: Record<string, unknown>[], columns: readonly string[]): string {
  const cell = (key: string, v: unknown) => (MONEY.has(key) && typeof v === "number" ? v.toFixed(2) : csvCell(v));
  return BOM + stringify([[...columns], ...rows.map((r) => columns.map((key) => cell(key, r[key])))]);
}

type Query = z.infer<typeof analyticsQuerySchema>;

type Read<T> = (scope: AnalyticsScope, query: Query & { limit?: number }) => Promise<T>;

/**
 * Reads one table for the scope the admin may see, as a CSV download of
 * `rows` (columns: `schema`'s fields), or as JSON: `json` when the screen
 * wants another shape than the CSV's rows, else the rows.
 */
function table<T extends Record<string, unknown>>(
  name: AnalyticsTable,
  schema: z.ZodType<T>,
  rows: Read<T[]>,
  json: Read<unknown> = rows,
) {
  const columns = Object.keys((schema as unknown as z.ZodObject).shape);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as Query & { limit?: number };
    const scope = await analyticsScope({
      db: request.server.db,
      actor: actorOf(request),
      from: query.from,
      to: query.to,
      storeId: query.store_id,
    });
    if (query.format !== "csv") return json(scope, query);
    const store = query.store_id ? `-${query.store_id.slice(0, 8)}` : "";
    reply
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="analytics-${name}-${query.from}-${query.to}${store}.csv"`);
    return reply.send(analyticsCsv(await rows(scope, query), columns));
  };
}

const csvNote = " With format=csv, the same table as a CSV download (text/csv, header row, kronor with two decimals).";

export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const get = (path: string, summary: string, querystring: z.ZodType, response: z.ZodType, handler: unknown) =>
    app.get(
      `/api/v1/admin/analytics/${path}`,
      {
        preHandler: requireAdmin,
        schema: { tags, summary: summary + csvNote, querystring, response: { 200: response, ...errors } },
      },
      handler as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
    );

  get(
    "summary",
    "Revenue incl. and excl. VAT, orders, entries, conversion, average basket and refunds over store-local days",
    analyticsQuerySchema,
    analyticsSummarySchema,
    // JSON: the one summary object; CSV: its one row.
    table(
      "summary",
      analyticsSummarySchema,
      async (scope) => [await analyticsSummary(db, scope)],
      (scope) => analyticsSummary(db, scope),
    ),
  );
  get(
    "revenue",
    "Revenue per store-local day (stores summed) and per store (days summed); the CSV has a row per day and store",
    analyticsQuerySchema,
    analyticsRevenueSchema,
    table(
      "revenue",
      analyticsRevenueRowSchema,
      (scope) => analyticsRevenueRows(db, scope),
      (scope) => analyticsRevenue(db, scope),
    ),
  );
  get(
    "sessions-by-hour",
    "Entries and purchases per store-local hour of day (0–23)",
    analyticsQuerySchema,
    z.array(analyticsHourSchema),
    table("sessions-by-hour", analyticsHourSchema, (scope) => analyticsSessionsByHour(db, scope)),
  );
  get(
    "top-products",
    "Best-selling products by revenue",
    analyticsTopQuerySchema,
    z.array(analyticsTopProductSchema),
    table("top-products", analyticsTopProductSchema, (scope, q) => analyticsTopProducts(db, scope, q.limit ?? 10)),
  );
  get(
    "top-categories",
    "Categories by revenue",
    analyticsTopQuerySchema,
    z.array(analyticsTopCategorySchema),
    table("top-categories", analyticsTopCategorySchema, (scope, q) => analyticsTopCategories(db, scope, q.limit ?? 10)),
  );
  get(
    "refunds",
    "Refunds per store-local day they were made",
    analyticsQuerySchema,
    z.array(analyticsRefundDaySchema),
    table("refunds", analyticsRefundDaySchema, (scope) => analyticsRefunds(db, scope)),
  );
};
