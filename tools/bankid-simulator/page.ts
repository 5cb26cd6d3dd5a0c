/** The simulator's page: pending orders, a test identity to sign in as, approve or cancel. */
export function controlPage(): string {
  return `<!doctype html>
<html lang="sv">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>BankID-simulator</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1b1f24; }
  main { max-width: 42rem; margin: 0 auto; padding: 1.5rem; }
  h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
  p.note { margin: 0 0 1.5rem; color: #555; }
  .order { background: #fff; border: 1px solid #d0d4da; border-radius: .5rem; padding: 1rem; margin-bottom: 1rem; }
  .meta { font-size: .85rem; color: #555; word-break: break-all; }
  .uvd { white-space: pre-wrap; margin: .5rem 0; }
  label { display: block; margin: .5rem 0 .25rem; font-weight: 600; }
  select, button { font: inherit; padding: .5rem .75rem; border-radius: .375rem; }
  select { width: 100%; border: 1px solid #aab; }
  .actions { display: flex; gap: .5rem; margin-top: .75rem; }
  button { border: 0; cursor: pointer; }
  .approve { background: #183e4b; color: #fff; }
  .cancel { background: #e4e6ea; color: #1b1f24; }
  button:focus-visible, select:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
</style>
</head>
<body>
<main>
  <h1>BankID-simulator</h1>
  <p class="note">Testmiljö. Här spelar du BankID-appen: välj en testperson och godkänn eller avbryt en pågående inloggning.</p>
  <section id="orders" aria-live="polite"></section>
</main>
<script>
const ordersEl = document.getElementById("orders");
let identities = [];
async function api(path, body) {
  const res = await fetch(path, body ? { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : undefined);
  return res.json();
}
function render(orders) {
  if (orders.length === 0) { ordersEl.innerHTML = "<p>Inga pågående inloggningar.</p>"; return; }
  ordersEl.replaceChildren(...orders.map((o) => {
    const div = document.createElement("div");
    div.className = "order";
    const options = identities.map((i) => '<option value="' + i.personalNumber + '">' + i.name + " (" + i.personalNumber + ")</option>").join("");
    div.innerHTML =
      '<div class="meta">Order ' + o.orderRef + " · " + o.hintCode + " · " + o.ageSeconds + " s · IP " + o.endUserIp + "</div>" +
      (o.userVisibleData ? '<div class="uvd"></div>' : "") +
      '<label for="id-' + o.orderRef + '">Testperson</label><select id="id-' + o.orderRef + '">' + options + "</select>" +
      '<div class="actions"><button class="approve">Godkänn</button><button class="cancel">Avbryt</button></div>';
    if (o.userVisibleData) div.querySelector(".uvd").textContent = o.userVisibleData;
    div.querySelector(".approve").onclick = () => api("/api/orders/" + o.orderRef + "/approve", { personalNumber: div.querySelector("select").value }).then(refresh);
    div.querySelector(".cancel").onclick = () => api("/api/orders/" + o.orderRef + "/cancel", {}).then(refresh);
    return div;
  }));
}
let shown = "";
async function refresh() {
  const orders = await api("/api/orders");
  const key = orders.map((o) => o.orderRef).join();
  if (key !== shown) { shown = key; render(orders); }
}
api("/api/identities").then((list) => { identities = list; refresh(); setInterval(refresh, 2000); });
</script>
</body>
</html>`;
}
