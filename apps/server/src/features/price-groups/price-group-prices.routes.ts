import {
  priceGroupParams,
  priceGroupPriceListQuerySchema,
  priceGroupPriceListSchema,
  priceGroupPriceParams,
  priceGroupPriceSchema,
} from "@glide/contracts";
import { priceListRoutes } from "../store-prices/price-list.routes.ts";
import {
  deletePriceGroupPrice,
  exportPriceGroupPricesCsv,
  importPriceGroupPricesCsv,
  listPriceGroupPrices,
  setPriceGroupPrice,
} from "./price-group-prices.service.ts";

/** A price group's prices: whoever reads the group reads them; platform admins change them. */
export const priceGroupPriceRoutes = priceListRoutes({
  path: "/api/v1/price-groups/:id/prices",
  tags: ["price-groups"],
  filename: "price-group-prices.csv",
  summaries: {
    list: "The group's prices (kronor) beside the catalogue's, by product name; search matches name or SKU. The total is in X-Total-Count.",
    export: "The group's prices as CSV: sku, name, catalogue_price, price",
    import:
      "Set the group's prices from CSV (sku, price; an empty price removes the group's price), as a store's: dry_run=true (the default) reports per row; false applies all rows or nothing (422)",
    set: "Set the group's price of a product (kronor), for its stores without a price of their own",
    remove: "Remove the group's price of a product; 404 when it has none",
  },
  params: priceGroupParams,
  productParams: priceGroupPriceParams,
  query: priceGroupPriceListQuerySchema,
  listed: priceGroupPriceListSchema,
  price: priceGroupPriceSchema,
  read: ({ ownerId, ...who }, query) => listPriceGroupPrices({ ...who, groupId: ownerId, query }),
  exportCsv: ({ ownerId, ...who }) => exportPriceGroupPricesCsv({ ...who, groupId: ownerId }),
  importCsv: ({ ownerId, ...who }, csv, dryRun) => importPriceGroupPricesCsv({ ...who, groupId: ownerId, csv, dryRun }),
  set: ({ ownerId, ...who }, productId, price) => setPriceGroupPrice({ ...who, groupId: ownerId, productId, price }),
  remove: ({ ownerId, ...who }, productId) => deletePriceGroupPrice({ ...who, groupId: ownerId, productId }),
});
