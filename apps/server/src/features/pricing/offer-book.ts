import { createHash } from "node:crypto";
import type { CalendarDay, Offer } from "@glide/contracts";
import type { FastifyBaseLogger } from "fastify";
import { type Db, queryPrepared, sql } from "../../db/client.ts";
import type { EventBus } from "../../platform/event-bus.ts";
import { keptCopies } from "../../platform/kept-copies.ts";
import { type OfferRow, offerColumns, toOffer } from "./offer-rows.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** This instance's copy of the stores' offers of the day (offer-book.ts). */
    offerBook: OfferBook;
  }
}

/** Told over the bus when an offer is added, changed or deleted: every instance forgets its copies. */
export const OFFERS_TOPIC = "offers.changed";
/**
 * How long a copy of the offers of a day is used before it is read again
 * (kept-copies.ts). The bus tells every instance of a change at once; this
 * bounds how long one that missed the message (its listening connection was
 * being renewed) shows the old ones: OFFERS_CACHE_MS, and at most as long
 * again while a read in the background fails.
 */
export const OFFERS_CACHE_MS = 30_000;
/** Days kept: the stores' today and tomorrow (time zones differ), with room to spare. */
const LIMIT = 8;

/** A store's offers of one calendar day (its own and the chain-wide ones), members' ones too. */
export type DayOffers = {
  /** In the order of their ids. */
  offers: readonly Offer[];
  /** The offers that take each product. */
  byProduct: ReadonlyMap<string, readonly Offer[]>;
  /** Each offer's place in `offers`. */
  place: ReadonlyMap<Offer, number>;
};

/**
 * This instance's copy of the offers each store has on a day. Offers change
 * a few times a day and a store has a few hundred at most, while every scan
 * prices its cart with them: a scan reads them here instead of building them
 * in its statement. A day's offers of every store are read in one statement,
 * and a store with none of its own shares the chain's: one read per day
 * instead of one per store, which came due together for every store. A checkout reads them in its own transaction (order-pricing.ts),
 * so what is charged never depends on a copy.
 */
export interface OfferBook {
  of(storeId: string, day: CalendarDay): Promise<DayOffers>;
  /** An offer changed: this instance forgets its copies at once, the others when the bus tells them. */
  changed(): Promise<void>;
  close(): void;
}

export function dayOffers(unordered: readonly Offer[]): DayOffers {
  const offers = [...unordered].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const byProduct = new Map<string, Offer[]>();
  const place = new Map<Offer, number>();
  for (const offer of offers) {
    place.set(offer, place.size);
    for (const productId of offer.product_ids) {
      const list = byProduct.get(productId);
      if (list) list.push(offer);
      else byProduct.set(productId, [offer]);
    }
  }
  return { offers, byProduct, place };
}

/**
 * The offers of `day` that take a product of `productIds`, each once, in the
 * order of their ids: marked by place and read in order, not sorted (a long
 * cart touches most of a store's offers on every scan).
 */
export function offersTouching(book: DayOffers, productIds: Iterable<string>): Offer[] {
  const marked = new Uint8Array(book.offers.length);
  let count = 0;
  for (const productId of productIds) {
    for (const offer of book.byProduct.get(productId) ?? []) {
      const at = book.place.get(offer)!;
      if (marked[at] === 0) count++;
      marked[at] = 1;
    }
  }
  const touched: Offer[] = [];
  for (let at = 0; touched.length < count; at++) if (marked[at] === 1) touched.push(book.offers[at]!);
  return touched;
}

/** Every offer valid on a day, the chain's and each store's own, read in one statement. */
type DayOfAll = {
  /** A digest of what was read, to tell a new read that finds the same from one that does not. */
  rows: string;
  chain: DayOffers;
  own: ReadonlyMap<string, readonly Offer[]>;
  /** Each store's offers as a scan reads them, made on the store's first scan of the copy. */
  stores: Map<string, DayOffers>;
};

async function loadDay(db: Db, day: CalendarDay): Promise<DayOfAll> {
  const rows = await queryPrepared<OfferRow & { store_id: string | null }>(
    db,
    "day_offers",
    sql`select ${offerColumns}, o.store_id from offers o
        where ${day}::date between o.starts_on and o.ends_on
        order by o.id`,
  );
  const chain: Offer[] = [];
  const own = new Map<string, Offer[]>();
  for (const row of rows) {
    const offer = toOffer(row);
    if (row.store_id === null) chain.push(offer);
    else {
      const list = own.get(row.store_id);
      if (list) list.push(offer);
      else own.set(row.store_id, [offer]);
    }
  }
  const digest = createHash("sha256").update(JSON.stringify(rows)).digest("base64");
  return { rows: digest, chain: dayOffers(chain), own, stores: new Map() };
}

export function createOfferBook(opts: {
  db: Db;
  bus: EventBus;
  logger: FastifyBaseLogger;
  now?: () => number;
}): OfferBook {
  const days = keptCopies<DayOfAll>({
    load: (day) => loadDay(opts.db, day as CalendarDay),
    freshMs: OFFERS_CACHE_MS,
    staleMs: OFFERS_CACHE_MS,
    same: (kept, read) => kept.rows === read.rows,
    limit: LIMIT,
    now: opts.now ?? Date.now,
    onRefreshError: (day, err) =>
      opts.logger.warn({ err: (err as Error).message, day }, "offers of the day not read again; the copy stays"),
  });
  const stop = opts.bus.subscribe(OFFERS_TOPIC, () => days.clear());

  return {
    async of(storeId, day) {
      const all = await days.get(day);
      const own = all.own.get(storeId);
      if (!own) return all.chain;
      let offers = all.stores.get(storeId);
      if (!offers) {
        offers = dayOffers([...all.chain.offers, ...own]);
        all.stores.set(storeId, offers);
      }
      return offers;
    },
    async changed() {
      days.clear();
      try {
        await opts.bus.publish(OFFERS_TOPIC, {});
      } catch (err) {
        // The change is stored; other instances see it within OFFERS_CACHE_MS at the latest.
        opts.logger.warn({ err }, "could not tell other instances that an offer changed");
      }
    },
    close: stop,
  };
}
