/**
 * The simulator's "BankID app" on the same device: what
 * `https://app.bankid.com/?autostarttoken=…&redirect=…` opens on a phone.
 * It picks up the order of the token, lets the user choose a test person and
 * approve or cancel, then goes back: to the order's returnUrl (which, as with
 * BankID, wins over `redirect`), else to `redirect` unless it is "null".
 */
export function appPage(): string {
  return `<!doctype html>
<html lang="sv">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>BankID (simulator)</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1b1f24; }
  main { max-width: 28rem; margin: 0 auto; padding: 1.5rem; display: flex; flex-direction: column; gap: 1rem; }
  h1 { font-size: 1.5rem; margin: 0; }
  .note { margin: 0; color: #555; font-size: .9rem; }
  .card { background: #fff; border: 1px solid #d0d4da; border-radius: .5rem; padding: 1rem; }
  .uvd { white-space: pre-wrap; margin: 0 0 .75rem; font-weight: 600; }
  label { display: block; margin-bottom: .25rem; font-weight: 600; }
  select, button { font: inherit; padding: .75rem; border-radius: .375rem; width: 100%; }
  select { border: 1px solid #6b7280; background: #fff; color: inherit; }
  .actions { display: flex; flex-direction: column; gap: .5rem; margin-top: 1rem; }
  button { border: 0; cursor: pointer; }
  .approve { background: #183e4b; color: #fff; }
  .cancel { background: #e4e6ea; color: #1b1f24; }
  button:focus-visible, select:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  [hidden] { display: none !important; }
</style>
</head>
<body>
<main>
  <h1>BankID</h1>
  <p class="note">Simulator för test. Här spelar du BankID-appen på samma enhet.</p>
  <section class="card" id="order" hidden aria-labelledby="order-title">
    <h2 id="order-title" class="uvd"></h2>
    <label for="person">Testperson</label>
    <select id="person"></select>
    <div class="actions">
      <button type="button" class="approve" id="approve">Identifiera</button>
      <button type="button" class="cancel" id="cancel">Avbryt</button>
    </div>
  </section>
  <p id="status" role="status"></p>
</main>
<script>
const params = new URLSearchParams(location.search);
const token = params.get("autostarttoken") || "";
const redirect = params.get("redirect");
const statusEl = document.getElementById("status");
const orderEl = document.getElementById("order");
const personEl = document.getElementById("person");
let order = null;

async function api(path, body) {
  const res = await fetch(path, body ? { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : undefined);
  return { ok: res.ok, body: await res.json() };
}
/** Only web addresses: a javascript: URL in a link must not run here. */
function webAddress(value) {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}
function goBack(text) {
  orderEl.hidden = true;
  const target = webAddress(order && order.returnUrl) || (redirect && redirect !== "null" ? webAddress(redirect) : null);
  if (target) {
    statusEl.textContent = text + " Går tillbaka…";
    location.replace(target);
  } else {
    statusEl.textContent = text + " Gå tillbaka till webbläsaren.";
  }
}
async function finish(action) {
  const body = action === "approve" ? { personalNumber: personEl.value } : {};
  const answer = await api("/api/orders/" + order.orderRef + "/" + action, body);
  if (!answer.ok) { statusEl.textContent = "Det gick inte: " + answer.body.error; return; }
  goBack(action === "approve" ? "Klart, du är identifierad." : "Avbrutet.");
}
async function start() {
  if (!token) { statusEl.textContent = "Ingen autostarttoken i länken."; return; }
  const [identities, started] = await Promise.all([api("/api/identities"), api("/api/autostart", { autoStartToken: token })]);
  if (!started.ok) { statusEl.textContent = "Ingen pågående identifiering för den här länken."; return; }
  order = started.body;
  personEl.replaceChildren(...identities.body.map((i) => new Option(i.name + " (" + i.personalNumber + ")", i.personalNumber)));
  document.getElementById("order-title").textContent = order.userVisibleData || "Identifiering";
  orderEl.hidden = false;
  document.getElementById("approve").onclick = () => void finish("approve");
  document.getElementById("cancel").onclick = () => void finish("cancel");
}
start().catch(() => { statusEl.textContent = "Simulatorn svarar inte."; });
</script>
</body>
</html>`;
}
