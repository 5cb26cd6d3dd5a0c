// @ts-check
/**
 * `npm run mutate`: mutation testing (StrykerJS with the vitest runner) over
 * the contracts and the server's use cases. Every later feature's use cases
 * join GROUPS. `MUTATE=<group> npm run mutate` runs one group with the tests
 * that own it, which is what a shared machine can afford; with no MUTATE,
 * every group against every related test. Scores: bench/mutation.md.
 */

const server = "apps/server/src";
const feature = (name) => `${server}/features/${name}`;

/** mutate: the files whose mutants count; tests: the test files that own them (empty: every related test). */
const GROUPS = {
  contracts: {
    mutate: [
      "packages/contracts/src/**/*.ts",
      "!packages/contracts/src/**/*.test.ts",
      // The tests' own helpers.
      "!packages/contracts/src/testing.ts",
    ],
    tests: [],
  },
  // Without the stores tests: they sign in before their tests (beforeAll), which makes every mutant on the
  // sign-in path "static", run against all tests (hours instead of minutes here).
  "admin-auth": {
    mutate: [feature("admin-auth/admin-auth.service.ts")],
    tests: [
      feature("admin-auth/admin-auth.sign-in.test.ts"),
      feature("admin-auth/admin-auth.rate-limits.test.ts"),
      feature("admin-auth/admin-auth.sessions.test.ts"),
      feature("admin-auth/admin-auth.admins.test.ts"),
      feature("admin-auth/admin-auth.boundaries.test.ts"),
      `${server}/platform/housekeeping.test.ts`,
    ],
  },
  "admin-hooks": {
    mutate: [feature("admin-auth/admin-auth.hooks.ts")],
    tests: [
      feature("admin-auth/admin-auth.sign-in.test.ts"),
      feature("admin-auth/admin-auth.rate-limits.test.ts"),
      feature("admin-auth/admin-auth.sessions.test.ts"),
      feature("admin-auth/admin-auth.admins.test.ts"),
      // Store admins' reach is checked on the stores routes.
      feature("stores/stores.create.test.ts"),
      feature("stores/stores.edit.test.ts"),
      feature("stores/stores.permissions.test.ts"),
    ],
  },
  "shopper-tokens": {
    mutate: [feature("shopper-auth/shopper-tokens.ts")],
    tests: [
      feature("shopper-auth/shopper-tokens.test.ts"),
      feature("shopper-auth/shopper-auth.sign-in.test.ts"),
      feature("shopper-auth/shopper-auth.bankid.test.ts"),
    ],
  },
  // Issue 26: which sign-ins a request may take as live without asking the database, and when it must ask.
  "sign-in-watch": {
    mutate: [feature("shopper-auth/sign-in-watch.ts")],
    tests: [
      feature("shopper-auth/sign-in-watch.test.ts"),
      feature("shopper-auth/sign-in-watch.memory.test.ts"),
      feature("shopper-auth/shopper-tokens.test.ts"),
      feature("cart/cart.socket.sign-in.test.ts"),
    ],
  },
  // Issue 26: timed jobs once per round across instances, and events sent in batches.
  "background-jobs": {
    mutate: [`${server}/platform/housekeeping.ts`, `${server}/platform/event-transports.ts`],
    tests: [
      `${server}/platform/periodic.test.ts`,
      `${server}/platform/housekeeping.test.ts`,
      `${server}/platform/job-rounds.test.ts`,
      `${server}/platform/event-bus.test.ts`,
      `${server}/platform/event-transports.test.ts`,
    ],
  },
  // Issue 26: the console's store list kept under its version, and what a slow close says it waits for.
  "kept-store-list": {
    mutate: [
      feature("stores/store-list.ts"),
      `${server}/platform/shutdown.ts`,
      `${server}/platform/security-headers.ts`,
    ],
    tests: [
      feature("stores/stores.kept-list.test.ts"),
      `${server}/platform/shutdown.test.ts`,
      `${server}/platform/http.answers.test.ts`,
    ],
  },
  // Issue 26: a visit's cart lines kept per instance under its cart_version, and the scan that reads or skips them.
  "kept-carts": {
    mutate: [feature("cart/kept-carts.ts"), feature("cart/scanning.ts")],
    tests: [
      feature("cart/kept-carts.test.ts"),
      feature("cart/cart.kept.test.ts"),
      feature("cart/cart.scanning.test.ts"),
      feature("cart/cart.repeats.test.ts"),
      feature("cart/cart.boundaries.test.ts"),
      feature("cart/cart-limits.test.ts"),
      feature("pricing/cart-offers.test.ts"),
      feature("cart/cart.batches.test.ts"),
    ],
  },
  // Issue 26: scans sent in batches while the database is busy, each failed batch's scans once more alone.
  "scan-batches": {
    mutate: [`${server}/platform/batches.ts`],
    tests: [`${server}/platform/batches.test.ts`, feature("cart/cart.batches.test.ts")],
  },
  // Issue 26: a scan's answer priced from the cart before it, group by group of competing offers.
  "scan-pricing": {
    mutate: [feature("pricing/scan-pricing.ts")],
    tests: [feature("pricing/scan-pricing.test.ts"), feature("pricing/offer-book.test.ts")],
  },
  // Issue 26: the live cart told each change once (the cart_version of the cart a socket was sent), and the
  // weighted copy the kept carts and store lists share.
  "live-cart-versions": {
    mutate: [feature("cart/cart.fanout.ts"), feature("cart/cart.events.ts"), `${server}/platform/weighted-lru.ts`],
    tests: [
      feature("cart/cart.socket.test.ts"),
      feature("cart/cart.socket.versions.test.ts"),
      feature("cart/cart.socket.memory.test.ts"),
      feature("cart/cart.socket.sign-in.test.ts"),
      `${server}/platform/weighted-lru.test.ts`,
      feature("cart/kept-carts.test.ts"),
      feature("stores/stores.kept-list.test.ts"),
    ],
  },
  // Issue 26: the console's product search answered from each instance's index, and the database's answer beside it.
  "product-search": {
    mutate: [feature("products/search-index.ts"), feature("products/products.search.ts")],
    tests: [feature("products/products.search-index.test.ts"), feature("products/products.catalogue.test.ts")],
  },
  // Issue 25: the face check: matching, the check at the door and the exit, its sealed descriptors and their lifetime.
  face: {
    mutate: [
      `${server}/platform/face/face-match.ts`,
      feature("face/face-check.ts"),
      feature("face/face-descriptors.ts"),
      feature("face/face.service.ts"),
    ],
    tests: [
      `${server}/platform/face/face-match.test.ts`,
      feature("face/face.test.ts"),
      feature("face/face.lifetime.test.ts"),
    ],
  },
  "shopper-auth": {
    mutate: [feature("shopper-auth/shopper-auth.service.ts")],
    tests: [
      feature("shopper-auth/shopper-auth.sign-in.test.ts"),
      feature("shopper-auth/shopper-auth.bankid.test.ts"),
      feature("shopper-auth/shopper-auth.boundaries.test.ts"),
    ],
  },
  sessions: {
    mutate: [feature("sessions/sessions.service.ts")],
    tests: [
      feature("sessions/sessions.entry.test.ts"),
      feature("sessions/sessions.door.test.ts"),
      feature("sessions/entry-revocation.test.ts"),
      feature("sessions/card-at-door.test.ts"),
    ],
  },
  products: {
    mutate: [feature("products/products.service.ts")],
    tests: [
      feature("products/products.catalogue.test.ts"),
      feature("products/products.edit.test.ts"),
      feature("products/products.lookup.test.ts"),
      feature("products/products.csv.test.ts"),
    ],
  },
  stores: {
    mutate: [feature("stores/stores.service.ts")],
    // The audit entries a store change writes are checked in the audit tests.
    tests: [
      feature("stores/stores.create.test.ts"),
      feature("stores/stores.edit.test.ts"),
      feature("stores/stores.permissions.test.ts"),
      feature("audit/audit.changes.test.ts"),
      feature("audit/audit.cli.test.ts"),
      feature("audit/audit.reading.test.ts"),
    ],
  },
  dashboard: { mutate: [feature("dashboard/dashboard.service.ts")], tests: [feature("dashboard/dashboard.test.ts")] },
  cart: {
    mutate: [
      feature("cart/cart.service.ts"),
      feature("cart/cart-visit.ts"),
      feature("cart/age-limit.ts"),
      feature("cart/scanning.ts"),
      feature("cart/quantities.ts"),
      feature("cart/recognition-worker.ts"),
      feature("pricing/offer-book.ts"),
    ],
    tests: [
      feature("cart/cart.scanning.test.ts"),
      feature("cart/cart.repeats.test.ts"),
      feature("cart/cart.refusals.test.ts"),
      feature("cart/cart.worker.test.ts"),
      feature("cart/cart.records.test.ts"),
      feature("cart/cart.socket.test.ts"),
      feature("cart/cart.boundaries.test.ts"),
      feature("cart/cart.comparison.test.ts"),
      feature("cart/cart.socket.sign-in.test.ts"),
      // Quantity changes against the cart's limits, the timeline's entries for them, the cart frozen while it is
      // charged (the visit's lock), and a scan's answer priced with the day's offers: code that moved into this
      // group's files (issues 21–24) and is tested there.
      feature("cart/cart-limits.test.ts"),
      feature("sessions/admin-sessions.timeline.test.ts"),
      feature("visits/visits.charging.test.ts"),
      feature("pricing/cart-offers.test.ts"),
      feature("pricing/offer-book.test.ts"),
    ],
  },
  settings: {
    mutate: [
      feature("settings/settings.service.ts"),
      feature("settings/effective-settings.ts"),
      `${server}/platform/kept-copies.ts`,
    ],
    // The audit entries a settings change writes are checked in the audit tests; the copies settings and the
    // offer book keep, in their own unit test.
    tests: [
      `${server}/platform/kept-copies.test.ts`,
      feature("settings/settings.values.test.ts"),
      feature("settings/settings.overrides.test.ts"),
      feature("settings/settings.changes.test.ts"),
      feature("settings/effective-settings.test.ts"),
      feature("audit/audit.changes.test.ts"),
      feature("audit/audit.cli.test.ts"),
      feature("audit/audit.reading.test.ts"),
    ],
  },
  // The visit's state machine and what moves visits: the table's own test, and the HTTP tests of each path.
  visits: {
    mutate: [
      feature("visits/visit-state.ts"),
      feature("visits/visits.ts"),
      feature("unpaid-visits/unpaid-visits.service.ts"),
      feature("cart/cart-limits.ts"),
      `${server}/platform/bounded-cache.ts`,
    ],
    tests: [
      `${server}/platform/bounded-cache.test.ts`,
      feature("visits/visit-state.test.ts"),
      feature("visits/visits.open-visit.test.ts"),
      feature("visits/visits.charging.test.ts"),
      feature("visits/visits.boundaries.test.ts"),
      feature("unpaid-visits/unpaid-visits.test.ts"),
      feature("unpaid-visits/unpaid-visits.boundaries.test.ts"),
      feature("cart/cart-limits.test.ts"),
    ],
  },
  // Issue 22: staff letting a shopper out unpaid, and the door's card check.
  "let-out": {
    mutate: [feature("unpaid-visits/let-out.ts")],
    tests: [feature("unpaid-visits/let-out.test.ts")],
  },
  checkout: {
    mutate: [
      feature("checkout/checkout.service.ts"),
      feature("checkout/order-plan.ts"),
      feature("checkout/order-pricing.ts"),
      feature("payments/charge.ts"),
      feature("payments/payment-method.service.ts"),
      feature("orders/receipts.service.ts"),
      feature("orders/vat.ts"),
    ],
    tests: [
      feature("checkout/checkout.paying.test.ts"),
      feature("checkout/checkout.records.test.ts"),
      feature("checkout/checkout.takeover.test.ts"),
      feature("checkout/checkout.card-on-file.test.ts"),
      feature("checkout/checkout.routes.test.ts"),
      feature("orders/vat.test.ts"),
      feature("checkout/checkout.boundaries.test.ts"),
      feature("checkout/checkout.vat-dates.test.ts"),
      feature("checkout/order-pricing.test.ts"),
      // Added after run H for its survivors: the answer of a checkout of several visits, an outcome recorded late,
      // the receipt mail's switch, and each of the provider's answers read by the charge.
      feature("checkout/checkout.answers.test.ts"),
      feature("payments/charge.test.ts"),
      // The staff-check draw after a payment from the phone (checkout's afterPaid, from exit's payFromPhone) is tested
      // with the spot checks.
      feature("spot-checks/spot-checks.draw.test.ts"),
      feature("spot-checks/spot-checks.decisions.test.ts"),
      feature("spot-checks/spot-checks.records.test.ts"),
      feature("spot-checks/spot-checks.refunds.test.ts"),
      feature("spot-checks/spot-checks.charges.test.ts"),
      // What issues 21–24 added to the order and its charge (run F showed these reach it, none of the above did):
      // vouchers paying part or all of the cart, multi-buy discounts and pant on the order's lines, the charge
      // frozen, taken over and settled while the visit waits, and the gate's payment.
      feature("pant-vouchers/pant-vouchers.test.ts"),
      feature("pricing/cart-offers.orders.test.ts"),
      feature("pant/pant.test.ts"),
      feature("visits/visits.charging.test.ts"),
      feature("exit/exit.test.ts"),
    ],
  },
  exit: {
    mutate: [feature("exit/exit.service.ts"), feature("exit/exit-token.ts")],
    // The staff-check draw at the gate is tested with the spot checks; the gate's refusals for want of a card and
    // for vouchers that pay the whole cart with those features.
    tests: [
      feature("exit/exit.test.ts"),
      feature("exit/exit-token.test.ts"),
      feature("exit/exit.boundaries.test.ts"),
      feature("sessions/card-at-door.test.ts"),
      feature("pant-vouchers/pant-vouchers.test.ts"),
      feature("unpaid-visits/let-out.test.ts"),
      feature("spot-checks/spot-checks.draw.test.ts"),
      feature("spot-checks/spot-checks.decisions.test.ts"),
      feature("spot-checks/spot-checks.records.test.ts"),
      feature("spot-checks/spot-checks.refunds.test.ts"),
      feature("spot-checks/spot-checks.charges.test.ts"),
    ],
  },
  refunds: {
    mutate: [
      feature("refunds/refunds.service.ts"),
      feature("refunds/refund-order.ts"),
      feature("refunds/order-refunds.ts"),
      feature("refunds/refund-provider.ts"),
      feature("refunds/disputes.service.ts"),
    ],
    // Refunds across the checkout's and a spot check's payments are tested with the spot checks.
    tests: [
      feature("refunds/refunds.request.test.ts"),
      feature("refunds/refunds.refusals.test.ts"),
      feature("refunds/refunds.settling.test.ts"),
      feature("refunds/disputes.test.ts"),
      feature("refunds/refunds.boundaries.test.ts"),
      feature("refunds/refunds.vouchers.test.ts"),
      feature("spot-checks/spot-checks.draw.test.ts"),
      feature("spot-checks/spot-checks.decisions.test.ts"),
      feature("spot-checks/spot-checks.records.test.ts"),
      feature("spot-checks/spot-checks.refunds.test.ts"),
      feature("spot-checks/spot-checks.charges.test.ts"),
    ],
  },
  "spot-checks": {
    mutate: [
      feature("spot-checks/spot-checks.service.ts"),
      feature("spot-checks/exit-draw.ts"),
      feature("spot-checks/spot-check-list.ts"),
      feature("spot-checks/added-items.ts"),
    ],
    tests: [
      feature("spot-checks/spot-checks.draw.test.ts"),
      feature("spot-checks/spot-checks.decisions.test.ts"),
      feature("spot-checks/spot-checks.records.test.ts"),
      feature("spot-checks/spot-checks.refunds.test.ts"),
      feature("spot-checks/spot-checks.charges.test.ts"),
      feature("spot-checks/spot-checks.prices.test.ts"),
      feature("spot-checks/spot-checks.boundaries.test.ts"),
    ],
  },
  "admin-sessions": {
    mutate: [
      feature("sessions/admin-sessions.service.ts"),
      feature("sessions/session-row.ts"),
      feature("sessions/session-list.ts"),
      feature("sessions/session-activity.ts"),
      feature("sessions/session-payments.ts"),
      feature("sessions/abandoned-sweep.ts"),
    ],
    tests: [
      feature("sessions/admin-sessions.timeline.test.ts"),
      feature("sessions/admin-sessions.list.test.ts"),
      feature("sessions/abandoned-sweep.test.ts"),
      feature("sessions/admin-sessions.boundaries.test.ts"),
      feature("sessions/abandoned-sweep.boundaries.test.ts"),
      // The order of a visit with discounts, vouchers and pant, as the console reads it.
      feature("pricing/cart-offers.orders.test.ts"),
    ],
  },
  analytics: {
    mutate: [feature("analytics/analytics.service.ts")],
    tests: [
      feature("analytics/analytics.summary.test.ts"),
      feature("analytics/analytics.products.test.ts"),
      feature("analytics/analytics.requests.test.ts"),
      feature("analytics/analytics.access.test.ts"),
      feature("analytics/analytics.rollups.test.ts"),
      feature("analytics/analytics.boundaries.test.ts"),
    ],
  },
  audit: {
    mutate: [feature("audit/audit.service.ts"), feature("audit/audit.ts")],
    tests: [
      feature("audit/audit.changes.test.ts"),
      feature("audit/audit.cli.test.ts"),
      feature("audit/audit.reading.test.ts"),
    ],
  },
  cameras: {
    mutate: [
      feature("cameras/camera-records.ts"),
      feature("cameras/camera-systems.ts"),
      feature("cameras/cameras.service.ts"),
      feature("cameras/camera-status.ts"),
      feature("cameras/camera-credentials.ts"),
    ],
    // The health checker's use of it (status, history, device targets) has tests of its own.
    tests: [
      feature("cameras/cameras.test.ts"),
      feature("cameras/cameras.edits.test.ts"),
      feature("cameras/cameras.history.test.ts"),
      feature("cameras/cameras.devices.test.ts"),
      feature("cameras/cameras.credentials.test.ts"),
      feature("cameras/cameras.networks.test.ts"),
      // The probe right after a save (camera-status.ts's rowsToProbe and the reported stream).
      feature("cameras/cameras.probe.test.ts"),
    ],
  },
  profile: { mutate: [feature("profile/profile.service.ts")], tests: [feature("profile/profile.routes.test.ts")] },
  // Issue 24: the VAT rate table, the rate of a sale's day, and a product's category.
  "vat-rates": {
    mutate: [
      feature("vat-rates/vat-rates.service.ts"),
      feature("vat-rates/vat-rate-table.ts"),
      feature("products/products.vat.ts"),
    ],
    tests: [
      feature("vat-rates/vat-rates.test.ts"),
      feature("vat-rates/vat-rates.boundaries.test.ts"),
      feature("checkout/checkout.vat-dates.test.ts"),
      feature("products/products.vat.test.ts"),
    ],
  },
};

const name = process.env.MUTATE ?? "all";
const group = name === "all" ? null : GROUPS[name];
if (name !== "all" && !group) {
  throw new Error(`MUTATE=${name} is not a group; choose one of: ${Object.keys(GROUPS).join(", ")}`);
}
const reports = `reports/mutation/${name}`;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutate.config.ts", related: true },
  mutate: group ? group.mutate : Object.values(GROUPS).flatMap((g) => g.mutate),
  testFiles: group?.tests ?? [],
  // vitest.mutate.config.ts switches each mutant on before the test file imports the code, so mutants
  // of module-level code (constants, schemas) are tested too (bench/mutation.md says why it is needed).
  // The machine is shared: one test runner, and each mutant runs only the tests that reach it.
  concurrency: 1,
  coverageAnalysis: "perTest",
  // Reruns only test the mutants whose code or tests changed since the last run. A whole test file
  // added to a group is not seen as a change: use --force then.
  incremental: true,
  incrementalFile: `${reports}/incremental.json`,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: `${reports}/index.html` },
  jsonReporter: { fileName: `${reports}/mutation.json` },
  clearTextReporter: { reportMutants: false, reportScoreTable: true },
  // The sandbox copy needs only the code the tests import.
  ignorePatterns: ["apps/web", "bench", "data", "dist", "reports", "test-results", "playwright-report", "docs"],
  // The HTTP tests start a database per file: a busy machine needs slack before a mutant counts as a timeout.
  timeoutMS: 30_000,
  thresholds: { high: 90, low: 80, break: null },
};

export default config;
