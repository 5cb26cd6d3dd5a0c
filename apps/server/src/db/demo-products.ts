import { gtinCheckDigit, parseBarcode } from "@glide/contracts";
import type { Tx } from "./client.ts";
import { productBarcodes, products } from "./schema/index.ts";

type Item = {
  name: string;
  brand: string;
  category: string;
  /** Kronor; per kilogram for weighed goods. */
  price: number;
  vat: 6 | 12 | 25;
  sizes?: string[];
  age?: 15 | 18 | 20;
  /** Sold by weight (a 23 label) or with a printed price (a 20 label). */
  measure?: "weight" | "price";
};

// Swedish VAT: food 12 %, newspapers and books 6 %, everything else
// (alcoholic drinks such as folköl, tobacco, non-food) 25 %.
const RANGE: Item[] = [
  { name: "Mellanmjölk", brand: "Arla", category: "Mejeri", price: 17.9, vat: 12, sizes: ["1 l", "1,5 l"] },
  { name: "Standardmjölk", brand: "Skånemejerier", category: "Mejeri", price: 18.5, vat: 12, sizes: ["1 l", "1,5 l"] },
  { name: "Filmjölk", brand: "Arla", category: "Mejeri", price: 19.9, vat: 12, sizes: ["1 l"] },
  {
    name: "Turkisk yoghurt 10 %",
    brand: "Lindahls",
    category: "Mejeri",
    price: 29.9,
    vat: 12,
    sizes: ["500 g", "1 kg"],
  },
  { name: "Bregott Normalsaltat", brand: "Arla", category: "Mejeri", price: 49.9, vat: 12, sizes: ["300 g", "600 g"] },
  { name: "Herrgård 28 %", brand: "Arla", category: "Ost", price: 89.0, vat: 12, sizes: ["500 g", "1 kg"] },
  { name: "Västerbottensost", brand: "Norrmejerier", category: "Ost", price: 119.0, vat: 12, sizes: ["450 g"] },
  { name: "Prästost lagrad", brand: "Arla", category: "Ost", price: 159.0, vat: 12, measure: "price" },
  { name: "Ägg 12-pack frigående", brand: "Kronägg", category: "Ägg", price: 49.9, vat: 12 },
  {
    name: "Kaffe Mellanrost",
    brand: "Gevalia",
    category: "Kaffe",
    price: 59.9,
    vat: 12,
    sizes: ["450 g", "500 g bryggkaffe"],
  },
  { name: "Skånerost", brand: "Zoégas", category: "Kaffe", price: 64.9, vat: 12, sizes: ["450 g"] },
  { name: "Mörkrost Hela bönor", brand: "Löfbergs", category: "Kaffe", price: 79.9, vat: 12, sizes: ["500 g", "1 kg"] },
  { name: "Te Earl Grey", brand: "Lipton", category: "Te", price: 34.9, vat: 12, sizes: ["25 p", "50 p"] },
  { name: "Havregryn", brand: "AXA", category: "Skafferi", price: 24.9, vat: 12, sizes: ["750 g", "1,5 kg"] },
  { name: "Vetemjöl", brand: "Kungsörnen", category: "Skafferi", price: 21.9, vat: 12, sizes: ["2 kg"] },
  { name: "Strösocker", brand: "Dansukker", category: "Skafferi", price: 22.9, vat: 12, sizes: ["1 kg", "2 kg"] },
  { name: "Makaroner", brand: "Kungsörnen", category: "Skafferi", price: 16.9, vat: 12, sizes: ["750 g"] },
  { name: "Spaghetti", brand: "Barilla", category: "Skafferi", price: 22.9, vat: 12, sizes: ["500 g", "1 kg"] },
  { name: "Jasminris", brand: "Uncle Ben's", category: "Skafferi", price: 39.9, vat: 12, sizes: ["1 kg", "2 kg"] },
  { name: "Krossade tomater", brand: "Mutti", category: "Skafferi", price: 18.9, vat: 12, sizes: ["400 g"] },
  { name: "Lingonsylt", brand: "Felix", category: "Skafferi", price: 32.9, vat: 12, sizes: ["450 g"] },
  { name: "Ketchup", brand: "Felix", category: "Skafferi", price: 29.9, vat: 12, sizes: ["500 g", "1 kg"] },
  { name: "Kaviar Original", brand: "Kalles", category: "Skafferi", price: 34.9, vat: 12, sizes: ["190 g", "300 g"] },
  { name: "Knäckebröd Husman", brand: "Wasa", category: "Bröd", price: 24.9, vat: 12, sizes: ["520 g"] },
  { name: "Levainbröd", brand: "Pågen", category: "Bröd", price: 39.9, vat: 12 },
  { name: "Skogaholmslimpa", brand: "Skogaholm", category: "Bröd", price: 32.9, vat: 12 },
  { name: "Kanelbullar", brand: "Pågen", category: "Bröd", price: 36.9, vat: 12, sizes: ["6-pack", "10-pack"] },
  { name: "Falukorv", brand: "Scan", category: "Chark", price: 44.9, vat: 12, sizes: ["800 g"] },
  { name: "Prinskorv", brand: "Scan", category: "Chark", price: 42.9, vat: 12, sizes: ["300 g", "600 g"] },
  { name: "Skinka rökt skivad", brand: "Pärsons", category: "Chark", price: 34.9, vat: 12, sizes: ["120 g"] },
  { name: "Köttbullar", brand: "Scan", category: "Kött", price: 64.9, vat: 12, sizes: ["500 g", "1 kg"] },
  { name: "Nötfärs 12 %", brand: "Garant", category: "Kött", price: 69.9, vat: 12, sizes: ["500 g", "800 g"] },
  { name: "Kycklingfilé", brand: "Kronfågel", category: "Kött", price: 99.9, vat: 12, sizes: ["700 g", "1 kg"] },
  { name: "Laxfilé färsk", brand: "Fiskeriet", category: "Fisk", price: 219.0, vat: 12, measure: "price" },
  { name: "Fiskpinnar", brand: "Findus", category: "Fryst", price: 49.9, vat: 12, sizes: ["450 g", "900 g"] },
  { name: "Pytt i panna", brand: "Findus", category: "Fryst", price: 39.9, vat: 12, sizes: ["750 g"] },
  { name: "Gröna ärtor", brand: "Findus", category: "Fryst", price: 29.9, vat: 12, sizes: ["500 g"] },
  { name: "Bananer", brand: "Chiquita", category: "Frukt & grönt", price: 26.9, vat: 12, measure: "weight" },
  {
    name: "Äpple Royal Gala",
    brand: "Svenska äpplen",
    category: "Frukt & grönt",
    price: 32.9,
    vat: 12,
    measure: "weight",
  },
  {
    name: "Tomater kvist",
    brand: "Svenska tomater",
    category: "Frukt & grönt",
    price: 44.9,
    vat: 12,
    measure: "weight",
  },
  {
    name: "Potatis fast",
    brand: "Svenska potatis",
    category: "Frukt & grönt",
    price: 14.9,
    vat: 12,
    measure: "weight",
  },
  { name: "Gurka", brand: "Svensk gurka", category: "Frukt & grönt", price: 14.9, vat: 12 },
  { name: "Lösgodis", brand: "Karamellkungen", category: "Godis", price: 79.9, vat: 12, measure: "weight" },
  { name: "Mjölkchoklad", brand: "Marabou", category: "Godis", price: 32.9, vat: 12, sizes: ["100 g", "200 g"] },
  { name: "Ahlgrens bilar", brand: "Cloetta", category: "Godis", price: 24.9, vat: 12, sizes: ["125 g"] },
  { name: "Kexchoklad", brand: "Cloetta", category: "Godis", price: 12.9, vat: 12 },
  {
    name: "Chips Sourcream & Onion",
    brand: "OLW",
    category: "Snacks",
    price: 29.9,
    vat: 12,
    sizes: ["175 g", "275 g"],
  },
  { name: "Ostbågar", brand: "OLW", category: "Snacks", price: 27.9, vat: 12, sizes: ["200 g"] },
  { name: "Läsk Cola", brand: "Coca-Cola", category: "Dryck", price: 19.9, vat: 12, sizes: ["33 cl", "1,5 l"] },
  { name: "Julmust", brand: "Apotekarnes", category: "Dryck", price: 21.9, vat: 12, sizes: ["1,4 l"] },
  { name: "Trocadero", brand: "Saturnus", category: "Dryck", price: 14.9, vat: 12, sizes: ["33 cl"] },
  {
    name: "Mineralvatten Citron",
    brand: "Ramlösa",
    category: "Dryck",
    price: 15.9,
    vat: 12,
    sizes: ["50 cl", "1,5 l"],
  },
  { name: "Energidryck", brand: "Nocco", category: "Dryck", price: 24.9, vat: 12, sizes: ["33 cl"], age: 15 },
  {
    name: "Energidryck Original",
    brand: "Red Bull",
    category: "Dryck",
    price: 22.9,
    vat: 12,
    sizes: ["25 cl"],
    age: 15,
  },
  {
    name: "Folköl Ljus lager 3,5 %",
    brand: "Pripps Blå",
    category: "Folköl",
    price: 16.9,
    vat: 25,
    sizes: ["33 cl", "50 cl"],
    age: 18,
  },
  {
    name: "Folköl 3,5 %",
    brand: "Norrlands Guld",
    category: "Folköl",
    price: 17.9,
    vat: 25,
    sizes: ["50 cl"],
    age: 18,
  },
  { name: "Snus General Original Portion", brand: "General", category: "Tobak", price: 62.0, vat: 25, age: 18 },
  { name: "Snus Göteborgs Rapé White", brand: "Göteborgs Rapé", category: "Tobak", price: 64.0, vat: 25, age: 18 },
  { name: "Nikotinpåsar Mint", brand: "Zyn", category: "Tobak", price: 55.0, vat: 25, age: 18 },
  {
    name: "Alvedon 500 mg",
    brand: "Alvedon",
    category: "Receptfritt",
    price: 39.9,
    vat: 25,
    sizes: ["20 st"],
    age: 18,
  },
  { name: "Ipren 200 mg", brand: "Ipren", category: "Receptfritt", price: 42.9, vat: 25, sizes: ["20 st"], age: 18 },
  { name: "Tandkräm", brand: "Colgate", category: "Hygien", price: 24.9, vat: 25, sizes: ["75 ml"] },
  { name: "Schampo", brand: "Head & Shoulders", category: "Hygien", price: 49.9, vat: 25, sizes: ["250 ml", "400 ml"] },
  { name: "Diskmedel", brand: "Yes", category: "Hushåll", price: 29.9, vat: 25, sizes: ["500 ml", "1 l"] },
  { name: "Toalettpapper", brand: "Lambi", category: "Hushåll", price: 64.9, vat: 25, sizes: ["8-pack", "16-pack"] },
  { name: "Hushållspapper", brand: "Lambi", category: "Hushåll", price: 44.9, vat: 25, sizes: ["4-pack"] },
  { name: "Batterier AA", brand: "Duracell", category: "Hushåll", price: 79.9, vat: 25, sizes: ["4-pack", "8-pack"] },
  { name: "Dagens Nyheter", brand: "DN", category: "Tidningar", price: 40.0, vat: 6 },
  { name: "Svenska Dagbladet", brand: "SvD", category: "Tidningar", price: 40.0, vat: 6 },
  { name: "Kalle Anka & C:o", brand: "Egmont", category: "Tidningar", price: 49.0, vat: 6 },
];

/** Variants per size, plus flavours to reach a few hundred lines like a real store. */
const FLAVOURS = ["", " Eko", " Laktosfri", " Storpack"];

function ean13(prefix: string, n: number): string {
  const body = `${prefix}${String(n).padStart(12 - prefix.length, "0")}`;
  return `${body}${gtinCheckDigit(body)}`;
}

export function demoProducts() {
  const out: {
    sku: string;
    name: string;
    brand: string;
    category: string;
    priceOre: number;
    vatRateBp: number;
    ageLimit: number | null;
    barcode: string;
  }[] = [];
  let n = 0;
  for (const item of RANGE) {
    if (item.measure) {
      n++;
      // 23: weight label (price per kg); 20: price label. Registered as the item, value 0000.
      const prefix = item.measure === "weight" ? "2370" : "2070";
      out.push({
        sku: `GL-${String(n).padStart(5, "0")}`,
        name: item.measure === "weight" ? `${item.name} (per kg)` : item.name,
        brand: item.brand,
        category: item.category,
        priceOre: Math.round(item.price * 100),
        vatRateBp: item.vat * 100,
        ageLimit: item.age ?? null,
        barcode: ean13(prefix, n * 10000),
      });
      continue;
    }
    const sizes = item.sizes ?? [""];
    const flavours = item.category === "Tidningar" || item.age ? [""] : FLAVOURS;
    for (const [si, size] of sizes.entries()) {
      for (const [fi, flavour] of flavours.entries()) {
        n++;
        const price = item.price * (1 + si * 0.85) * (1 + fi * 0.12);
        out.push({
          sku: `GL-${String(n).padStart(5, "0")}`,
          name: `${item.name}${flavour}${size ? ` ${size}` : ""}`,
          brand: item.brand,
          category: item.category,
          // Shelf prices end in 90 öre, like a Swedish shop's.
          priceOre: Math.max(90, Math.round(price) * 100 - 10),
          vatRateBp: item.vat * 100,
          ageLimit: item.age ?? null,
          barcode: ean13("7350", 100000 + n),
        });
      }
    }
  }
  return out;
}

export async function seedDemoProducts(tx: Tx): Promise<void> {
  const rows = demoProducts();
  for (let i = 0; i < rows.length; i += 200) {
    const chunk = rows.slice(i, i + 200);
    const inserted = await tx
      .insert(products)
      .values(chunk.map(({ barcode: _b, ...p }) => p))
      .returning({ id: products.id });
    await tx
      .insert(productBarcodes)
      .values(
        chunk.map((p, j) => ({ gtin14: parseBarcode(p.barcode)!.gtin14, productId: inserted[j]!.id, isPrimary: true })),
      );
  }
}
