import { randomUUID } from "node:crypto";
import type { Db, Tx } from "../db/client.ts";
import { cameraSystems, cameras, settings, storeModules, stores } from "../db/schema/index.ts";
import type { PaymentProvider } from "../platform/payments/provider.ts";
import { planDemoHistory, seedDemoVisits } from "./demo-history.ts";
import { seedDemoOrders } from "./demo-orders.ts";
import { payDemoHistory } from "./demo-payments.ts";
import { seedDemoPricing } from "./demo-pricing.ts";
import { demoProducts, seedDemoProducts } from "./demo-products.ts";
import type { HistoryStore } from "./demo-visits.ts";

// Weights of each local hour (0–23) for a visit to start in; 0 while the store is closed.
const ROUND_THE_CLOCK = [1, 1, 0.5, 0.5, 0.5, 1, 2, 4, 5, 4, 3, 4, 6, 5, 3, 3, 5, 8, 9, 7, 5, 4, 3, 2];
const SEVEN_TO_TEN = [0, 0, 0, 0, 0, 0, 0, 3, 4, 3, 3, 4, 6, 5, 3, 3, 5, 8, 9, 7, 5, 3, 0, 0];
const EIGHT_TO_NINE = [0, 0, 0, 0, 0, 0, 0, 0, 4, 3, 3, 4, 6, 5, 3, 3, 5, 7, 6, 4, 3, 0, 0, 0];

/**
 * A handful of Swedish stores for trying the console; seeded on a first demo
 * start only. The open ones have a past (`history`): visits a day and their hours.
 */
const DEMO_STORES: {
  store: typeof stores.$inferInsert & { name: string; address: string; postalCode: string; city: string };
  modules: string[];
  history?: Omit<HistoryStore, "id">;
}[] = [
  {
    store: {
      name: "Glide Södermalm",
      legalName: "Glide Retail Stockholm AB",
      organizationNumber: "556701-2348",
      vatNumber: "SE556701234801",
      storeType: "convenience",
      sizeSqm: 120,
      description: "Open around the clock next to Medborgarplatsen",
      address: "Götgatan 48",
      city: "Stockholm",
      postalCode: "118 26",
      phone: "08-123 456 70",
      email: "sodermalm@glide.example",
      website: "https://glide.example/sodermalm",
      contactPerson: "Anna Lindqvist",
      contactTitle: "Store manager",
    },
    modules: ["ai_product_recognition", "face_checkout", "door_access", "email_receipts"],
    history: { visitsPerDay: [8, 14], hours: ROUND_THE_CLOCK },
  },
  {
    store: {
      name: "Glide Vasastan",
      legalName: "Glide Retail Stockholm AB",
      organizationNumber: "556701-2348",
      vatNumber: "SE556701234801",
      storeType: "grocery",
      sizeSqm: 340,
      description: "Neighbourhood grocery with a fresh bakery corner",
      address: "Odengatan 70",
      city: "Stockholm",
      postalCode: "113 22",
      phone: "08-123 456 71",
      email: "vasastan@glide.example",
      website: "https://glide.example/vasastan",
      contactPerson: "Erik Sandberg",
      contactTitle: "Store manager",
    },
    modules: ["door_access", "age_verification", "analytics"],
    history: { visitsPerDay: [5, 9], hours: SEVEN_TO_TEN },
  },
  {
    store: {
      name: "Glide Haga",
      legalName: "Glide Väst AB",
      organizationNumber: "556812-3458",
      vatNumber: "SE556812345801",
      storeType: "convenience",
      sizeSqm: 85,
      description: "Small store by Haga Nygata",
      address: "Haga Nygata 12",
      city: "Göteborg",
      postalCode: "413 01",
      phone: "031-765 43 21",
      email: "haga@glide.example",
      website: null,
      contactPerson: "Sara Nilsson",
      contactTitle: "Owner",
    },
    modules: ["door_access", "email_receipts"],
    history: { visitsPerDay: [2, 5], hours: EIGHT_TO_NINE },
  },
  {
    store: {
      name: "Glide Möllevången",
      legalName: "Glide Syd AB",
      organizationNumber: "559123-4561",
      vatNumber: "SE559123456101",
      storeType: "grocery",
      sizeSqm: 210,
      description: null,
      address: "Bergsgatan 33",
      city: "Malmö",
      postalCode: "214 22",
      phone: "040-22 33 44",
      email: "mollan@glide.example",
      website: null,
      contactPerson: "Johan Ek",
      contactTitle: "Regional manager",
    },
    modules: ["ai_product_recognition", "door_access", "analytics", "age_verification"],
    history: { visitsPerDay: [3, 7], hours: SEVEN_TO_TEN },
  },
  {
    store: {
      name: "Glide Kiosk Uppsala C",
      legalName: "Glide Kiosk Norr AB",
      organizationNumber: "556934-5670",
      vatNumber: null,
      storeType: "kiosk",
      sizeSqm: 25,
      description: "Station kiosk, closed for refit",
      address: "Kungsgatan 1",
      city: "Uppsala",
      postalCode: "753 21",
      phone: null,
      email: "uppsala@glide.example",
      website: null,
      contactPerson: null,
      contactTitle: null,
      isActive: false,
    },
    modules: ["door_access"],
  },
];

/** A camera system to put the demo store's cameras on, its password already sealed. */
export type DemoCameras = { host: string; port: number; username: string; passwordSealed: string };

/** How many days before the first start the demo stores' history begins. */
export const DEMO_HISTORY_DAYS = 60;

/**
 * The demo stores, their range and their past. With a payment provider
 * (`payments`), the past's shoppers, cards, payments and refunds are made
 * at the provider first (demo-payments.ts), so their ids in the database are
 * the provider's and a seeded order can be refunded; without one, the ids
 * are made up. The ids of stores and products are made here rather than by
 * the database, so the past is planned, and paid, before the transaction
 * that writes it all opens.
 */
export async function seedDemoData(
  db: Db,
  demoCameras: DemoCameras | null = null,
  payments: PaymentProvider | null = null,
): Promise<void> {
  const demoStores = DEMO_STORES.map((demo) => ({ ...demo, store: { ...demo.store, id: randomUUID() } }));
  const withHistory = demoStores.filter((demo) => demo.history);
  const historyStores: HistoryStore[] = withHistory.map(({ store, history }) => ({ id: store.id, ...history! }));
  const shelf = demoProducts().map((product) => ({ ...product, id: randomUUID() }));
  // Their past: visits through the same door, cart, exit and payment as today's, and a few refunds.
  const past = planDemoHistory({ stores: historyStores, shelf, days: DEMO_HISTORY_DAYS, shoppers: 36 });
  if (payments)
    await payDemoHistory(
      payments,
      past,
      withHistory.map(({ store }) => ({ id: store.id, name: store.name, currency: store.currency ?? "SEK" })),
    );
  await db.transaction(async (tx) => {
    for (const [i, { store, modules }] of demoStores.entries()) {
      await tx.insert(stores).values(store);
      if (i === 0) {
        // The shopper app's "Test Demo" link (store_id=demo) opens this store.
        await tx.insert(settings).values({
          category: "store",
          key: "demo_store_id",
          value: store.id,
          description: "The store the shopper app's demo link opens",
          isEditable: false,
        });
      }
      await tx.insert(storeModules).values(modules.map((moduleId) => ({ storeId: store.id, moduleId, enabled: true })));
      if (i === 0 && demoCameras) await seedDemoCameras(tx, store.id, demoCameras);
    }
    await seedDemoProducts(tx, shelf);
    await seedDemoPricing(tx, {
      shelf,
      campaignStoreId: demoStores[0]!.store.id,
      kioskStoreId: demoStores.find(({ store }) => store.name.includes("Kiosk"))!.store.id,
      now: new Date(),
    });
    await seedDemoVisits(tx, past, { stores: historyStores, days: DEMO_HISTORY_DAYS });
    await seedDemoOrders(tx, past.visits);
  });
}

/** An ONVIF recorder with four cameras at the entrance, two aisles and the exit; the fourth has no PTZ. */
async function seedDemoCameras(tx: Tx, storeId: string, c: DemoCameras): Promise<void> {
  const [system] = await tx
    .insert(cameraSystems)
    .values({
      name: "Entrance NVR",
      type: "nvr",
      brand: "hikvision",
      connectionType: "onvif",
      host: c.host,
      port: c.port,
      username: c.username,
      passwordSealed: c.passwordSealed,
      apiEndpoint: "/onvif/device_service",
      storeId,
      notes: "The camera simulator started by npm start",
    })
    .returning({ id: cameraSystems.id });
  const zones = ["entrance", "aisle", "aisle", "exit"] as const;
  await tx.insert(cameras).values(
    zones.map((zone, i) => ({
      name: `Camera ${i + 1}`,
      cameraIndex: i + 1,
      locationZone: zone,
      resolution: "1920x1080",
      fps: 30,
      cameraSystemId: system!.id,
      storeId,
    })),
  );
}
