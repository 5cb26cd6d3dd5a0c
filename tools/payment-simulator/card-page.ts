import type { IncomingMessage, ServerResponse } from "node:http";
import { TEST_CARDS } from "./cards.ts";
import { ApiError } from "./errors.ts";
import { readBody } from "./form.ts";
import type { Store } from "./objects.ts";
import { createCardPaymentMethod } from "./payment-methods-api.ts";

/**
 * The hosted card page: the shopper types a test card, the simulator makes a
 * PaymentMethod of it and sends the browser back to `return_url` with
 * `?payment_method=pm_…`, as a provider's hosted page returns the shopper to
 * the shop. "Avbryt" goes to `cancel_url` (else `return_url`) with nothing added.
 */

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Where the page may send the shopper: an absolute http(s) address. */
export function returnAddress(value: string | null | undefined): URL | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

/** The card errors the page can meet, in the shopper's language. */
export const CARD_MESSAGES: Record<string, string> = {
  incorrect_number: "Kortnumret stämmer inte. Kontrollera siffrorna.",
  invalid_expiry_month: "Giltighetstiden stämmer inte (MM/ÅÅ).",
  invalid_expiry_year: "Giltighetstiden stämmer inte (MM/ÅÅ).",
  invalid_cvc: "Säkerhetskoden ska vara tre eller fyra siffror.",
  test_mode_live_card: "Det här är en testmiljö. Använd ett av testkorten nedan.",
};

export function cardPage(p: {
  returnUrl: string;
  cancelUrl: string | null;
  error?: string;
  values?: { number?: string; exp?: string };
}): string {
  const cancel = p.cancelUrl ?? p.returnUrl;
  const cards = TEST_CARDS.map(
    (c) => `<li><code>${c.number.replace(/(\d{4})(?=\d)/g, "$1 ")}</code> ${escapeHtml(c.label)}</li>`,
  ).join("\n");
  return `<!doctype html>
<html lang="sv">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lägg till betalkort (testsimulator)</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1b1f24; }
  main { max-width: 28rem; margin: 0 auto; padding: 1.5rem; display: flex; flex-direction: column; gap: 1rem; }
  h1 { font-size: 1.5rem; margin: 0; }
  .note { margin: 0; color: #4b5563; font-size: .9rem; }
  form { background: #fff; border: 1px solid #d0d4da; border-radius: .5rem; padding: 1rem; display: flex; flex-direction: column; gap: .75rem; }
  label { display: block; font-weight: 600; margin-bottom: .25rem; }
  input { font: inherit; padding: .75rem; border: 1px solid #6b7280; border-radius: .375rem; width: 100%; box-sizing: border-box; }
  .row { display: flex; gap: .75rem; align-items: flex-end; }
  .row > div { flex: 1; }
  button, .cancel { font: inherit; padding: .75rem; border-radius: .375rem; border: 0; text-align: center; text-decoration: none; }
  button { background: #183e4b; color: #fff; cursor: pointer; }
  .cancel { background: #e4e6ea; color: #1b1f24; }
  .error { margin: 0; padding: .75rem; border-radius: .375rem; background: #fde8e8; color: #8a1c1c; }
  button:focus-visible, input:focus-visible, .cancel:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  ul { margin: 0; padding-left: 1.25rem; font-size: .9rem; }
</style>
</head>
<body>
<main>
  <h1>Lägg till betalkort</h1>
  <p class="note">Testsimulator: inga riktiga kort och inga riktiga pengar.</p>
  ${p.error ? `<p class="error" role="alert">${escapeHtml(p.error)}</p>` : ""}
  <form method="post" action="/card" novalidate>
    <input type="hidden" name="return_url" value="${escapeHtml(p.returnUrl)}">
    ${p.cancelUrl ? `<input type="hidden" name="cancel_url" value="${escapeHtml(p.cancelUrl)}">` : ""}
    <div>
      <label for="number">Kortnummer</label>
      <input id="number" name="number" inputmode="numeric" autocomplete="cc-number" required value="${escapeHtml(p.values?.number ?? "")}">
    </div>
    <div class="row">
      <div>
        <label for="exp">Giltig till</label>
        <input id="exp" name="exp" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/ÅÅ" required value="${escapeHtml(p.values?.exp ?? "")}">
      </div>
      <div>
        <label for="cvc">CVC</label>
        <input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required>
      </div>
    </div>
    <button type="submit">Spara kort</button>
    <a class="cancel" href="${escapeHtml(cancel)}">Avbryt</a>
  </form>
  <section aria-labelledby="cards-title">
    <h2 id="cards-title" class="note">Testkort (valfri framtida giltighetstid och CVC)</h2>
    <ul>
${cards}
    </ul>
  </section>
</main>
</body>
</html>`;
}

/** "12/30", "12 / 2030" or "1230" as month and year. */
export function parseExpiry(value: string): { month: string; year: string } {
  const m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value);
  return m ? { month: m[1]!, year: m[2]! } : { month: "", year: "" };
}

/** GET shows the page; POST makes the PaymentMethod and sends the browser back, or shows what was wrong. */
export function cardPageHandler(store: Store) {
  return async function handleCardPage(req: IncomingMessage, res: ServerResponse, url: URL) {
    const html = (status: number, text: string) => {
      res.writeHead(status, {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "content-security-policy":
          "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
        "referrer-policy": "no-referrer",
      });
      res.end(text);
    };
    const bad = () =>
      html(400, "<!doctype html><html lang=sv><title>Fel</title><p>Adressen att återvända till saknas.</p>");
    if (req.method === "GET") {
      const back = returnAddress(url.searchParams.get("return_url"));
      if (!back) return bad();
      const cancel = returnAddress(url.searchParams.get("cancel_url"));
      return html(200, cardPage({ returnUrl: back.href, cancelUrl: cancel?.href ?? null }));
    }
    if (req.method !== "POST") return html(405, "<!doctype html><html lang=sv><title>Fel</title><p>Fel metod.</p>");
    const form = new URLSearchParams(await readBody(req));
    const back = returnAddress(form.get("return_url"));
    if (!back) return bad();
    const cancel = returnAddress(form.get("cancel_url"));
    const number = form.get("number") ?? "";
    const exp = form.get("exp") ?? "";
    const { month, year } = parseExpiry(exp);
    // The API may leave the code out; a shopper typing a card may not.
    const cvc = form.get("cvc") || "missing";
    try {
      const pm = createCardPaymentMethod(store, { number, expMonth: month, expYear: year, cvc });
      back.searchParams.set("payment_method", pm.id);
      res.writeHead(303, { location: back.href, "cache-control": "no-store" });
      return res.end();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const code = err.body.decline_code ?? err.body.code ?? "";
      const error = CARD_MESSAGES[code] ?? "Kortet kunde inte sparas.";
      return html(
        422,
        cardPage({ returnUrl: back.href, cancelUrl: cancel?.href ?? null, error, values: { number, exp } }),
      );
    }
  };
}
