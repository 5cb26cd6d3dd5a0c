import {
  cameraIdParams,
  cameraInputSchema,
  cameraSchema,
  cameraSystemInputSchema,
  cameraSystemSchema,
  cameraSystemUpdateSchema,
  cameraUpdateSchema,
  connectionTestInputSchema,
  connectionTestSchema,
  ptzCommandSchema,
  ptzPresetSchema,
  ptzResultSchema,
  snapshotSchema,
  statusChangeSchema,
  streamInfoSchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../platform/route-errors.ts";
import { actorOf, requireAdmin } from "../admin-auth/admin-auth.hooks.ts";
import { networksOf } from "./addresses.ts";
import { listCameras, listSystems } from "./camera-records.ts";
import { statusHistory } from "./camera-status.ts";
import { createSystem, deleteSystem, updateSystem } from "./camera-systems.ts";
import { createCamera, deleteCamera, updateCamera } from "./cameras.service.ts";
import {
  cameraPtz,
  cameraPtzPresets,
  cameraSnapshot,
  cameraStream,
  readSnapshot,
  testSystem,
  testTyped,
} from "./device-ops.ts";

export const camerasRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preHandler", requireAdmin);
  const tags = ["cameras"];
  const errors = errorResponses(400, 401, 403, 404);
  const writeErrors = { ...errors, ...errorResponses(422) };
  const deviceErrors = { ...errors, ...errorResponses(409, 502, 504) };
  const sealer = app.cameraSealer;
  const networks = networksOf(app);
  const settingsFor = (storeId: string) => app.settings.effective(storeId);

  app.get(
    "/api/v1/cameras/systems",
    {
      schema: {
        tags,
        summary: "Camera systems of the stores the admin manages",
        response: { 200: z.array(cameraSystemSchema), ...errors },
      },
    },
    (request) => listSystems({ db: app.db, actor: actorOf(request) }),
  );

  app.post(
    "/api/v1/cameras/systems",
    {
      schema: {
        tags,
        summary: "Add a camera system; its password is sealed at rest and never returned",
        body: cameraSystemInputSchema,
        response: { 201: cameraSystemSchema, ...writeErrors },
      },
    },
    async (request, reply) => {
      const system = await createSystem({
        db: app.db,
        actor: actorOf(request),
        input: request.body,
        settings: await app.settings.effective(request.body.store_id),
        sealer,
        networks,
      });
      app.cameraHealth.probe({ systemId: system.id });
      return reply.status(201).send(system);
    },
  );

  app.put(
    "/api/v1/cameras/systems/:id",
    {
      schema: {
        tags,
        summary:
          "Change a camera system; an empty password keeps the stored one, unless host, port, connection type or user name change",
        params: cameraIdParams,
        body: cameraSystemUpdateSchema,
        response: { 200: cameraSystemSchema, ...writeErrors },
      },
    },
    async (request) => {
      const system = await updateSystem({
        db: app.db,
        actor: actorOf(request),
        id: request.params.id,
        input: request.body,
        sealer,
        networks,
      });
      app.cameraHealth.probe({ systemId: system.id });
      return system;
    },
  );

  app.delete(
    "/api/v1/cameras/systems/:id",
    {
      schema: {
        tags,
        summary: "Delete a camera system and all its cameras",
        params: cameraIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteSystem({ db: app.db, actor: actorOf(request), id: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.post(
    "/api/v1/cameras/systems/:id/test",
    {
      schema: {
        tags,
        summary: "Test the connection by its type (ONVIF, RTSP or HTTP); the answer names the step that failed",
        params: cameraIdParams,
        response: { 200: connectionTestSchema, ...errors },
      },
    },
    (request) => testSystem(app, actorOf(request), request.params.id),
  );

  app.post(
    "/api/v1/cameras/systems/test",
    {
      schema: {
        tags,
        summary:
          "Test connection settings as typed, before they are saved: the rules of saving them; with system_id an empty password is the stored one while the address and user are unchanged. Nothing is stored.",
        body: connectionTestInputSchema,
        response: { 200: connectionTestSchema, ...writeErrors },
      },
    },
    (request) => testTyped(app, actorOf(request), request.body),
  );

  app.get(
    "/api/v1/cameras/cameras",
    {
      schema: {
        tags,
        summary: "Cameras of the stores the admin manages",
        response: { 200: z.array(cameraSchema), ...errors },
      },
    },
    (request) => listCameras({ db: app.db, actor: actorOf(request) }),
  );

  app.post(
    "/api/v1/cameras/cameras",
    {
      schema: {
        tags,
        summary: "Add a camera, to a system or standalone; fps and resolution within the settings",
        body: cameraInputSchema,
        response: { 201: cameraSchema, ...writeErrors },
      },
    },
    async (request, reply) => {
      const camera = await createCamera({
        db: app.db,
        actor: actorOf(request),
        input: request.body,
        settingsFor,
        networks,
      });
      app.cameraHealth.probe({ cameraId: camera.id });
      return reply.status(201).send(camera);
    },
  );

  app.put(
    "/api/v1/cameras/cameras/:id",
    {
      schema: {
        tags,
        summary: "Change a camera",
        params: cameraIdParams,
        body: cameraUpdateSchema,
        response: { 200: cameraSchema, ...writeErrors },
      },
    },
    async (request) => {
      const camera = await updateCamera({
        db: app.db,
        actor: actorOf(request),
        id: request.params.id,
        input: request.body,
        networks,
      });
      app.cameraHealth.probe({ cameraId: camera.id });
      return camera;
    },
  );

  app.delete(
    "/api/v1/cameras/cameras/:id",
    { schema: { tags, summary: "Delete a camera", params: cameraIdParams, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await deleteCamera({ db: app.db, actor: actorOf(request), id: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.get(
    "/api/v1/cameras/cameras/:id/history",
    {
      schema: {
        tags,
        summary: "The camera's status changes as the health checker saw them, newest first",
        params: cameraIdParams,
        response: { 200: z.array(statusChangeSchema), ...errors },
      },
    },
    (request) => statusHistory({ db: app.db, actor: actorOf(request), cameraId: request.params.id }),
  );

  app.get(
    "/api/v1/cameras/cameras/:id/stream",
    {
      schema: {
        tags,
        summary: "The camera's RTSP address (without credentials), resolution, fps and status",
        params: cameraIdParams,
        response: { 200: streamInfoSchema, ...deviceErrors },
      },
    },
    (request) => cameraStream(app, actorOf(request), request.params.id),
  );

  app.get(
    "/api/v1/cameras/cameras/:id/snapshot",
    {
      schema: {
        tags,
        summary: "Take a picture now: the server fetches it and serves it from our origin",
        params: cameraIdParams,
        response: { 200: snapshotSchema, ...deviceErrors },
      },
    },
    (request) => cameraSnapshot(app, actorOf(request), request.params.id),
  );

  app.get(
    "/api/v1/cameras/snapshots/:id",
    {
      schema: {
        tags,
        summary: "A picture taken by GET …/snapshot (JPEG)",
        params: cameraIdParams,
        response: { 200: z.any(), ...errors },
      },
    },
    async (request, reply) => {
      const picture = await readSnapshot(app, actorOf(request), request.params.id);
      return reply
        .type(picture.contentType)
        .header("cache-control", "private, max-age=3600, immutable")
        .header("x-content-type-options", "nosniff")
        .send(Buffer.from(picture.image));
    },
  );

  app.get(
    "/api/v1/cameras/cameras/:id/ptz/presets",
    {
      schema: {
        tags,
        summary: "The camera's PTZ presets",
        params: cameraIdParams,
        response: { 200: z.array(ptzPresetSchema), ...deviceErrors },
      },
    },
    (request) => cameraPtzPresets(app, actorOf(request), request.params.id),
  );

  app.post(
    "/api/v1/cameras/cameras/:id/ptz",
    {
      schema: {
        tags,
        summary: "Move the camera (a short ContinuousMove, then Stop), stop it, zoom, or go to a preset",
        params: cameraIdParams,
        body: ptzCommandSchema,
        response: { 200: ptzResultSchema, ...errorResponses(422), ...deviceErrors },
      },
    },
    (request) => cameraPtz(app, actorOf(request), request.params.id, request.body),
  );
};
