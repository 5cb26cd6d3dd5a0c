import { adminsOnly, type Fixtures, platformOnly, type Row, storeA } from "./authorization-matrix.rows.ts";

/**
 * The authorization matrix's rows for pricing (issue 24): the VAT rate table,
 * pant amounts, campaigns, multi-buy offers and store prices. The matrix test
 * joins them to MATRIX.
 */

let sku = 0;
/** A campaign body for store A's product (5 kr) at 1 kr. */
const campaignOf = (f: Fixtures) => ({
  product_id: f.product,
  store_id: f.storeA,
  price: 1,
  starts_on: "2030-01-01",
  ends_on: "2030-01-31",
});

/** A multi-buy offer body: 2 of store A's product (5 kr) for 8 kr. */
const offerOf = (f: Fixtures) => ({
  label: "2 för 8",
  kind: "amount",
  buy: 2,
  amount: 8,
  product_ids: [f.product],
  store_id: f.storeA,
  starts_on: "2030-01-01",
  ends_on: "2030-01-31",
  limit_per_visit: null,
});

export const PRICING_MATRIX: Record<string, Row> = {
  // --- issue 24: the VAT rate table; every admin reads it, platform admins change it ---
  "GET /api/v1/vat-rates": { expect: adminsOnly, query: "?country=SE" },
  "POST /api/v1/vat-rates": {
    expect: platformOnly,
    body: () => ({
      country: "NO",
      category: "standard",
      rate: 25,
      valid_from: `${2100 + ++sku}-01-01`,
      valid_to: `${2100 + sku}-12-31`,
    }),
  },
  "PUT /api/v1/vat-rates/:id": {
    expect: platformOnly,
    params: (f) => ({ id: f.vatRate! }),
    body: () => ({ country: "NO", category: "food", rate: 15, valid_from: "2024-01-01", valid_to: null }),
  },
  "DELETE /api/v1/vat-rates/:id": { expect: "401 401 401 403 204", params: (f) => ({ id: f.vatRateToDelete! }) },
  // --- issue 24: the pant table; the same, and the row deleted is a seeded one (the matrix sells no drinks) ---
  "GET /api/v1/pant-amounts": { expect: adminsOnly, query: "?country=SE" },
  "PUT /api/v1/pant-amounts/:country/:code": {
    expect: platformOnly,
    params: () => ({ country: "SE", code: "can" }),
    body: () => ({ amount: 2 }),
  },
  "DELETE /api/v1/pant-amounts/:country/:code": {
    expect: "401 401 401 403 204",
    params: () => ({ country: "SE", code: "pet_large_2kr" }),
  },
  // --- issue 24: campaigns; every admin lists them, store A's are the platform admin's to write ---
  "GET /api/v1/campaigns": { expect: adminsOnly },
  "POST /api/v1/campaigns": { expect: platformOnly, body: (f) => campaignOf(f) },
  "PUT /api/v1/campaigns/:id": {
    expect: platformOnly,
    params: (f) => ({ id: f.campaign! }),
    body: (f) => campaignOf(f),
  },
  "DELETE /api/v1/campaigns/:id": { expect: "401 401 401 403 204", params: (f) => ({ id: f.campaignToDelete! }) },
  // --- issue 24: multi-buy offers, as campaigns: every admin lists them, store A's are the platform admin's ---
  "GET /api/v1/offers": { expect: adminsOnly },
  "POST /api/v1/offers": { expect: platformOnly, body: (f) => offerOf(f) },
  "PUT /api/v1/offers/:id": { expect: platformOnly, params: (f) => ({ id: f.offer! }), body: (f) => offerOf(f) },
  "DELETE /api/v1/offers/:id": { expect: "401 401 401 403 204", params: (f) => ({ id: f.offerToDelete! }) },
  // --- issue 24: store prices; store A is not the store admin's (403); its price of the product is a fixture ---
  "GET /api/v1/stores/:id/prices": { expect: platformOnly, params: storeA },
  "GET /api/v1/stores/:id/prices/export": { expect: platformOnly, params: storeA },
  "POST /api/v1/stores/:id/prices/import": {
    expect: platformOnly,
    params: storeA,
    query: "?dry_run=false",
    contentType: "text/csv",
    body: () => "sku,price\nMATRIX-A,4.50\n",
  },
  "PUT /api/v1/stores/:id/prices/:productId": {
    expect: platformOnly,
    params: (f) => ({ id: f.storeA, productId: f.product }),
    body: () => ({ price: 4.5 }),
  },
  "DELETE /api/v1/stores/:id/prices/:productId": {
    expect: "401 401 401 403 204",
    params: (f) => ({ id: f.storeA, productId: f.product }),
  },
  // --- price groups: every admin lists those of their stores; store A's group is not the store admin's (403) ---
  "GET /api/v1/price-groups": { expect: adminsOnly },
  "POST /api/v1/price-groups": { expect: platformOnly, body: () => ({ name: `Matrisgrupp ${++sku}` }) },
  "PUT /api/v1/price-groups/:id": {
    expect: platformOnly,
    params: (f) => ({ id: f.priceGroup! }),
    body: () => ({ name: "Matrisgrupp" }),
  },
  "DELETE /api/v1/price-groups/:id": { expect: "401 401 401 403 204", params: (f) => ({ id: f.priceGroupToDelete! }) },
  "PUT /api/v1/stores/:id/price-group": {
    expect: platformOnly,
    params: storeA,
    body: (f) => ({ price_group_id: f.priceGroup! }),
  },
  "GET /api/v1/price-groups/:id/prices": { expect: platformOnly, params: (f) => ({ id: f.priceGroup! }) },
  "GET /api/v1/price-groups/:id/prices/export": { expect: platformOnly, params: (f) => ({ id: f.priceGroup! }) },
  "POST /api/v1/price-groups/:id/prices/import": {
    expect: platformOnly,
    params: (f) => ({ id: f.priceGroup! }),
    query: "?dry_run=false",
    contentType: "text/csv",
    body: () => "sku,price\nMATRIX-A,4.25\n",
  },
  "PUT /api/v1/price-groups/:id/prices/:productId": {
    expect: platformOnly,
    params: (f) => ({ id: f.priceGroup!, productId: f.product }),
    body: () => ({ price: 4.25 }),
  },
  "DELETE /api/v1/price-groups/:id/prices/:productId": {
    expect: "401 401 401 403 204",
    params: (f) => ({ id: f.priceGroup!, productId: f.product }),
  },
};
