import {
  cartItemParams,
  cartQuantitySchema,
  cartScanResponseSchema,
  cartScanSchema,
  cartSchema,
  cartSessionParams,
  cartWorkerSchema,
  errorSchema,
} from "@glide/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { queryRows, sql } from "../../db/client.ts";
import { sha256 } from "../../platform/crypto.ts";
import { unauthorized } from "../../platform/errors.ts";
import { requireShopper, shopperOf } from "../shopper-auth/shopper-auth.hooks.ts";
import { addedEvent, announce, type CartEvent, collectSessionChanges } from "./cart.events.ts";
import { getCart, removeItem, scanIntoCart, setQuantity, workerChange } from "./cart.service.ts";
import { limitsFrom } from "./cart-limits.ts";

const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  422: errorSchema,
};
const tags = ["cart"];

export const cartRoutes: FastifyPluginAsyncZod = async (app) => {
  // A store's cart limits, from its settings (a copy per instance, read before any statement).
  const limitsOf = async (storeId: string) => limitsFrom(await app.settings.effective(storeId));
  // The Sessions screen's feed: one more small message per change, after the cart's own.
  app.post(
    "/api/v1/cart/scan",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "Add one of the scanned product to the visit's cart; the same scan_id twice adds once",
        body: cartScanSchema,
        response: { 200: cartScanResponseSchema, ...errors },
      },
    },
    async (request) => {
      const visit = collectSessionChanges();
      const { session_id, barcode, scan_id } = request.body;
      const result = await scanIntoCart({
        db: app.db,
        customerId: shopperOf(request),
        sessionId: session_id,
        barcode,
        scanId: scan_id,
        limitsOf,
        announce: visit.announce,
      });
      await announce(app.bus, request.log, session_id, [addedEvent(result.item)], visit.changes);
      return result;
    },
  );

  app.get(
    "/api/v1/cart/:session_id",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "The visit's cart: lines and total",
        params: cartSessionParams,
        response: { 200: cartSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return getCart({ db: app.db, customerId: shopperOf(request), sessionId: request.params.session_id });
    },
  );

  app.put(
    "/api/v1/cart/item/:item_id",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "Set a line's quantity (0 removes it); answers the cart",
        params: cartItemParams,
        body: cartQuantitySchema,
        response: { 200: cartSchema, ...errors },
      },
    },
    async (request) => {
      const visit = collectSessionChanges();
      const itemId = request.params.item_id;
      const before = await quantityOf(itemId);
      const { cart, removed } = await setQuantity({
        db: app.db,
        customerId: shopperOf(request),
        itemId,
        quantity: request.body.quantity,
        limitsOf,
        announce: visit.announce,
      });
      const line = cart.items.find((i) => i.id === itemId);
      const events: CartEvent[] = [];
      if (removed) events.push({ type: "product_removed", product_id: removed.product_id });
      else if (line && before !== null && line.quantity === before + 1) events.push(addedEvent(line));
      else if (line && before !== null && line.quantity === before - 1)
        events.push({ type: "product_removed", product_id: line.product.id });
      else events.push({ type: "cart_changed" });
      await announce(app.bus, request.log, cart.session_id, events, visit.changes);
      return cart;
    },
  );

  app.delete(
    "/api/v1/cart/item/:item_id",
    {
      preHandler: requireShopper,
      schema: {
        tags,
        summary: "Remove a line; answers the cart",
        params: cartItemParams,
        response: { 200: cartSchema, ...errors },
      },
    },
    async (request) => {
      const visit = collectSessionChanges();
      const { cart, removed } = await removeItem({
        db: app.db,
        customerId: shopperOf(request),
        itemId: request.params.item_id,
        announce: visit.announce,
      });
      await announce(
        app.bus,
        request.log,
        cart.session_id,
        removed ? [{ type: "product_removed", ...removed }] : [],
        visit.changes,
      );
      return cart;
    },
  );

  app.post(
    "/api/v1/cart/worker",
    {
      schema: {
        tags,
        summary:
          "The store's recognition worker (Authorization: Device <camera_worker key>) adds or removes one product",
        body: cartWorkerSchema,
        response: { 200: cartSchema, ...errors },
      },
    },
    async (request) => {
      const visit = collectSessionChanges();
      const storeId = await cameraWorkerStore(request.headers.authorization);
      const { session_id, product_id, action, event_id } = request.body;
      const { cart, item, product } = await workerChange({
        db: app.db,
        storeId,
        sessionId: session_id,
        productId: product_id,
        action,
        eventId: event_id,
        limitsOf,
        announce: visit.announce,
      });
      const event: CartEvent =
        action === "add" && item ? addedEvent(item) : { type: "product_removed", product_id: product.id };
      await announce(app.bus, request.log, session_id, [event], visit.changes);
      return cart;
    },
  );

  async function quantityOf(itemId: string): Promise<number | null> {
    const [row] = await queryRows<{ quantity: number }>(
      app.db,
      sql`select quantity from cart_items where id = ${itemId}`,
    );
    return row?.quantity ?? null;
  }

  /** The store whose camera_worker key this is; the key's hash is all we keep. */
  async function cameraWorkerStore(header: string | undefined): Promise<string> {
    const key = /^Device\s+(\S+)$/i.exec(header ?? "")?.[1];
    if (!key) throw unauthorized("The recognition worker must send its device key", "device_key_required");
    const [device] = await queryRows<{ store_id: string }>(
      app.db,
      sql`update store_device_keys set last_used_at = now()
          where key_hash = ${sha256(key)} and kind = 'camera_worker' returning store_id`,
    );
    if (!device) throw unauthorized("Unknown device key", "invalid_device_key");
    return device.store_id;
  }
};
