import { sql } from "drizzle-orm";
import type { Db, Tx } from "./client.ts";
import { seedDemoProducts } from "./demo-products.ts";
import { cameraSystems, cameras, settings, storeModules, stores } from "./schema/index.ts";

/** A handful of Swedish stores for trying the console; seeded on a first demo start only. */
const DEMO_STORES = [
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

export async function seedDemoData(db: Db, demoCameras: DemoCameras | null = null): Promise<void> {
  await db.transaction(async (tx) => {
    for (const [i, { store, modules }] of DEMO_STORES.entries()) {
      const [row] = await tx.insert(stores).values(store).returning({ id: stores.id });
      if (i === 0) {
        // The shopper app's "Test Demo" link (store_id=demo) opens this store.
        await tx.insert(settings).values({
          category: "store",
          key: "demo_store_id",
          value: row!.id,
          description: "The store the shopper app's demo link opens",
          isEditable: false,
        });
      }
      await tx.insert(storeModules).values(modules.map((moduleId) => ({ storeId: row!.id, moduleId, enabled: true })));
      if (i === 0 && demoCameras) await seedDemoCameras(tx, row!.id, demoCameras);
    }
    await seedDemoProducts(tx);
    const [demo] = await tx
      .select({ id: stores.id })
      .from(stores)
      .where(sql`${stores.name} = ${DEMO_STORES[0]!.store.name}`);
    await seedDemoSales(tx, demo!.id);
  });
}

/**
 * 60 days of past visits, paid orders and a few refunds at the demo store,
 * so the Analytics screen has something to show. Made in SQL from the day
 * and order number alone (the same on every fresh seed), through the same
 * triggers that keep the analytics rollups for real checkouts.
 */
async function seedDemoSales(tx: Tx, storeId: string): Promise<void> {
  await tx.execute(sql`
    insert into customers (id, personal_number_hash, personal_number_sealed, name, birth_date)
    values ('00000000-0000-4000-8000-00000000de30', 'demo-analytics', 'demo-analytics', 'Demo Kund', '1985-06-15')`);
  // Order (d, n): day d before today, its n-th order; hours 8–21 local; 1–4 lines of the demo products.
  await tx.execute(sql`
    create temporary table demo_orders on commit drop as
    select md5('demo-order-' || d || '-' || n)::uuid as id, d, n,
      ((current_date - d) + make_interval(hours => 8 + (d * 7 + n * 5) % 14, mins => (n * 13) % 60))
        at time zone 'Europe/Stockholm' as paid_at
    from generate_series(1, 60) d, lateral generate_series(1, 6 + (d * 7) % 9) n`);
  await tx.execute(sql`
    create temporary table demo_lines on commit drop as
    select o.id as order_id, k as position, p.id as product_id, p.name, 1 + (o.d + o.n + k) % 3 as quantity,
      p.price_ore, p.vat_rate_bp
    from demo_orders o, lateral generate_series(1, 1 + (o.d + o.n) % 4) k,
      lateral (select * from products where is_active order by sku
               offset (o.d * 11 + o.n * 7 + k * 3) % greatest((select count(*) from products where is_active), 1) limit 1) p`);
  await tx.execute(sql`
    insert into shopping_sessions (store_id, customer_id, entry_token_hash, entry_expires_at, door_opened_at, entry_used_at,
      checked_out_at, created_at, last_activity_at, state)
    select ${storeId}::uuid, '00000000-0000-4000-8000-00000000de30'::uuid, 'demo-' || o.id, o.paid_at, o.paid_at - interval '6 minutes',
      o.paid_at - interval '6 minutes', o.paid_at, o.paid_at - interval '7 minutes', o.paid_at, 'paid'
    from demo_orders o
    union all
    -- A visitor in four leaves without buying.
    select ${storeId}::uuid, '00000000-0000-4000-8000-00000000de30'::uuid, 'demo-left-' || o.id, o.paid_at, o.paid_at - interval '20 minutes',
      o.paid_at - interval '20 minutes', o.paid_at - interval '12 minutes', o.paid_at - interval '21 minutes',
      o.paid_at - interval '12 minutes', 'ended_empty'
    from demo_orders o where o.n % 4 = 0`);
  await tx.execute(sql`
    insert into orders (id, store_id, customer_id, state, total_ore, vat_ore, store_name, created_at)
    select o.id, ${storeId}::uuid, '00000000-0000-4000-8000-00000000de30'::uuid, 'awaiting_payment',
      sum(l.quantity * l.price_ore), sum(round(l.quantity * l.price_ore * l.vat_rate_bp / (10000.0 + l.vat_rate_bp))),
      ${DEMO_STORES[0]!.store.name}, o.paid_at
    from demo_orders o join demo_lines l on l.order_id = o.id
    group by o.id, o.paid_at`);
  await tx.execute(sql`
    insert into order_lines (order_id, position, product_id, name, quantity, unit_price_ore, vat_rate_bp, total_ore)
    select order_id, position, product_id, name, quantity, price_ore, vat_rate_bp, quantity * price_ore from demo_lines`);
  await tx.execute(sql`
    update orders o set state = 'paid', paid_at = d.paid_at, card_brand = 'visa', card_last4 = '4242',
      receipt_number = d.receipt
    from (select id, paid_at, row_number() over (order by paid_at, id) as receipt from demo_orders) d
    where o.id = d.id`);
  await tx.execute(sql`
    insert into store_receipt_counters (store_id, last_number) values (${storeId}, (select count(*) from demo_orders))
    on conflict (store_id) do update set last_number = excluded.last_number`);
  // A refund of the first line of every 25th order, two hours after it was paid.
  await tx.execute(sql`
    insert into refunds (order_id, store_id, amount_ore, reason, state, idempotency_key, created_at, completed_at)
    select o.id, ${storeId}::uuid, l.total_ore, 'Damaged item', 'succeeded', 'demo-refund-' || o.id,
      o.paid_at + interval '2 hours', o.paid_at + interval '2 hours'
    from orders o join order_lines l on l.order_id = o.id and l.position = 1
    where o.store_id = ${storeId} and o.receipt_number % 25 = 0`);
  await tx.execute(sql`
    insert into refund_lines (refund_id, order_line_id, quantity, amount_ore)
    select r.id, l.id, l.quantity, l.total_ore
    from refunds r join order_lines l on l.order_id = r.order_id and l.position = 1
    where r.store_id = ${storeId}`);
  await tx.execute(sql`
    update order_lines l set refunded_quantity = rl.quantity, refunded_ore = rl.amount_ore
    from refund_lines rl join refunds r on r.id = rl.refund_id
    where rl.order_line_id = l.id and r.store_id = ${storeId}`);
  await tx.execute(sql`
    update orders o set refunded_ore = r.amount_ore from refunds r where r.order_id = o.id and o.store_id = ${storeId}`);
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
