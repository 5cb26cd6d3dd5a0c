import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import fastifyCookie from "@fastify/cookie";
import fastifyStatic from "@fastify/static";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import fastifyWebsocket from "@fastify/websocket";
import { sql } from "drizzle-orm";
import Fastify, { type FastifyInstance } from "fastify";
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Config } from "./config.ts";
import { type Database, openDatabase } from "./db/client.ts";
import { seedReferenceData } from "./db/reference-data.ts";
import { adminAuthRoutes } from "./features/admin-auth/admin-auth.routes.ts";
import { adminSessionExpiry } from "./features/admin-auth/admin-auth.service.ts";
import { analyticsRoutes } from "./features/analytics/analytics.routes.ts";
import { auditRoutes } from "./features/audit/audit.routes.ts";
import { sealerFor } from "./features/cameras/camera-credentials.ts";
import { startCameraHealth } from "./features/cameras/camera-health.ts";
import { camerasRoutes } from "./features/cameras/cameras.routes.ts";
import type { CameraDevices } from "./features/cameras/device-ops.ts";
import { createCameraDevices } from "./features/cameras/devices.ts";
import { zonePicture } from "./features/cameras/zone-picture.ts";
import { campaignRoutes } from "./features/campaigns/campaigns.routes.ts";
import { cartRoutes } from "./features/cart/cart.routes.ts";
import { CLOSE_HANDSHAKE_MS, registerCartSocket, WS_CLOSE } from "./features/cart/cart.socket.ts";
import { checkoutRoutes } from "./features/checkout/checkout.routes.ts";
import { dashboardRoutes } from "./features/dashboard/dashboard.routes.ts";
import { deviceRoutes } from "./features/devices/devices.routes.ts";
import { exitRoutes } from "./features/exit/exit.routes.ts";
import { faceRoutes } from "./features/face/face.routes.ts";
import { createFaceCheck } from "./features/face/face-check.ts";
import { descriptorSeal, faceDescriptorExpiry } from "./features/face/face-descriptors.ts";
import { healthRoutes } from "./features/health/health.routes.ts";
import { offerRoutes } from "./features/offers/offers.routes.ts";
import { receiptMailExpiry } from "./features/orders/receipt-mail.outbox.ts";
import { startReceiptMails } from "./features/orders/receipt-mail.sender.ts";
import { pantAmountRoutes } from "./features/pant/pant-amounts.routes.ts";
import { pantVoucherRoutes } from "./features/pant-vouchers/pant-vouchers.routes.ts";
import { priceGroupPriceRoutes } from "./features/price-groups/price-group-prices.routes.ts";
import { priceGroupRoutes } from "./features/price-groups/price-groups.routes.ts";
import { createOfferBook } from "./features/pricing/offer-book.ts";
import { productRoutes } from "./features/products/products.routes.ts";
import { createProductSearch } from "./features/products/search-index.ts";
import { profileRoutes } from "./features/profile/profile.routes.ts";
import { publicRoutes } from "./features/public/public.routes.ts";
import { refundRoutes } from "./features/refunds/refunds.routes.ts";
import { adminSessionRoutes } from "./features/sessions/admin-sessions.routes.ts";
import { sessionAnnouncer } from "./features/sessions/session-events.ts";
import { sessionRoutes } from "./features/sessions/sessions.routes.ts";
import { createSettingsReader } from "./features/settings/effective-settings.ts";
import { settingsRoutes } from "./features/settings/settings.routes.ts";
import { shopperAuthExpiry } from "./features/shopper-auth/shopper-auth.expiry.ts";
import { shopperAuthRoutes } from "./features/shopper-auth/shopper-auth.routes.ts";
import { watchSignIns } from "./features/shopper-auth/sign-in-watch.ts";
import { spotCheckRoutes } from "./features/spot-checks/spot-checks.routes.ts";
import { storePriceRoutes } from "./features/store-prices/store-prices.routes.ts";
import { storeListChangesFold } from "./features/stores/store-list.ts";
import { storeRoutes } from "./features/stores/stores.routes.ts";
import { unpaidVisitRoutes } from "./features/unpaid-visits/unpaid-visits.routes.ts";
import { vatRateRoutes } from "./features/vat-rates/vat-rates.routes.ts";
import { visitRoutes } from "./features/visits/visits.routes.ts";
import { sameOriginOnly } from "./platform/auth.ts";
import { createBankIdClient } from "./platform/bankid/client.ts";
import { deriveKey } from "./platform/crypto.ts";
import { simulatedDoor, webhookDoor } from "./platform/door.ts";
import { openEventBus } from "./platform/event-transports.ts";
import { createFaceModel, type FaceModel } from "./platform/face/face-model.ts";
import { type ExpiryJob, scheduleHousekeeping } from "./platform/housekeeping.ts";
import {
  clientErrorHandler,
  errorBodyForEmptyReplies,
  errorHandler,
  frameworkErrors,
  logSerializers,
} from "./platform/http-errors.ts";
import { refuseControlCharacters } from "./platform/input-guard.ts";
import { createSmtpMailer } from "./platform/mail.ts";
import { registerMetrics } from "./platform/metrics.ts";
import { createStripeProvider } from "./platform/payments/stripe-provider.ts";
import { rateLimitExpiry } from "./platform/rate-limit.ts";
import { securityHeaders } from "./platform/security-headers.ts";
import { closeConnectionsWhileDraining, onCloseStep } from "./platform/shutdown.ts";

export type BuildOptions = {
  /** Use this database instead of opening the configured one (tests share one per file). */
  database?: Database;
  /** The face model the face check runs (platform/face); one in a worker thread of this process by default. */
  faceModel?: FaceModel;
  /** What talks to cameras; by default the real protocols (platform/cameras). */
  cameraDevices?: CameraDevices;
  /**
   * The moment a checkout prices an order (which day's VAT rates apply); the
   * real time unless a test moves it to the edge of a rate's validity.
   */
  saleClock?: () => Date;
  /** How long a request may take a shopper's sign-in as live without asking (SIGN_IN_TRUST_MS by default). */
  signInTrustMs?: number;
};

export const BODY_LIMIT_BYTES = 1024 * 1024;

const API_DESCRIPTION = `Cashierless store platform.

**Live cart (WebSocket \`/ws/cart\`).** Connect to \`/ws/cart?session_id=<visit id>\` and send first
\`{"type":"auth","access_token":"<shopper access token>"}\` (never a token in the address). The server answers
\`{"type":"ready","cart":{...}}\` (the shape of GET /api/v1/cart/{session_id}) or closes with 4400 (bad session_id),
4401 (not signed in) or 4403 (not your visit). It then pushes \`product_added\` (with \`product\`),
\`product_removed\` (with \`product_id\`) or \`cart_changed\`, each followed by \`cart_updated\` with the whole cart.
The socket closes with 4401 when its access token expires or its sign-in ends (sign-out, a reused refresh token):
refresh the token and connect once more. A visit keeps its 5 newest sockets; an older one closes with 4409 and
should not reconnect by itself. It pings every 25 s and drops a peer that does not answer within 60 s; reconnect
with backoff and reload the cart. Details: docs/live-cart.md.`;

/** Every table whose rows expire, with the delete that clears them; housekeeping runs them on a timer. */
export const EXPIRY_JOBS: readonly ExpiryJob[] = [
  rateLimitExpiry,
  adminSessionExpiry,
  ...shopperAuthExpiry,
  receiptMailExpiry,
  faceDescriptorExpiry,
  storeListChangesFold,
];

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ["req.headers.cookie", "req.headers.authorization"],
      serializers: logSerializers,
    },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    genReqId: (req) => {
      const incoming = req.headers["x-request-id"];
      return typeof incoming === "string" && /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors,
    clientErrorHandler,
    // While it closes, requests on connections already open are served rather than answered 503
    // (platform/shutdown.ts drains first); idle keep-alive connections are closed at once.
    return503OnClosing: false,
    forceCloseConnections: "idle",
  }).withTypeProvider<ZodTypeProvider>();

  // Bodies are JSON (the product import adds text/csv for its own route): text/plain is refused with 415,
  // not parsed into a string that then fails validation.
  app.removeContentTypeParser("text/plain");
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  app.addHook("onSend", errorBodyForEmptyReplies);

  const ownsDatabase = !options.database;
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: config.databasePoolSize,
      logger: app.log,
    }));
  await seedReferenceData(database.db);
  app.decorate("config", config);
  app.decorate("draining", false);
  closeConnectionsWhileDraining(app);
  app.decorate("database", database);
  app.decorate("db", database.db);
  app.decorate("bankid", config.bankid ? createBankIdClient(config.bankid) : null);
  app.decorate("door", config.doorWebhook ? webhookDoor(config.doorWebhook) : simulatedDoor(app.log));
  app.decorate("saleClock", options.saleClock ?? (() => new Date()));
  app.decorate("cameraDevices", options.cameraDevices ?? createCameraDevices());
  app.decorate("cameraSealer", sealerFor(deriveKey(config.secretKey, "camera-password-seal")));
  app.decorate(
    "payments",
    config.stripe ? createStripeProvider({ secretKey: config.stripe.secretKey, apiBase: config.stripe.apiBase }) : null,
  );
  app.decorate("shopperKeys", {
    personalNumberHash: deriveKey(config.secretKey, "personal-number-hash"),
    personalNumberSeal: deriveKey(config.secretKey, "personal-number-seal"),
    jwt: deriveKey(config.secretKey, "shopper-jwt"),
  });
  app.decorateRequest("admin", null);
  app.decorateRequest("shopperId", null);
  if (ownsDatabase) onCloseStep(app, "database", () => database.close());
  const bus = openEventBus({
    redisUrl: config.redisUrl,
    client: (database.db as unknown as { $client: unknown }).$client,
    notify: async (channel, payloads) => {
      await database.db.execute(
        sql`select pg_notify(${channel}, p) from unnest(${sql.param(payloads)}::text[]) with ordinality as t(p, n) order by n`,
      );
    },
    logger: app.log,
  });
  app.decorate("bus", bus);
  onCloseStep(app, "event bus", () => bus.close());
  const signIns = watchSignIns({
    db: database.db,
    bus,
    jwtKey: app.shopperKeys.jwt,
    logger: app.log,
    trustMs: options.signInTrustMs,
  });
  app.decorate("signIns", signIns);
  onCloseStep(app, "sign-in watch", () => signIns.close());
  const settingsReader = createSettingsReader({ db: database.db, bus, logger: app.log });
  app.decorate("settings", settingsReader);
  onCloseStep(app, "settings", () => settingsReader.close());
  const offerBook = createOfferBook({ db: database.db, bus, logger: app.log });
  app.decorate("offerBook", offerBook);
  onCloseStep(app, "offer book", () => offerBook.close());
  const productSearch = createProductSearch({ db: database.db, bus, logger: app.log });
  app.decorate("productSearch", productSearch);
  onCloseStep(app, "product search", () => productSearch.close());
  const faceCheck = createFaceCheck({
    db: database.db,
    model: options.faceModel ?? createFaceModel(),
    picture: zonePicture(app),
    seal: descriptorSeal(config.secretKey),
    log: app.log,
    announce: sessionAnnouncer(bus, app.log),
  });
  app.decorate("faceCheck", faceCheck);
  onCloseStep(app, "face check", () => faceCheck.close());
  app.decorate("cameraHealth", startCameraHealth(app));
  scheduleHousekeeping(app, EXPIRY_JOBS);
  startReceiptMails(app, config.smtpUrl ? createSmtpMailer({ url: config.smtpUrl, from: config.mailFrom }) : null);

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  app.addHook("onRequest", sameOriginOnly);
  app.addHook("preValidation", refuseControlCharacters);

  await app.register(fastifyCookie);
  securityHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval' lets our own barcode decoder (WebAssembly from our origin) compile; it allows no eval().
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        // Radix and Sonner set inline styles; no other origin is allowed.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    // Our pages are served over plain http on localhost in development.
    strictTransportSecurity: config.secureCookies ? undefined : false,
  });

  if (config.apiDocs) {
    await app.register(fastifySwagger, {
      openapi: {
        info: { title: "Glide API", version: "1.0.0", description: API_DESCRIPTION },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(fastifySwaggerUi, {
      routePrefix: "/api/docs",
      staticCSP: true,
      // The docs UI's own policy allows any https origin; ours allows only this one.
      transformStaticCSP: (header) =>
        header.replaceAll(" https:", "").replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
    });
    app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  }

  registerMetrics(app, config.metricsToken);
  await app.register(healthRoutes);
  await app.register(adminAuthRoutes);
  await app.register(dashboardRoutes);
  await app.register(analyticsRoutes);
  await app.register(auditRoutes);
  await app.register(storeRoutes);
  await app.register(settingsRoutes);
  await app.register(vatRateRoutes);
  await app.register(pantAmountRoutes);
  await app.register(campaignRoutes);
  await app.register(offerRoutes);
  await app.register(storePriceRoutes);
  await app.register(priceGroupRoutes);
  await app.register(priceGroupPriceRoutes);
  await app.register(camerasRoutes);
  await app.register(productRoutes);
  await app.register(deviceRoutes);
  await app.register(publicRoutes);
  await app.register(shopperAuthRoutes);
  await app.register(sessionRoutes);
  await app.register(adminSessionRoutes);
  await app.register(unpaidVisitRoutes);
  await app.register(visitRoutes);
  await app.register(fastifyWebsocket, {
    options: { maxPayload: 4096, closeTimeout: CLOSE_HANDSHAKE_MS },
    // Closing (a restart): each socket is told so, and the phone connects again at once, to another instance.
    preClose(done) {
      for (const client of this.websocketServer.clients) client.close(WS_CLOSE.restart, "server restarting");
      this.websocketServer.close();
      done();
    },
  });
  await app.register(cartRoutes);
  await app.register(pantVoucherRoutes);
  await app.register(checkoutRoutes);
  await app.register(profileRoutes);
  await app.register(exitRoutes);
  await app.register(faceRoutes);
  await app.register(refundRoutes);
  await app.register(spotCheckRoutes);
  await app.register(async (scope) => registerCartSocket(scope));

  const indexHtml = path.join(config.webDist, "index.html");
  const hasWeb = existsSync(indexHtml);
  // The shopper app has its own small page, so a phone never loads the console's code.
  const shopperPage = existsSync(path.join(config.webDist, "customer.html")) ? "customer.html" : "index.html";
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies; the browser gets the one it accepts, with Vary: Accept-Encoding.
      preCompressed: true,
      // Hashed asset names never change; index.html must always be fresh.
      setHeaders: (reply, filePath) => {
        reply.header(
          "cache-control",
          filePath.includes(`${path.sep}assets${path.sep}`) ? "public, max-age=31536000, immutable" : "no-cache",
        );
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split("?")[0] ?? "";
    const wantsPage = request.method === "GET" || request.method === "HEAD";
    // /metrics is never a page: without METRICS_TOKEN a scraper must see that it is not served.
    const notPage = url.startsWith("/api/") || url === "/api" || url === "/metrics";
    if (!notPage && wantsPage && hasWeb && !path.extname(url)) {
      const page = url === "/customer" || url.startsWith("/customer/") ? shopperPage : "index.html";
      return reply.header("cache-control", "no-cache").type("text/html").sendFile(page);
    }
    return reply.status(404).send({ detail: `No route ${request.method} ${url}`, code: "not_found" });
  });

  return app;
}
