import { gtinCheckDigit, type NetContentUnit, type PantCode, parseBarcode, type VatCategory } from "@glide/contracts";
import type { Tx } from "../db/client.ts";
import { productBarcodes, products } from "../db/schema/index.ts";
import { netContentOfSize } from "./demo-sizes.ts";

/**
 * Each shelf's VAT category (the rates are in the vat_rates table): food,
 * which takes in folköl up to 3.5 % and soft and energy drinks, was 12 % and
 * is 6 % from 2026-04-01 until 2027 ends; newspapers are 6 %; tobacco,
 * nicotine, medicines and other non-food are standard, 25 %. A grocery sells
 * no strong beer or wine (alcoholic_drink): Systembolaget does.
 */
const SHELF_VAT = {
  Mejeri: "food",
  Ost: "food",
  Ägg: "food",
  Kaffe: "food",
  Te: "food",
  Skafferi: "food",
  Bröd: "food",
  Chark: "food",
  Kött: "food",
  Fisk: "food",
  Fryst: "food",
  "Frukt & grönt": "food",
  Godis: "food",
  Snacks: "food",
  Dryck: "food",
  Folköl: "food",
  Tobak: "standard",
  Receptfritt: "standard",
  Hygien: "standard",
  Hushåll: "standard",
  Tidningar: "books_newspapers",
} as const satisfies Record<string, VatCategory>;

type Item = {
  name: string;
  brand: string;
  category: keyof typeof SHELF_VAT;
  /** Kronor for one; per kilogram for weighed goods. With sizes ("500 g", "33 cl", "6-pack"): each size's own price. */
  price: number | Record<string, number>;
  /** The net content of an item sold in one size not named in the price ("12 st", "750 g"). */
  content?: string;
  /**
   * Variants the item is really sold in, each with its price against the
   * plain one ("Eko" 15 % dearer): only where a shop would have it, so no
   * lactose-free batteries.
   */
  variants?: Record<string, number>;
  age?: 15 | 18 | 20;
  /** Sold by weight (a 23 label) or with a printed price (a 20 label). */
  measure?: "weight" | "price";
  /** A drink in a can or a PET bottle carries pant (its mark follows from the pack and its size). */
  pack?: "can" | "pet";
};

const EKO = { Eko: 1.15 };
const LAKTOSFRI = { Laktosfri: 1.1 };

const RANGE: Item[] = [
  {
    name: "Mellanmjölk",
    brand: "Arla",
    category: "Mejeri",
    price: { "1 l": 17.9, "1,5 l": 24.9 },
    variants: { ...EKO, ...LAKTOSFRI },
  },
  {
    name: "Standardmjölk",
    brand: "Skånemejerier",
    category: "Mejeri",
    price: { "1 l": 18.5, "1,5 l": 25.9 },
    variants: EKO,
  },
  { name: "Lättmjölk", brand: "Arla", category: "Mejeri", price: { "1 l": 16.9 }, variants: LAKTOSFRI },
  { name: "Filmjölk", brand: "Arla", category: "Mejeri", price: { "1 l": 19.9 }, variants: { ...EKO, ...LAKTOSFRI } },
  { name: "Turkisk yoghurt 10 %", brand: "Lindahls", category: "Mejeri", price: { "500 g": 29.9, "1 kg": 49.9 } },
  { name: "Vaniljyoghurt", brand: "Arla", category: "Mejeri", price: { "1 l": 27.9 }, variants: LAKTOSFRI },
  {
    name: "Vispgrädde 36 %",
    brand: "Arla",
    category: "Mejeri",
    price: { "3 dl": 24.9, "5 dl": 34.9 },
    variants: LAKTOSFRI,
  },
  { name: "Bregott Normalsaltat", brand: "Arla", category: "Mejeri", price: { "300 g": 44.9, "600 g": 79.9 } },
  { name: "Herrgård 28 %", brand: "Arla", category: "Ost", price: { "500 g": 69.9, "1 kg": 129.0 } },
  { name: "Västerbottensost", brand: "Norrmejerier", category: "Ost", price: { "450 g": 119.0 } },
  { name: "Prästost lagrad", brand: "Arla", category: "Ost", price: 159.0, measure: "price" },
  { name: "Ägg 12-pack frigående", brand: "Kronägg", category: "Ägg", price: 49.9, content: "12 st", variants: EKO },
  { name: "Kaffe Mellanrost", brand: "Gevalia", category: "Kaffe", price: { "450 g": 59.9 }, variants: EKO },
  { name: "Skånerost", brand: "Zoégas", category: "Kaffe", price: { "450 g": 64.9 } },
  {
    name: "Mörkrost hela bönor",
    brand: "Löfbergs",
    category: "Kaffe",
    price: { "500 g": 79.9, "1 kg": 149.0 },
    variants: EKO,
  },
  { name: "Te Earl Grey", brand: "Lipton", category: "Te", price: { "25 p": 34.9, "50 p": 59.9 } },
  { name: "Havregryn", brand: "AXA", category: "Skafferi", price: { "750 g": 24.9, "1,5 kg": 42.9 }, variants: EKO },
  { name: "Vetemjöl", brand: "Kungsörnen", category: "Skafferi", price: { "2 kg": 21.9 }, variants: EKO },
  { name: "Strösocker", brand: "Dansukker", category: "Skafferi", price: { "1 kg": 22.9, "2 kg": 39.9 } },
  {
    name: "Makaroner",
    brand: "Kungsörnen",
    category: "Skafferi",
    price: { "750 g": 16.9 },
    variants: { Fullkorn: 1.1 },
  },
  {
    name: "Spaghetti",
    brand: "Barilla",
    category: "Skafferi",
    price: { "500 g": 22.9, "1 kg": 39.9 },
    variants: { Fullkorn: 1.1 },
  },
  { name: "Jasminris", brand: "Uncle Ben's", category: "Skafferi", price: { "1 kg": 39.9, "2 kg": 69.9 } },
  { name: "Krossade tomater", brand: "Mutti", category: "Skafferi", price: { "400 g": 18.9 }, variants: EKO },
  { name: "Lingonsylt", brand: "Felix", category: "Skafferi", price: { "450 g": 32.9 } },
  { name: "Ketchup", brand: "Felix", category: "Skafferi", price: { "500 g": 29.9, "1 kg": 49.9 } },
  {
    name: "Kaviar",
    brand: "Kalles",
    category: "Skafferi",
    price: { "190 g": 34.9, "300 g": 49.9 },
    variants: { Mild: 1 },
  },
  { name: "Knäckebröd Husman", brand: "Wasa", category: "Bröd", price: { "520 g": 24.9 } },
  { name: "Levainbröd", brand: "Pågen", category: "Bröd", price: 39.9, content: "750 g" },
  { name: "Skogaholmslimpa", brand: "Skogaholm", category: "Bröd", price: 32.9, content: "775 g" },
  { name: "Kanelbullar", brand: "Pågen", category: "Bröd", price: { "6-pack": 36.9, "10-pack": 54.9 } },
  { name: "Falukorv", brand: "Scan", category: "Chark", price: { "800 g": 44.9 } },
  { name: "Prinskorv", brand: "Scan", category: "Chark", price: { "300 g": 42.9, "600 g": 74.9 } },
  { name: "Skinka rökt skivad", brand: "Pärsons", category: "Chark", price: { "120 g": 34.9 } },
  { name: "Köttbullar", brand: "Scan", category: "Kött", price: { "500 g": 64.9, "1 kg": 114.0 } },
  { name: "Nötfärs 12 %", brand: "Garant", category: "Kött", price: { "500 g": 69.9, "800 g": 104.0 }, variants: EKO },
  { name: "Kycklingfilé", brand: "Kronfågel", category: "Kött", price: { "700 g": 99.9, "1 kg": 134.0 } },
  { name: "Laxfilé färsk", brand: "Fiskeriet", category: "Fisk", price: 219.0, measure: "price" },
  { name: "Fiskpinnar", brand: "Findus", category: "Fryst", price: { "450 g": 49.9, "900 g": 89.9 } },
  { name: "Pytt i panna", brand: "Findus", category: "Fryst", price: { "750 g": 39.9 } },
  { name: "Gröna ärtor", brand: "Findus", category: "Fryst", price: { "500 g": 29.9 }, variants: EKO },
  { name: "Bananer", brand: "Chiquita", category: "Frukt & grönt", price: 26.9, measure: "weight", variants: EKO },
  { name: "Äpple Royal Gala", brand: "Svenska äpplen", category: "Frukt & grönt", price: 32.9, measure: "weight" },
  { name: "Tomater kvist", brand: "Svenska tomater", category: "Frukt & grönt", price: 44.9, measure: "weight" },
  { name: "Potatis fast", brand: "Svenska potatis", category: "Frukt & grönt", price: 14.9, measure: "weight" },
  { name: "Gurka", brand: "Svensk gurka", category: "Frukt & grönt", price: 14.9, content: "1 st" },
  { name: "Lösgodis", brand: "Karamellkungen", category: "Godis", price: 79.9, measure: "weight" },
  {
    name: "Mjölkchoklad",
    brand: "Marabou",
    category: "Godis",
    price: { "100 g": 19.9, "200 g": 32.9 },
    variants: { Daim: 1, Mintkrokant: 1 },
  },
  {
    name: "Ahlgrens bilar",
    brand: "Cloetta",
    category: "Godis",
    price: { "125 g": 24.9 },
    variants: { Sursockrade: 1 },
  },
  { name: "Kexchoklad", brand: "Cloetta", category: "Godis", price: 12.9, content: "55 g" },
  { name: "Chips Sourcream & Onion", brand: "OLW", category: "Snacks", price: { "175 g": 29.9, "275 g": 39.9 } },
  { name: "Chips Grillchips", brand: "OLW", category: "Snacks", price: { "175 g": 29.9 } },
  { name: "Ostbågar", brand: "OLW", category: "Snacks", price: { "200 g": 27.9 } },
  {
    name: "Läsk Cola",
    brand: "Coca-Cola",
    category: "Dryck",
    price: { "33 cl": 14.9, "1,5 l": 27.9 },
    variants: { Zero: 1 },
    // The 33 cl in a can, the 1.5 l in a PET bottle: pantCodeOf tells them apart by size.
    pack: "pet",
  },
  { name: "Julmust", brand: "Apotekarnes", category: "Dryck", price: { "1,4 l": 21.9 }, pack: "pet" },
  {
    name: "Trocadero",
    brand: "Saturnus",
    category: "Dryck",
    price: { "33 cl": 14.9 },
    variants: { Zero: 1 },
    pack: "can",
  },
  {
    name: "Mineralvatten Citron",
    brand: "Ramlösa",
    category: "Dryck",
    price: { "50 cl": 15.9, "1,5 l": 22.9 },
    pack: "pet",
  },
  { name: "Apelsinjuice", brand: "Tropicana", category: "Dryck", price: { "1 l": 34.9 } },
  { name: "Energidryck", brand: "Nocco", category: "Dryck", price: { "33 cl": 24.9 }, age: 15, pack: "can" },
  {
    name: "Energidryck Original",
    brand: "Red Bull",
    category: "Dryck",
    price: { "25 cl": 22.9 },
    age: 15,
    pack: "can",
  },
  {
    name: "Folköl Ljus lager 3,5 %",
    brand: "Pripps Blå",
    category: "Folköl",
    price: { "33 cl": 16.9, "50 cl": 21.9 },
    age: 18,
    pack: "can",
  },
  {
    name: "Folköl 3,5 %",
    brand: "Norrlands Guld",
    category: "Folköl",
    price: { "50 cl": 17.9 },
    age: 18,
    pack: "can",
  },
  {
    name: "Snus General Original Portion",
    brand: "General",
    category: "Tobak",
    price: 62.0,
    content: "24 st",
    age: 18,
  },
  {
    name: "Snus Göteborgs Rapé White",
    brand: "Göteborgs Rapé",
    category: "Tobak",
    price: 64.0,
    content: "24 st",
    age: 18,
  },
  { name: "Nikotinpåsar Mint", brand: "Zyn", category: "Tobak", price: 55.0, content: "20 st", age: 18 },
  { name: "Alvedon 500 mg", brand: "Alvedon", category: "Receptfritt", price: { "20 st": 39.9 }, age: 18 },
  { name: "Ipren 200 mg", brand: "Ipren", category: "Receptfritt", price: { "20 st": 42.9 }, age: 18 },
  { name: "Tandkräm", brand: "Colgate", category: "Hygien", price: { "75 ml": 24.9 } },
  { name: "Schampo", brand: "Head & Shoulders", category: "Hygien", price: { "250 ml": 49.9, "400 ml": 69.9 } },
  { name: "Diskmedel", brand: "Yes", category: "Hushåll", price: { "500 ml": 29.9, "1 l": 49.9 } },
  { name: "Toalettpapper", brand: "Lambi", category: "Hushåll", price: { "8-pack": 64.9, "16-pack": 114.0 } },
  { name: "Hushållspapper", brand: "Lambi", category: "Hushåll", price: { "4-pack": 44.9 } },
  { name: "Batterier AA", brand: "Duracell", category: "Hushåll", price: { "4-pack": 79.9, "8-pack": 139.0 } },
  { name: "Batterier AAA", brand: "Duracell", category: "Hushåll", price: { "4-pack": 79.9 } },
  { name: "Dagens Nyheter", brand: "DN", category: "Tidningar", price: 40.0, content: "1 st" },
  { name: "Svenska Dagbladet", brand: "SvD", category: "Tidningar", price: 40.0, content: "1 st" },
  { name: "Kalle Anka & C:o", brand: "Egmont", category: "Tidningar", price: 49.0, content: "1 st" },
];

function ean13(prefix: string, n: number): string {
  const body = `${prefix}${String(n).padStart(12 - prefix.length, "0")}`;
  return `${body}${gtinCheckDigit(body)}`;
}

/** A shelf price: the listed one, or one made from it by a factor, ending in 90 öre like a Swedish shop's. */
const shelfOre = (kronor: number, factor: number) =>
  factor === 1 ? Math.round(kronor * 100) : Math.round(kronor * factor) * 100 - 10;

export type DemoProduct = {
  sku: string;
  name: string;
  brand: string;
  category: string;
  priceOre: number;
  vatCategory: VatCategory;
  ageLimit: number | null;
  barcode: string;
  /** Net content (thousandths of its unit) of a packaged item; null for goods weighed or priced at the counter. */
  netContentMilli: number | null;
  netContentUnit: NetContentUnit | null;
  /** The pant mark of a drink in a can or a PET bottle; null for anything else. */
  pantCode: PantCode | null;
  /** Weighed (a 23 weight label) or priced at the counter (a 20 price label); null: a packaged item. */
  measure: "weight" | "price" | null;
};

/**
 * A drink's pant mark: every can is "can"; a PET bottle is "pet_small" up to
 * a litre and "pet_large" above it, as Returpack marks them. A Cola sold both
 * as a 33 cl can and a 1.5 l bottle is written as PET, and its sizes under
 * half a litre are cans.
 */
export function pantCodeOf(
  pack: Item["pack"],
  content: { netContentMilli: number; netContentUnit: NetContentUnit } | null,
): PantCode | null {
  if (!pack || !content) return null;
  const litres = content.netContentMilli / 1000 / (content.netContentUnit === "l" ? 1 : 1000);
  if (pack === "can" || litres < 0.5) return "can";
  return litres > 1 ? "pet_large" : "pet_small";
}

/** The range as products: one per size and variant an item is sold in. */
export function demoProducts(): DemoProduct[] {
  const out: DemoProduct[] = [];
  for (const item of RANGE) {
    const sizes = typeof item.price === "number" ? { "": item.price } : item.price;
    const variants: Record<string, number> = { "": 1, ...item.variants };
    for (const [size, kronor] of Object.entries(sizes)) {
      for (const [variant, factor] of Object.entries(variants)) {
        const n = out.length + 1;
        const name = [item.name, variant, size].filter(Boolean).join(" ");
        const content = item.measure ? null : netContentOfSize(size || item.content || "");
        out.push({
          sku: `GL-${String(n).padStart(5, "0")}`,
          name: item.measure === "weight" ? `${name} (per kg)` : name,
          brand: item.brand,
          category: item.category,
          priceOre: shelfOre(kronor, factor),
          vatCategory: SHELF_VAT[item.category],
          ageLimit: item.age ?? null,
          netContentMilli: content?.netContentMilli ?? null,
          netContentUnit: content?.netContentUnit ?? null,
          pantCode: pantCodeOf(item.pack, content),
          // 23: weight label (price per kg); 20: price label. Registered as the item, value 0000.
          barcode: item.measure
            ? ean13(item.measure === "weight" ? "2370" : "2070", n * 10000)
            : ean13("7350", 100000 + n),
          measure: item.measure ?? null,
        });
      }
    }
  }
  return out;
}

/** The range (demoProducts() with the ids the seed gave them), inserted with each product's barcode. */
export async function seedDemoProducts(tx: Tx, shelf: (DemoProduct & { id: string })[]): Promise<void> {
  for (let i = 0; i < shelf.length; i += 200) {
    const chunk = shelf.slice(i, i + 200);
    await tx.insert(products).values(chunk.map(({ barcode: _b, measure: _m, ...p }) => p));
    await tx
      .insert(productBarcodes)
      .values(chunk.map((p) => ({ gtin14: parseBarcode(p.barcode)!.gtin14, productId: p.id, isPrimary: true })));
  }
}
