import {
  cartItemParams,
  cartQuantitySchema,
  cartScanResponseSchema,
  cartScanSchema,
  cartSchema,
  cartSessionParams,
  cartWorkerSchema,
} from "@glide/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { oneAtATime } from "../../platform/one-at-a-time.ts";
import { errorResponses } from "../../platform/route-errors.ts";
import { cartTotalsFromBook } from "../pricing/cart-offers.ts";
import { priceScan } from "../pricing/scan-pricing.ts";
import type { SessionChange } from "../sessions/session-events.ts";
import { requireShopper, shopperOf } from "../shopper-auth/shopper-auth.hooks.ts";
import { announce, type CartEvent, collectSessionChanges } from "./cart.events.ts";
import { cartVersion, getCart } from "./cart.service.ts";
import { limitsFrom } from "./cart-limits.ts";
import { keptCarts } from "./kept-carts.ts";
import { removeItem, setQuantity } from "./quantities.ts";
import { cameraWorkerStore, workerChange } from "./recognition-worker.ts";
import { scanBatches, scanIntoCart } from "./scanning.ts";

const errors = errorResponses(400, 401, 403, 404, 409, 422);
const tags = ["cart"];

export const cartRoutes: FastifyPluginAsyncZod = async (app) => {
  // A store's cart limits, from its settings (a copy per instance, read before any statement).
  const limitsOf = async (storeId: string) => limitsFrom(await app.settings.effective(storeId));
  // The carts' lines as this instance last saw them, each under its version: a scan reads them only when behind.
  const kept = keptCarts();
  const scans = scanBatches(app.db);
  // A visit's scans on this instance, one at a time: each scan writes the visit's row, so a burst of one shopper's
  // scans waits here rather than in the database, where each would hold one of the pool's connections meanwhile.
  const visitScans = oneAtATime();
  // A line change (not a scan, whose statement returns its version) is announced with the visit's cart_version read
  // after it committed: the version that change set, or a later one, which a cart holds only with the change in it.
  // A change that came to nothing has no events, and the read is skipped. The change has committed: a read that
  // fails only leaves the events without a version (told to every socket), never the shopper without an answer.
  const announceChange = async (
    log: FastifyBaseLogger,
    sessionId: string,
    events: CartEvent[],
    changes: SessionChange[],
  ) => {
    const version = events.length ? await cartVersion(app.db, sessionId).catch(() => null) : null;
    await announce(app.bus, log, sessionId, events, changes, version);
  };
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
      const at = app.saleClock();
      const { events, cart, version, ...answer } = await visitScans(session_id, () =>
        scanIntoCart({
          db: app.db,
          customerId: shopperOf(request),
          sessionId: session_id,
          barcode,
          scanId: scan_id,
          limitsOf,
          at,
          announce: visit.announce,
          kept,
          scans,
        }),
      );
      await announce(app.bus, request.log, session_id, events, visit.changes, version);
      // The cart's offers are evaluated anew after each change: the phone shows the server's discounts and total.
      const totals = cart
        ? priceScan(cart.lines, cart.facts, await app.offerBook.of(cart.facts.store_id, cart.facts.day), cart.pricing)
        : await cartTotalsFromBook(app.db, session_id, at, app.offerBook);
      return { ...answer, ...totals };
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
      return getCart({
        db: app.db,
        customerId: shopperOf(request),
        sessionId: request.params.session_id,
        at: app.saleClock(),
        book: app.offerBook,
      });
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
      const { cart, events } = await setQuantity({
        db: app.db,
        customerId: shopperOf(request),
        itemId: request.params.item_id,
        quantity: request.body.quantity,
        limitsOf,
        at: app.saleClock(),
        announce: visit.announce,
      });
      await announceChange(request.log, cart.session_id, events, visit.changes);
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
      const { cart, events } = await removeItem({
        db: app.db,
        customerId: shopperOf(request),
        itemId: request.params.item_id,
        at: app.saleClock(),
        announce: visit.announce,
      });
      await announceChange(request.log, cart.session_id, events, visit.changes);
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
      const storeId = await cameraWorkerStore(app.db, request.headers.authorization);
      const { session_id, product_id, action, event_id } = request.body;
      const { cart, events } = await workerChange({
        db: app.db,
        storeId,
        sessionId: session_id,
        productId: product_id,
        action,
        eventId: event_id,
        limitsOf,
        at: app.saleClock(),
        announce: visit.announce,
      });
      await announceChange(request.log, session_id, events, visit.changes);
      return cart;
    },
  );
};
