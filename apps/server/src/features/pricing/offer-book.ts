import type { CalendarDay, Offer } from "@glide/contracts";
import type { FastifyBaseLogger } from "fastify";
import { type Db, queryPrepared, sql } from "../../db/client.ts";
import type { EventBus } from "../../platform/event-bus.ts";
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
 * How long a copy of a store's offers of a day is used. The bus tells every
 * instance of a change at once; this bounds how long one that missed the
 * message (its listening connection was being renewed) shows the old ones.
 */
export const OFFERS_CACHE_MS = 30_000;
/** Copies kept: a store's day each, so a chain's stores today and tomorrow with room to spare. */
const LIMIT = 2_000;

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
 * in its statement. A checkout reads them in its own transaction (order-pricing.ts),
 * so what is charged never depends on a copy.
 */
export interface OfferBook {
  of(storeId: string, day: CalendarDay): Promise<DayOffers>;
  /** An offer changed: this instance forgets its copies at once, the others when the bus tells them. */
  changed(): Promise<void>;
  close(): void;
}

type Copy = { at: number; value: Promise<DayOffers> };

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

async function loadDayOffers(db: Db, storeId: string, day: CalendarDay): Promise<DayOffers> {
  const rows = await queryPrepared<OfferRow>(
    db,
    "store_day_offers",
    sql`select ${offerColumns} from offers o
        where (o.store_id is null or o.store_id = ${storeId}::uuid) and ${day}::date between o.starts_on and o.ends_on
        order by o.id`,
  );
  return dayOffers(rows.map(toOffer));
}

export function createOfferBook(opts: {
  db: Db;
  bus: EventBus;
  logger: FastifyBaseLogger;
  now?: () => number;
}): OfferBook {
  const now = opts.now ?? Date.now;
  const copies = new Map<string, Copy>();
  const stop = opts.bus.subscribe(OFFERS_TOPIC, () => copies.clear());

  return {
    of(storeId, day) {
      const key = `${storeId} ${day}`;
      const copy = copies.get(key);
      if (copy && now() - copy.at < OFFERS_CACHE_MS) return copy.value;
      if (!copy && copies.size >= LIMIT) copies.delete(copies.keys().next().value!);
      const fresh: Copy = { at: now(), value: loadDayOffers(opts.db, storeId, day) };
      copies.set(key, fresh);
      // A failed read is not kept: the next scan asks the database again.
      fresh.value.catch(() => {
        if (copies.get(key) === fresh) copies.delete(key);
      });
      return fresh.value;
    },
    async changed() {
      copies.clear();
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
