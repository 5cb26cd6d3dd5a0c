import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { cardByNumber } from "./cards.ts";
import type { Idempotency, IdempotencySnapshot } from "./idempotency.ts";
import type { Charge, Customer, PaymentIntent, PaymentMethod, Refund, SetupIntent, Store } from "./objects.ts";

/**
 * The simulator's objects in a JSON file (`--state-file`), so that a restart
 * keeps them: the ids the server holds (customers, cards, payments, refunds)
 * still answer, and a request repeated under its Idempotency-Key after the
 * restart is answered from the first one, not made again (a refund the
 * server retries must not pay twice). Written whole, to a temporary file
 * renamed over the old one, so a crash mid-write leaves the last complete
 * file. The control API's faults are a test's passing settings and are not
 * kept; nor are requests still running when the process stopped (their
 * answer never went out, so a retry runs them).
 */

const VERSION = 1;

type StoredPaymentMethod = Omit<PaymentMethod, "card"> & { card: string };
type Snapshot = {
  version: number;
  customers: Customer[];
  payment_methods: StoredPaymentMethod[];
  setup_intents: SetupIntent[];
  payment_intents: PaymentIntent[];
  charges: Charge[];
  refunds: Refund[];
  idempotency: IdempotencySnapshot;
};

function snapshotOf(store: Store, idempotency: Idempotency): Snapshot {
  return {
    version: VERSION,
    customers: [...store.customers.values()],
    // A test card by its number: what it does stays defined in cards.ts.
    payment_methods: [...store.paymentMethods.values()].map((pm) => ({ ...pm, card: pm.card.number })),
    setup_intents: [...store.setupIntents.values()],
    payment_intents: [...store.paymentIntents.values()],
    charges: [...store.charges.values()],
    refunds: [...store.refunds.values()],
    idempotency: idempotency.snapshot(),
  };
}

/** Fills an empty store from the file; a missing file is a first start. A file that cannot be read stops the start. */
export function loadState(file: string, store: Store, idempotency: Idempotency): void {
  if (!existsSync(file)) return;
  let s: Snapshot;
  try {
    s = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  } catch (err) {
    throw new Error(
      `The payment simulator's state file ${file} is not JSON (${(err as Error).message}); remove it to start afresh.`,
    );
  }
  if (s?.version !== VERSION)
    throw new Error(`The payment simulator's state file ${file} is of another version; remove it to start afresh.`);
  const put = <T extends { id: string }>(map: Map<string, T>, items: T[]) => {
    for (const item of items) map.set(item.id, item);
  };
  put(store.customers, s.customers);
  put(
    store.paymentMethods,
    s.payment_methods.map(({ card, ...pm }) => {
      const test = cardByNumber(card);
      if (!test) throw new Error(`The payment simulator's state file ${file} names an unknown test card ${card}.`);
      return { ...pm, card: test };
    }),
  );
  put(store.setupIntents, s.setup_intents);
  put(store.paymentIntents, s.payment_intents);
  put(store.charges, s.charges);
  put(store.refunds, s.refunds);
  idempotency.restore(s.idempotency);
}

/**
 * Saves after changes: `changed()` after each request that may have changed
 * something, written at most every `delayMs` (a burst of requests is one
 * write); `flush()` writes at once what is not written yet, as the process
 * stops.
 */
export function statePersister(file: string, store: Store, idempotency: Idempotency, delayMs = 200) {
  let timer: NodeJS.Timeout | null = null;
  let dirty = false;
  let warned = false;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!dirty) return;
    dirty = false;
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, JSON.stringify(snapshotOf(store, idempotency)), { mode: 0o600 });
      renameSync(temporary, file);
    } catch (err) {
      // A full or read-only disk does not stop the payments: said once, and tried again at the next change.
      dirty = true;
      if (!warned) process.stderr.write(`The payment simulator could not save ${file}: ${(err as Error).message}\n`);
      warned = true;
    }
  };
  return {
    changed() {
      dirty = true;
      timer ??= setTimeout(flush, delayMs);
    },
    flush,
  };
}
