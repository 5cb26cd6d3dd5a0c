/**
 * A generated Swedish grocery range for the product benchmarks: the same
 * products every run (seeded), unique SKUs `SKU-000001`… and unique valid
 * EAN-13s in the Swedish GS1 prefix 73, written as import CSV.
 */
import { gtinCheckDigit } from "@glide/contracts";

type Category = {
  name: string;
  vat: number;
  kronor: [number, number];
  nouns: string[];
  sizes: string[];
  /** Non-food comes in scents, not flavours. */
  nonFood?: boolean;
};

const CATEGORIES: Category[] = [
  {
    name: "Mejeri",
    vat: 12,
    kronor: [9, 60],
    nouns: ["Mellanmjölk", "Filmjölk", "Yoghurt", "Kvarg", "Vispgrädde", "Crème fraiche", "Smör", "Keso"],
    sizes: ["200 g", "500 g", "1 l", "1,5 l"],
  },
  {
    name: "Ost",
    vat: 12,
    kronor: [25, 180],
    nouns: ["Hushållsost", "Prästost", "Grevé", "Brie", "Fetaost", "Mozzarella", "Cheddar", "Getost"],
    sizes: ["150 g", "500 g", "1 kg"],
  },
  {
    name: "Chark",
    vat: 12,
    kronor: [15, 90],
    nouns: ["Falukorv", "Prinskorv", "Grillkorv", "Skinka", "Salami", "Bacon", "Leverpastej", "Rökt korv"],
    sizes: ["100 g", "300 g", "800 g"],
  },
  {
    name: "Kött & fisk",
    vat: 12,
    kronor: [39, 300],
    nouns: ["Köttfärs", "Kycklingfilé", "Fläskkarré", "Laxfilé", "Torskrygg", "Räkor", "Sill", "Högrev"],
    sizes: ["250 g", "500 g", "1 kg"],
  },
  {
    name: "Bröd",
    vat: 12,
    kronor: [12, 55],
    nouns: ["Knäckebröd", "Limpa", "Tunnbröd", "Kanelbullar", "Surdegsbröd", "Rågbröd", "Skorpor", "Frallor"],
    sizes: ["6 st", "400 g", "750 g"],
  },
  {
    name: "Kaffe & te",
    vat: 12,
    kronor: [25, 120],
    nouns: ["Bryggkaffe", "Espresso", "Snabbkaffe", "Kaffebönor", "Grönt te", "Svart te", "Rooibos", "Chai"],
    sizes: ["20 p", "450 g", "500 g", "1 kg"],
  },
  {
    name: "Dryck",
    vat: 12,
    kronor: [8, 45],
    nouns: ["Apelsinjuice", "Äppeljuice", "Saft", "Läsk", "Mineralvatten", "Havredryck", "Smoothie", "Julmust"],
    sizes: ["33 cl", "1 l", "1,5 l", "2 l"],
  },
  {
    name: "Frukt & grönt",
    vat: 12,
    kronor: [9, 60],
    nouns: ["Äpplen", "Päron", "Bananer", "Tomater", "Gurka", "Potatis", "Morötter", "Sallad"],
    sizes: ["500 g", "1 kg", "2 kg"],
  },
  {
    name: "Skafferi",
    vat: 12,
    kronor: [10, 70],
    nouns: ["Makaroner", "Spaghetti", "Jasminris", "Havregryn", "Müsli", "Lingonsylt", "Ketchup", "Krossade tomater"],
    sizes: ["400 g", "500 g", "1 kg"],
  },
  {
    name: "Fryst",
    vat: 12,
    kronor: [20, 110],
    nouns: ["Glass", "Pizza", "Fiskpinnar", "Köttbullar", "Ärtor", "Pommes frites", "Blåbär frysta", "Wokgrönsaker"],
    sizes: ["250 g", "500 g", "1 kg"],
  },
  {
    name: "Godis & snacks",
    vat: 12,
    kronor: [10, 60],
    nouns: ["Mjölkchoklad", "Chips", "Lakrits", "Vingummi", "Popcorn", "Jordnötter", "Chokladkaka", "Kex"],
    sizes: ["100 g", "200 g", "275 g"],
  },
  {
    name: "Hushåll",
    vat: 25,
    kronor: [15, 90],
    nonFood: true,
    nouns: ["Diskmedel", "Tvättmedel", "Hushållspapper", "Toalettpapper", "Soppåsar", "Allrengöring", "Disktabletter"],
    sizes: ["500 ml", "1 l", "8-pack", "30 st"],
  },
  {
    name: "Hygien",
    vat: 25,
    kronor: [19, 120],
    nonFood: true,
    nouns: ["Tvål", "Schampo", "Balsam", "Tandkräm", "Deodorant", "Duschtvål", "Handkräm", "Bomullspads"],
    sizes: ["75 ml", "250 ml", "500 ml"],
  },
];

const MODIFIERS = ["Ekologisk", "Laktosfri", "Lätt", "Klassisk", "Färsk", "Svensk", "Krämig", "Glutenfri", "Mild"];
const FLAVOURS = [
  "naturell",
  "vanilj",
  "jordgubb",
  "hallon",
  "blåbär",
  "citron",
  "kanel",
  "lingon",
  "päron",
  "havtorn",
  "dill",
  "vitlök",
  "chili",
  "örter",
  "honung",
  "mango",
  "kardemumma",
  "skogsbär",
  "apelsin",
  "rabarber",
];
const SCENTS = ["parfymfri", "citrus", "lavendel", "aloe vera", "mint", "sensitive"];
const BRANDS = [
  "Arla",
  "Skånemejerier",
  "Norrmejerier",
  "Garant",
  "Änglamark",
  "Pågen",
  "Skogaholm",
  "Wasa",
  "Felix",
  "Kungsörnen",
  "Zoégas",
  "Gevalia",
  "Löfbergs",
  "Marabou",
  "Cloetta",
  "Estrella",
  "Kalles",
  "Scan",
  "Pärsons",
  "Lithells",
  "Findus",
  "Dafgårds",
  "GB Glace",
  "Ramlösa",
  "Loka",
  "Bravo",
  "Risenta",
  "Santa Maria",
  "AXA",
  "Dansukker",
  "Fazer",
  "Polarbröd",
  "Oatly",
  "Abba",
  "Yes",
  "Via",
  "Lambi",
  "Kronägg",
  "Lindahls",
  "Fontana",
];

export const CSV_HEADER = "sku,name,category,brand,price,vat_rate,barcode";

export type CatalogueProduct = { sku: string; name: string; barcode: string };

/** Product number `n` (from 1): the same product on every call. */
export function product(n: number): CatalogueProduct & { category: Category; brand: string; price: string } {
  const random = mulberry32(n);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const category = pick(CATEGORIES);
  const noun = pick(category.nouns);
  const modifier = random() < 0.4 ? pick(MODIFIERS) : null;
  const flavour = random() < 0.5 ? pick(category.nonFood ? SCENTS : FLAVOURS) : null;
  const words = [modifier ? `${modifier} ${noun.toLowerCase()}` : noun, flavour, pick(category.sizes)];
  const [low, high] = category.kronor;
  const kronor = low + Math.floor(random() * (high - low));
  const price = `${kronor}.${pick(["90", "50", "95", "00"])}`;
  // Multiplying by an odd number not ending in 5 is a bijection modulo 10^10: unique barcodes.
  const body = `73${String((n * 7_919_311) % 10_000_000_000).padStart(10, "0")}`;
  return {
    sku: `SKU-${String(n).padStart(6, "0")}`,
    name: words.filter(Boolean).join(" "),
    category,
    brand: pick(BRANDS),
    price,
    barcode: `${body}${gtinCheckDigit(body)}`,
  };
}

/** Products `from` to `to` (inclusive) as import CSV with a header row. */
export function catalogueCsv(from: number, to: number): string {
  const lines = [CSV_HEADER];
  for (let n = from; n <= to; n++) {
    const p = product(n);
    lines.push([p.sku, p.name, p.category.name, p.brand, p.price, p.category.vat, p.barcode].map(cell).join(","));
  }
  return `${lines.join("\n")}\n`;
}

function cell(value: string | number): string {
  const s = String(value);
  return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** A small seeded generator (mulberry32), so every run imports the same range. */
function mulberry32(seed: number): () => number {
  let a = seed * 0x9e3779b9;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
