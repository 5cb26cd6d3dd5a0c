import type { FastifyBaseLogger } from "fastify";
import { type Db, queryRows, sql } from "../../db/client.ts";
import type { EventBus } from "../../platform/event-bus.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** This instance's index of the range for the console's product search (search-index.ts). */
    productSearch: ProductSearch;
  }
}

/** Told over the bus when products are written: every instance builds its index again. */
export const PRODUCTS_TOPIC = "products.changed";
/**
 * How long an index is used before the next is built (the old one answers
 * meanwhile, for as long again at most). The bus tells every instance of a
 * change at once, and the instance that made it forgets its index before it
 * answers; this bounds how long one that missed the message searches an
 * older range.
 */
export const SEARCH_INDEX_MS = 120_000;
/** Products indexed per turn of the event loop while building, so requests go on meanwhile. */
const BUILD_SLICE = 500;
/**
 * A larger range is not indexed (the database answers its searches): the
 * index takes about 0.35 kB of memory per product (35 MB for 100,000; bench/results.md).
 */
export const MAX_INDEXED = 250_000;
/** Rows read from the database at a time while building. */
const FETCH_ROWS = 10_000;
/** After a build that failed, the database answers searches this long before the next try. */
const RETRY_MS = 5_000;
/**
 * After a build, the next waits this many times as long as it took: a burst
 * of writes and searches (an import in slices, an admin's script) rebuilds a
 * large range at most a fifth of the time, and the database answers between.
 */
const BUILD_GAP_FACTOR = 4;

export type SearchSort = "name" | "sku" | "category" | "price";

export type SearchQuery = {
  /** What search_text must contain, lower-cased. */
  text: string;
  category?: string | undefined;
  sort: SearchSort;
  order: "asc" | "desc";
  limit: number;
  offset: number;
};

/**
 * Which products of the range a name, SKU or brand fragment finds, how many,
 * and which are on the page. In PostgreSQL every match of a common fragment
 * is a row read from the table to be counted and sorted (thousands for
 * "ost" in 100,000 products); here the matches are numbers in lists made
 * once. The page's rows are then read by id (products.search.ts).
 */
export interface ProductSearch {
  /** The page's ids and the number of matches; null while the index is being built (ask the database). */
  find(query: SearchQuery): { ids: string[]; total: number } | null;
  /** Products were written: this instance forgets its index at once, the others when the bus tells them. */
  changed(): Promise<void>;
  /** Resolves when the build under way, if any, is done. */
  settled(): Promise<void>;
  close(): void;
}

type OtherSort = Exclude<SearchSort, "name">;

type Index = {
  builtAt: number;
  /** In the order of lower(name), id: a product's number is its place in that order. */
  ids: string[];
  text: string[];
  category: (string | null)[];
  /** Each product's place in the other orders the list offers (its sort column, then id)… */
  ranks: Record<OtherSort, Int32Array>;
  /** …and the product at each place. */
  byRank: Record<OtherSort, Int32Array>;
  /** Every three characters of search_text (as a number), with the numbers of the products whose text has them, ascending. */
  postings: Map<number, Int32Array>;
};

type Row = {
  id: string;
  search_text: string;
  category: string | null;
  total: number;
  sku: number;
  cat: number;
  price: number;
};

/** Three UTF-16 code units as one number (below 2^48): no string is made per trigram. */
const trigramAt = (text: string, i: number) =>
  (text.charCodeAt(i) * 65_536 + text.charCodeAt(i + 1)) * 65_536 + text.charCodeAt(i + 2);

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const emptyIndex = (n: number, builtAt: number): Index => ({
  builtAt,
  ids: new Array(n),
  text: new Array(n),
  category: new Array(n),
  ranks: { sku: new Int32Array(n), category: new Int32Array(n), price: new Int32Array(n) },
  byRank: { sku: new Int32Array(n), category: new Int32Array(n), price: new Int32Array(n) },
  postings: new Map(),
});

/** Product `i` (its place in name order) into the index and the trigram lists being made. */
function add(index: Index, lists: Map<number, number[]>, i: number, row: Row) {
  index.ids[i] = row.id;
  index.text[i] = row.search_text;
  index.category[i] = row.category;
  for (const [sort, rank] of [
    ["sku", row.sku],
    ["category", row.cat],
    ["price", row.price],
  ] as const) {
    index.ranks[sort][i] = rank;
    index.byRank[sort][rank] = i;
  }
  const text = row.search_text;
  for (let c = 0; c + 3 <= text.length; c++) {
    const trigram = trigramAt(text, c);
    const list = lists.get(trigram);
    // Products come in ascending numbers: a trigram seen twice in one text is the list's last entry.
    if (!list) lists.set(trigram, [i]);
    else if (list[list.length - 1] !== i) list.push(i);
  }
}

/**
 * The index of the range as it is now; null when the range is larger than
 * MAX_INDEXED. Read through a cursor a slice at a time, so neither reading
 * the rows nor indexing them holds the event loop for long.
 */
async function buildIndex(db: Db, builtAt: number, maxIndexed: number): Promise<Index | null> {
  const lists = new Map<number, number[]>();
  const index = await db.transaction(async (tx) => {
    // The orders as the database sorts them (the same expressions as listProducts), so no collation is redone here.
    await tx.execute(sql`declare product_search_build no scroll cursor for
      select id, search_text, category, (count(*) over ())::int as total,
        (row_number() over (order by lower(sku), id))::int - 1 as sku,
        (row_number() over (order by category, id))::int - 1 as cat,
        (row_number() over (order by price_ore, id))::int - 1 as price
      from products order by lower(name), id`);
    let made: Index | null = null;
    for (let i = 0; ; ) {
      const rows = await queryRows<Row>(tx, sql.raw(`fetch ${FETCH_ROWS} from product_search_build`));
      if (rows.length === 0) return made ?? emptyIndex(0, builtAt);
      if (!made) {
        if (rows[0]!.total > maxIndexed) return null;
        made = emptyIndex(rows[0]!.total, builtAt);
      }
      for (const row of rows) {
        add(made, lists, i++, row);
        if (i % BUILD_SLICE === 0) await yieldTurn();
      }
    }
  });
  if (!index) return null;
  let converted = 0;
  for (const [trigram, list] of lists) {
    index.postings.set(trigram, Int32Array.from(list));
    converted += list.length;
    if (converted >= BUILD_SLICE * 40) {
      converted = 0;
      await yieldTurn();
    }
  }
  return index;
}

/** The numbers of the products matching the query, in name order. */
function matching(index: Index, query: SearchQuery): number[] {
  const { text, category } = query;
  let candidates: ArrayLike<number> | null = null;
  for (let c = 0; c + 3 <= text.length; c++) {
    const list = index.postings.get(trigramAt(text, c));
    if (!list) return [];
    if (!candidates || list.length < candidates.length) candidates = list;
  }
  const found: number[] = [];
  const fits = (i: number) =>
    index.text[i]!.includes(text) && (category === undefined || index.category[i] === category);
  if (candidates) {
    for (let k = 0; k < candidates.length; k++) if (fits(candidates[k]!)) found.push(candidates[k]!);
  } else {
    // Fewer than three characters: every product is a candidate.
    for (let i = 0; i < index.ids.length; i++) if (fits(i)) found.push(i);
  }
  return found;
}

export function findInIndex(index: Index, query: SearchQuery): { ids: string[]; total: number } {
  let found: ArrayLike<number> = matching(index, query);
  if (query.sort !== "name") {
    // Places are distinct whole numbers: sorted as numbers, then turned back into products.
    const { ranks, byRank } = { ranks: index.ranks[query.sort], byRank: index.byRank[query.sort] };
    if (found.length * 16 < index.ids.length) {
      found = Int32Array.from(found, (i) => ranks[i]!)
        .sort()
        .map((place) => byRank[place]!);
    } else {
      // Many matches: marking their places and reading them in order is faster than sorting.
      const marked = new Uint8Array(index.ids.length);
      for (let k = 0; k < found.length; k++) marked[ranks[found[k]!]!] = 1;
      const inOrder: number[] = [];
      for (let place = 0; place < marked.length; place++) if (marked[place]) inOrder.push(byRank[place]!);
      found = inOrder;
    }
  }
  const total = found.length;
  // Every order ends in the id in the same direction, so descending is ascending read from the end.
  const at = (k: number) => (query.order === "desc" ? found[total - 1 - k]! : found[k]!);
  const ids: string[] = [];
  for (let k = query.offset; k < Math.min(total, query.offset + query.limit); k++) ids.push(index.ids[at(k)]!);
  return { ids, total };
}

export function createProductSearch(opts: {
  db: Db;
  bus: EventBus;
  logger: FastifyBaseLogger;
  now?: () => number;
  /** Tests: a smaller limit than MAX_INDEXED. */
  maxIndexed?: number;
}): ProductSearch {
  const now = opts.now ?? Date.now;
  const maxIndexed = opts.maxIndexed ?? MAX_INDEXED;
  let index: Index | null = null;
  let building: Promise<void> | null = null;
  let nextTry = Number.NEGATIVE_INFINITY;
  // A change while a build reads the table makes that build old before it is done.
  let generation = 0;

  const forget = () => {
    index = null;
    generation++;
  };
  const build = () => {
    const started = generation;
    const startedAt = now();
    building = buildIndex(opts.db, startedAt, maxIndexed)
      .then((built) => {
        if (!built) nextTry = now() + SEARCH_INDEX_MS;
        else if (generation === started) index = built;
      })
      .catch((err: Error) => {
        nextTry = now() + RETRY_MS;
        opts.logger.warn({ err: err.message }, "product search index not built; searches ask the database");
      })
      .finally(() => {
        building = null;
        nextTry = Math.max(nextTry, now() + BUILD_GAP_FACTOR * (now() - startedAt));
      });
  };
  const stop = opts.bus.subscribe(PRODUCTS_TOPIC, forget);

  return {
    find(query) {
      const age = index ? now() - index.builtAt : Number.POSITIVE_INFINITY;
      // An index past its time is used while the next one is built, but not twice as long.
      if (age >= SEARCH_INDEX_MS && !building && now() >= nextTry) build();
      if (!index || age >= 2 * SEARCH_INDEX_MS) return null;
      return findInIndex(index, query);
    },
    async changed() {
      forget();
      try {
        await opts.bus.publish(PRODUCTS_TOPIC, {});
      } catch (err) {
        // The change is stored; other instances search it within SEARCH_INDEX_MS at the latest.
        opts.logger.warn({ err }, "could not tell other instances that products changed");
      }
    },
    settled: () => building ?? Promise.resolve(),
    close: stop,
  };
}
