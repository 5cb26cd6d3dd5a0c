import {
  storePriceListQuerySchema,
  storePriceListSchema,
  storePriceParams,
  storePriceSchema,
  storePricesParams,
} from "@glide/contracts";
import { priceListRoutes } from "./price-list.routes.ts";
import { exportStorePricesCsv, importStorePricesCsv } from "./store-prices.csv.ts";
import { deleteStorePrice, listStorePrices, setStorePrice } from "./store-prices.service.ts";

/** A store's own prices: admins who see the store read them; platform admins and its store admins change them. */
export const storePriceRoutes = priceListRoutes({
  path: "/api/v1/stores/:id/prices",
  tags: ["store-prices"],
  filename: "store-prices.csv",
  summaries: {
    list: "The store's own prices (kronor) beside the catalogue's, by product name; search matches name or SKU. The total is in X-Total-Count.",
    export: "The store's own prices as CSV: sku, name, catalogue_price, price",
    import:
      "Set the store's prices from CSV (sku, price; an empty price removes the store's price). dry_run=true (the default) reports per row; false applies every row in one transaction, or nothing (422) while any row is rejected",
    set: "Set the store's own price of a product (kronor), from the next scan in the store on",
    remove: "Remove the store's own price of a product: scans use the catalogue's again; 404 when it has none",
  },
  params: storePricesParams,
  productParams: storePriceParams,
  query: storePriceListQuerySchema,
  listed: storePriceListSchema,
  price: storePriceSchema,
  read: ({ ownerId, ...who }, query) => listStorePrices({ ...who, storeId: ownerId, query }),
  exportCsv: ({ ownerId, ...who }) => exportStorePricesCsv({ ...who, storeId: ownerId }),
  importCsv: ({ ownerId, ...who }, csv, dryRun) => importStorePricesCsv({ ...who, storeId: ownerId, csv, dryRun }),
  set: ({ ownerId, ...who }, productId, price) => setStorePrice({ ...who, storeId: ownerId, productId, price }),
  remove: ({ ownerId, ...who }, productId) => deleteStorePrice({ ...who, storeId: ownerId, productId }),
});
