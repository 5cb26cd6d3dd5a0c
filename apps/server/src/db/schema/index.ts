export * from "./admin.ts";
export * from "./cart.ts";
export * from "./platform.ts";
export * from "./products.ts";
export * from "./settings.ts";
export * from "./shoppers.ts";
export * from "./stores.ts";
