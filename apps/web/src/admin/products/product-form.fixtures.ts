import type { Product } from "@glide/contracts";

/** A product as the API answers it: milk at 14.90 kr, no net content and no pant. */
const BASE = {
  id: "p1",
  sku: "MJ-1",
  name: "Mjölk",
  description: null,
  category: "Mejeri",
  brand: null,
  price: 14.9,
  vat_category: "food",
  vat_rate: 6,
  net_content: null,
  net_content_unit: null,
  pant_code: null,
  comparison_price: null,
  barcode: null,
  barcodes: [],
  image_url: null,
  is_active: true,
  weight: null,
  length: null,
  width: null,
  height: null,
  age_limit: null,
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
} satisfies Product;

export const product = (fields: Partial<Product>): Product => ({ ...BASE, ...fields });
