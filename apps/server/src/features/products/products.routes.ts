import { mkdirSync } from "node:fs";
import fastifyStatic from "@fastify/static";
import {
  importReportSchema,
  PRODUCT_IMAGE_MAX_BYTES,
  PRODUCT_IMAGE_TYPES,
  productCodeParams,
  productIdParams,
  productImageSchema,
  productImportQuery,
  productInputSchema,
  productListQuerySchema,
  productLookupSchema,
  productSchema,
  productUpdateSchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, assertPlatformAdmin, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import { recordAudit } from "../audit/audit.ts";
import { exportProductsCsv, importProductsCsv } from "./products.csv.ts";
import { imagesDir, storeProductImage } from "./products.images.ts";
import { lookupProduct } from "./products.lookup.ts";
import { listCategories, listProducts } from "./products.search.ts";
import { createProduct, deleteProduct, getProduct, updateProduct } from "./products.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409, 422);
const tags = ["products"];
export const IMPORT_MAX_BYTES = 64 * 1024 * 1024;

export const productRoutes: FastifyPluginAsyncZod = async (app) => {
  mkdirSync(imagesDir(app.config.dataDir), { recursive: true });
  // Photos are public: the shopper app shows them, and their names are content hashes.
  await app.register(fastifyStatic, {
    root: imagesDir(app.config.dataDir),
    prefix: "/api/v1/products/images/",
    decorateReply: false,
    index: false,
    immutable: true,
    maxAge: "365d",
  });

  await app.register(async (scope) => {
    const admin = scope.withTypeProvider<ZodTypeProvider>();
    admin.addHook("preHandler", requireAdmin);
    // Whatever wrote products (a new one, a change, a deletion, an import): searches on every
    // instance see it, this one's before the answer leaves.
    admin.addHook("onSend", async (request, reply) => {
      if (request.method !== "GET" && reply.statusCode < 300) await app.productSearch.changed();
    });

    admin.get(
      "/api/v1/products/",
      {
        schema: {
          tags,
          summary: "Products; search matches name, SKU, brand or any barcode exactly. The total is in X-Total-Count.",
          querystring: productListQuerySchema,
          response: { 200: z.array(productSchema), ...errors },
        },
      },
      async (request, reply) => {
        const { items, total } = await listProducts({ db: app.db, query: request.query, index: app.productSearch });
        reply.header("x-total-count", String(total));
        return items;
      },
    );

    admin.get(
      "/api/v1/products/categories",
      { schema: { tags, summary: "The distinct categories", response: { 200: z.array(z.string()), ...errors } } },
      () => listCategories(app.db),
    );

    admin.get(
      "/api/v1/products/lookup/:code",
      {
        schema: {
          tags,
          summary: "Resolve a scanned code; Swedish variable-measure labels give their price or weight",
          params: productCodeParams,
          response: { 200: productLookupSchema, ...errors },
        },
      },
      (request) => lookupProduct({ db: app.db, code: request.params.code }),
    );

    admin.get(
      "/api/v1/products/export",
      {
        schema: {
          tags,
          summary: "All products, or the current search and category, as CSV",
          querystring: productListQuerySchema.pick({ search: true, category: true }),
        },
      },
      async (request, reply) => {
        // Read before the headers are set: an error is then answered as JSON in our shape.
        const csv = await exportProductsCsv({ db: app.db, ...request.query });
        reply
          .header("content-type", "text/csv; charset=utf-8")
          .header("content-disposition", 'attachment; filename="products.csv"');
        return reply.send(csv);
      },
    );

    // Only the import takes text: every other route answers 415 to a body that is not JSON.
    await admin.register(async (csvScope) => {
      csvScope.addContentTypeParser(
        ["text/csv", "text/plain"],
        { parseAs: "string", bodyLimit: IMPORT_MAX_BYTES },
        (_req, body, done) => done(null, body),
      );
      csvScope.withTypeProvider<ZodTypeProvider>().post(
        "/api/v1/products/import",
        {
          bodyLimit: IMPORT_MAX_BYTES,
          schema: {
            tags,
            summary: "Import CSV matched by SKU: dry_run=true reports per row; false applies in one transaction",
            querystring: productImportQuery,
            body: z.string(),
            response: { 200: importReportSchema, ...errors },
          },
        },
        async (request) =>
          importProductsCsv({
            db: app.db,
            actor: actorOf(request),
            csv: request.body,
            dryRun: request.query.dry_run,
            skipRejected: request.query.skip_rejected,
            defaultVatCategory: (await app.settings.effective()).product.default_vat_category,
          }),
      );
    });

    admin.get(
      "/api/v1/products/:id",
      {
        schema: { tags, summary: "One product", params: productIdParams, response: { 200: productSchema, ...errors } },
      },
      (request) => getProduct(app.db, request.params.id),
    );

    admin.post(
      "/api/v1/products/",
      {
        schema: {
          tags,
          summary: "Add a product",
          body: productInputSchema,
          response: { 201: productSchema, ...errors },
        },
      },
      async (request, reply) => {
        const product = await createProduct({
          db: app.db,
          actor: actorOf(request),
          input: request.body,
          defaultVatCategory: (await app.settings.effective()).product.default_vat_category,
        });
        return reply.status(201).send(product);
      },
    );

    admin.put(
      "/api/v1/products/:id",
      {
        schema: {
          tags,
          summary: "Edit a product (fields left out stay as they are)",
          params: productIdParams,
          body: productUpdateSchema,
          response: { 200: productSchema, ...errors },
        },
      },
      (request) => updateProduct({ db: app.db, actor: actorOf(request), id: request.params.id, input: request.body }),
    );

    admin.delete(
      "/api/v1/products/:id",
      {
        schema: { tags, summary: "Delete a product", params: productIdParams, response: { 204: z.null(), ...errors } },
      },
      async (request, reply) => {
        await deleteProduct({ db: app.db, actor: actorOf(request), id: request.params.id });
        return reply.status(204).send(null);
      },
    );
  });

  // Uploads take raw image bytes; any other type gets a clear 415.
  await app.register(async (scope) => {
    const upload = scope.withTypeProvider<ZodTypeProvider>();
    upload.addHook("preHandler", requireAdmin);
    upload.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: PRODUCT_IMAGE_MAX_BYTES }, (_req, body, done) =>
      done(null, body),
    );
    upload.post(
      "/api/v1/products/images",
      {
        bodyLimit: PRODUCT_IMAGE_MAX_BYTES,
        schema: {
          tags,
          summary: "Upload a product photo (JPEG, PNG or WebP, at most 5 MB); answers its image_url",
          response: { 201: productImageSchema, ...errors, ...errorResponses(413, 415) },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        assertPlatformAdmin(actor, "change products");
        const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
        if (!(PRODUCT_IMAGE_TYPES as readonly string[]).includes(type) || !Buffer.isBuffer(request.body)) {
          throw new AppError(415, "unsupported_media_type", "Images must be JPEG, PNG or WebP");
        }
        const imageUrl = await storeProductImage(app.config.dataDir, request.body);
        // The photo is only a file until a product's image_url names it; that edit is recorded as product.update.
        await recordAudit(app.db, {
          actor,
          action: "product.image_upload",
          entityType: "product_image",
          entityId: imageUrl,
          summary: `Product photo uploaded: ${imageUrl.split("/").pop()}`,
          after: { image_url: imageUrl },
        });
        return reply.status(201).send({ image_url: imageUrl });
      },
    );
  });
};
