// Shops registered by plugins (issue 9): whose shop, the endpoints it announced, its last
// contact and the last pull's result, from GET /operator/api/shops. Everything is set as text.
import { call, requireOperator } from "./api.js";
import { renderNav } from "./nav.js";
import { cell } from "./dom.js";

const table = document.getElementById("shop-table");
const status = document.getElementById("list-status");

function when(seconds) {
  return seconds ? new Date(seconds * 1000).toISOString().replace("T", " ").slice(0, 16) + " UTC" : "never";
}

function line(label, value) {
  const item = document.createElement("div");
  const name = document.createElement("span");
  name.className = "label";
  name.textContent = label + ": ";
  const code = document.createElement("code");
  code.textContent = value;
  item.append(name, code);
  return item;
}

async function load() {
  const { shops } = await call("GET", "/shops");
  const body = table.tBodies[0];
  body.replaceChildren();
  for (const shop of shops) {
    const row = document.createElement("tr");
    const link = document.createElement("a");
    link.href = "tenant.html?apiId=" + encodeURIComponent(shop.apiId);
    link.textContent = shop.tenantName || shop.apiId;
    cell(row, link);
    const site = shop.registration.shop;
    cell(row, site.url, document.createElement("br"), site.software + " " + site.version + ", plugin " + shop.registration.plugin.version);
    const api = shop.registration.api;
    cell(row, line("products", api.products), line("attributes", api.attributes), line("variant dimensions", api.variantDimensions));
    cell(row, when(shop.lastRegistrationAt));
    cell(row, when(shop.lastContactAt));
    const result = shop.lastPullResult || "no pull yet";
    const badge = document.createElement("span");
    badge.className = result.startsWith("failed") ? "badge off" : "badge";
    badge.textContent = result;
    cell(row, when(shop.lastPullAt), document.createElement("br"), badge);
    body.appendChild(row);
  }
  table.hidden = shops.length === 0;
  status.textContent = shops.length === 0 ? "No shop has registered yet." : shops.length + (shops.length === 1 ? " shop" : " shops");
}

renderNav();
requireOperator().then(load).catch((error) => {
  status.textContent = "Could not load the shops: " + error.message;
});
