import { errorSchema, settingCategorySchema, settingParams, settingSchema } from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import { getSetting, listSettings } from "./settings.service.ts";

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preHandler", requireAdmin);
  const tags = ["settings"];
  const errors = { 400: errorSchema, 401: errorSchema, 404: errorSchema };

  app.get(
    "/api/v1/settings/",
    {
      schema: {
        tags,
        summary: "All settings, optionally of one category",
        querystring: z.object({ category: settingCategorySchema.optional() }),
        response: { 200: z.array(settingSchema), ...errors },
      },
    },
    (request) => listSettings({ db: app.db, category: request.query.category }),
  );

  app.get(
    "/api/v1/settings/:category/:key",
    {
      schema: {
        tags,
        summary: "One setting; the store form reads its dropdowns from store/types, countries, timezones, languages",
        params: settingParams,
        response: { 200: settingSchema, ...errors },
      },
    },
    (request) => getSetting({ db: app.db, category: request.params.category, key: request.params.key }),
  );
};
