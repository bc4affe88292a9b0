import { call, requireOperator } from "./api.js";
import { renderNav } from "./nav.js";
import { cell } from "./dom.js";
import { busy, clearErrors, showErrors } from "./forms.js";

const table = document.getElementById("tenant-table");
const status = document.getElementById("list-status");

// Whether each tenant's feeds are fresh (docs/adr/0043); the list still shows if this fails.
async function feedStates() {
  try {
    const { tenants } = await call("GET", "/feeds");
    return new Map(tenants.map((t) => [t.apiId, t]));
  } catch {
    return new Map();
  }
}

async function load() {
  const [{ tenants }, feeds] = await Promise.all([call("GET", "/tenants"), feedStates()]);
  const body = table.tBodies[0];
  body.replaceChildren();
  for (const tenant of tenants) {
    const row = document.createElement("tr");
    const link = document.createElement("a");
    link.href = "tenant.html?apiId=" + encodeURIComponent(tenant.apiId);
    link.textContent = tenant.name;
    cell(row, link);
    const id = document.createElement("code");
    id.textContent = tenant.apiId;
    cell(row, id);
    cell(row, tenant.currency);
    cell(row, tenant.locale);
    cell(row, tenant.country || "—");
    const state = document.createElement("span");
    state.className = tenant.disabled ? "badge off" : "badge";
    state.textContent = tenant.disabled ? "disabled" : "active";
    cell(row, state);
    const feed = feeds.get(tenant.apiId);
    if (!feed || feed.state === "none") {
      cell(row, feed ? "no feed" : "—");
    } else {
      const freshness = document.createElement("a");
      freshness.href = "feeds.html?apiId=" + encodeURIComponent(tenant.apiId);
      freshness.className = feed.state === "fresh" ? "badge" : "badge off";
      freshness.textContent = feed.state === "fresh" ? "fresh" : "stale: " + feed.staleFeeds.join(", ");
      freshness.setAttribute("aria-label", "Feeds of " + tenant.name + ": " + freshness.textContent);
      cell(row, freshness);
    }
    body.appendChild(row);
  }
  table.hidden = tenants.length === 0;
  status.textContent = tenants.length === 0 ? "No tenants yet." : tenants.length + (tenants.length === 1 ? " tenant" : " tenants");
}

const form = document.getElementById("create-form");
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(form);
  const name = form.elements.name.value.trim();
  if (!name) return showErrors(form, { fields: [{ field: "name", message: "required: the shop's name" }] });
  try {
    const created = await busy(form, "Creating…", () => call("POST", "/tenants", { name }));
    form.reset();
    document.getElementById("secret-tenant").textContent = created.tenant.name;
    document.getElementById("secret-api-id").textContent = created.tenant.apiId;
    document.getElementById("secret-value").textContent = created.apiSecret;
    const box = document.getElementById("secret-box");
    box.hidden = false;
    box.focus();
    await load();
  } catch (error) {
    showErrors(form, error);
  }
});

document.getElementById("secret-done").addEventListener("click", () => {
  // Gone from the page as well: it cannot be shown again.
  document.getElementById("secret-value").textContent = "";
  document.getElementById("secret-box").hidden = true;
  form.elements.name.focus();
});

renderNav();
requireOperator().then(load).catch((error) => {
  status.textContent = "Could not load the tenants: " + error.message;
});
