/**
 * Every text the shopper sees, in Swedish (spec: shopper-app.md). Texts the
 * spec quotes are copied word for word, including its two English ones
 * ('Quick Dev Login', 'Store ID saknas').
 */
export const sv = {
  brand: "Glide",
  common: {
    backToStart: "Till startsidan",
    tryAgain: "Försök igen",
    cancel: "Avbryt",
    loading: "Laddar…",
    devTools: "Utvecklarverktyg",
  },
  theme: {
    toDark: "Byt till mörkt tema",
    toLight: "Byt till ljust tema",
  },
  landing: {
    title: "Välkommen till Glide",
    intro: "Handla utan kassa. Logga in med BankID, plocka dina varor och gå – betalningen sker automatiskt.",
    storeLabel: "Din butik",
    storeLoading: "Hämtar butiken…",
    storeClosed: "Butiken är stängd just nu.",
    storeFailed: "Kunde inte hämta butiken.",
    howItWorks: "Så fungerar det",
    steps: [
      { title: "Logga in med BankID", text: "Identifiera dig säkert med BankID-appen." },
      { title: "Visa QR-koden vid dörren", text: "Din personliga QR-kod öppnar dörren till butiken." },
      { title: "Plocka och gå", text: "Scanna dina varor och gå ut. Betalningen sker automatiskt." },
    ],
    demo: "Test Demo (Hoppa över QR)",
  },
  login: {
    title: "Logga in",
    intro: "Logga in med BankID för att komma in i butiken.",
    introStore: (store: string) => `Logga in med BankID för att komma in i ${store}.`,
    steps: { bankid: "BankID", face: "Ansikte", complete: "Klart" },
    stepsLabel: "Inloggningens steg",
    stepDone: "klart",
    starting: "Startar BankID…",
    waiting: "Väntar på BankID…",
    storeClosed: "Butiken är stängd just nu.",
    qrLabel: "QR-kod för BankID",
    qrHint: "Öppna BankID-appen på din telefon, tryck på QR-ikonen och scanna koden.",
    openApp: "Öppna BankID",
    openAppHint: "Öppnades inte BankID-appen? Tryck på knappen.",
    faceTitle: "Verifierar ansikte",
    faceText: "Skapar din session…",
    completeTitle: "Inloggad!",
    completeText: "Du skickas vidare till din QR-kod…",
    devLogin: "Quick Dev Login",
    errors: {
      devLogin: "Dev login misslyckades",
      start: "Kunde inte starta BankID. Försök igen.",
      bankid: "BankID-autentisering misslyckades",
      noStore: "Store ID saknas",
      session: "Kunde inte skapa session",
    },
  },
  entry: {
    title: "Din inträdes-QR",
    instructions: "Visa QR-koden för dörrens scanner.",
    qrLabel: "QR-kod för inträde i butiken",
    validFor: "Giltig i",
    success: "Dörr öppnad! Välkommen in!",
    missing: "Session saknas. Vänligen logga in igen.",
    expired: "QR-koden har gått ut. Vänligen börja om.",
    restart: "Börja om",
    login: "Logga in igen",
    testDoor: "Test: Öppna Dörr",
    errors: {
      door: "Kunde inte öppna dörr",
      doorNetwork: "Fel vid dörröppning",
    },
  },
  shop: {
    tagline: "Plocka produkter fritt",
    checking: "Kontrollerar dörrstatus…",
    cartTitle: "Din kundvagn",
    empty: "Kundvagnen är tom",
    emptyHint: "Plocka produkter så läggs de till automatiskt",
  },
  notFound: {
    code: "404",
    title: "Sidan hittades inte",
    text: "Sidan du letar efter finns inte. Den kan ha flyttats eller tagits bort.",
  },
  crash: {
    title: "Något gick fel",
    text: "Ett oväntat fel inträffade. Ladda om sidan och försök igen.",
    reload: "Ladda om sidan",
  },
} as const;
