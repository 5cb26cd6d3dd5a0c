import { calendarDay } from "@glide/contracts";
import type { Tx } from "../db/client.ts";
import { campaigns, offerProducts, offers, storePrices } from "../db/schema/index.ts";
import type { DemoProduct } from "./demo-products.ts";

/**
 * The demo's shelf labels beyond the catalogue: this week's campaigns across
 * the chain (about a fifth off, at a price ending in 90 öre as shelves do),
 * one store's own campaign, the kiosk's own, dearer prices on what a kiosk
 * sells, and this week's multi-buy offers across the chain.
 */

/** Campaigns, by the start of the product's name: the first size and variant of each. */
const CHAIN_CAMPAIGNS = ["Kaffe Mellanrost", "Bregott Normalsaltat", "Falukorv", "Läsk Cola", "Kexchoklad"];
const STORE_CAMPAIGN = "Kanelbullar";
/** The kiosk asks this much more for these than the supermarkets do. */
const KIOSK_MARKUP = 1.15;
const KIOSK_PRICED = ["Läsk Cola", "Energidryck", "Mineralvatten Citron", "Kexchoklad", "Mjölkchoklad"];

/**
 * The week's multi-buy offers in every store, by the products' full names.
 * Neither takes a product on campaign: a shelf rarely stacks the two, and the
 * discount the cart shows is then the offer's alone. The label is what the
 * cart and the kvitto show as the discount's line.
 */
export const DEMO_OFFERS = [
  {
    label: "3 för 2 Krossade tomater",
    kind: "one_free",
    buy: 3,
    amountOre: null,
    products: ["Krossade tomater 400 g"],
  },
  {
    label: "2 för 50 kr OLW",
    kind: "amount",
    buy: 2,
    amountOre: 5000,
    // Mixed as the shopper likes: any two of these (27.90–29.90 kr each).
    products: ["Chips Sourcream & Onion 175 g", "Chips Grillchips 175 g", "Ostbågar 200 g"],
  },
] as const;

/** A fifth off, down to the nearest price ending in 90 öre (and never up to the ordinary price). */
export const campaignOre = (ordinaryOre: number) => Math.max(90, Math.floor((ordinaryOre * 0.8) / 100) * 100 - 10);

/** Up by a factor, to the nearest price ending in 90 öre at or above it. */
export const markedUpOre = (ore: number, factor: number) => Math.ceil((ore * factor + 10) / 100) * 100 - 10;

const firstNamed = (shelf: readonly (DemoProduct & { id: string })[], prefix: string) =>
  shelf.find((product) => product.name.startsWith(prefix) && product.measure === null);

/** Days from today in Stockholm, as campaigns count them. */
const dayFrom = (now: Date, days: number) =>
  calendarDay(new Date(now.getTime() + days * 86_400_000), "Europe/Stockholm");

export async function seedDemoPricing(
  tx: Tx,
  opts: {
    shelf: readonly (DemoProduct & { id: string })[];
    /** The store with a campaign of its own, and the kiosk with its own prices. */
    campaignStoreId: string;
    kioskStoreId: string;
    now: Date;
  },
): Promise<void> {
  const { shelf, now } = opts;
  // Began last Monday-ish and runs another week and a half: on whatever day the demo is opened.
  const week = { startsOn: dayFrom(now, -3), endsOn: dayFrom(now, 10) };
  const rows: (typeof campaigns.$inferInsert)[] = CHAIN_CAMPAIGNS.flatMap((prefix) => {
    const product = firstNamed(shelf, prefix);
    return product ? [{ productId: product.id, storeId: null, priceOre: campaignOre(product.priceOre), ...week }] : [];
  });
  const buns = firstNamed(shelf, STORE_CAMPAIGN);
  if (buns)
    rows.push({ productId: buns.id, storeId: opts.campaignStoreId, priceOre: campaignOre(buns.priceOre), ...week });
  if (rows.length) await tx.insert(campaigns).values(rows);
  const kiosk = KIOSK_PRICED.flatMap((prefix) => {
    const product = firstNamed(shelf, prefix);
    return product
      ? [{ storeId: opts.kioskStoreId, productId: product.id, priceOre: markedUpOre(product.priceOre, KIOSK_MARKUP) }]
      : [];
  });
  if (kiosk.length) await tx.insert(storePrices).values(kiosk);
  await seedDemoOffers(tx, shelf, week);
}

/** DEMO_OFFERS with the products the shelf has (an offer none of whose products are there is left out). */
async function seedDemoOffers(
  tx: Tx,
  shelf: readonly (DemoProduct & { id: string })[],
  week: { startsOn: string; endsOn: string },
): Promise<void> {
  for (const { products: names, ...offer } of DEMO_OFFERS) {
    const ids = shelf.filter((product) => (names as readonly string[]).includes(product.name)).map((p) => p.id);
    if (ids.length === 0) continue;
    const [made] = await tx
      .insert(offers)
      .values({ ...offer, storeId: null, limitPerVisit: null, ...week })
      .returning({ id: offers.id });
    await tx.insert(offerProducts).values(ids.map((productId) => ({ offerId: made!.id, productId })));
  }
}
