import { call, requireOperator } from "./api.js";
import { renderNav } from "./nav.js";
import { busy, clearErrors, formLoaded, showErrors } from "./forms.js";

const apiId = new URLSearchParams(location.search).get("apiId") || "";
const path = "/tenants/" + encodeURIComponent(apiId);
const form = document.getElementById("settings-form");
const toggle = document.getElementById("toggle-disabled");
let tenant = null;

function show(current) {
  tenant = current;
  document.title = current.name + " – svc operator console";
  document.getElementById("tenant-name").textContent = current.name;
  renderNav(apiId, current.name);
  document.getElementById("tenant-api-id").textContent = current.apiId;
  document.getElementById("tenant-feed-id").textContent = current.feedId;
  const state = document.getElementById("tenant-state");
  state.textContent = current.disabled ? "disabled" : "active";
  state.className = current.disabled ? "badge off" : "badge";
  toggle.textContent = current.disabled ? "Enable tenant" : "Disable tenant";
  toggle.className = current.disabled ? "secondary" : "danger";
  for (const name of ["commissionRates", "attributionWindowDays", "country", "currency", "locale"]) {
    form.elements[name].value = current[name];
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(form);
  const days = form.elements.attributionWindowDays.value.trim();
  const body = {
    commissionRates: form.elements.commissionRates.value.trim(),
    // Sent as typed when it is no whole number: the server names the field.
    attributionWindowDays: /^\d+$/.test(days) ? Number(days) : days,
    country: form.elements.country.value.trim().toUpperCase(),
    currency: form.elements.currency.value.trim().toUpperCase(),
    locale: form.elements.locale.value.trim(),
  };
  try {
    show(await busy(form, "Saving…", () => call("PATCH", path, body)));
    form.querySelector(".form-status").textContent = "Settings saved.";
  } catch (error) {
    showErrors(form, error);
  }
});

document.getElementById("rotate").addEventListener("click", async () => {
  if (!confirm("Rotate the API secret of " + tenant.name + "? The old secret stops working at once.")) return;
  const rotated = await call("POST", path + "/secret");
  document.getElementById("secret-value").textContent = rotated.apiSecret;
  const box = document.getElementById("secret-box");
  box.hidden = false;
  box.focus();
});

toggle.addEventListener("click", async () => {
  const disabling = !tenant.disabled;
  if (disabling && !confirm("Disable " + tenant.name + "? Its widgets, feeds and events are refused until enabled again.")) return;
  show(await call("POST", path + (disabling ? "/disable" : "/enable")));
  document.getElementById("state-status").textContent = disabling ? "The tenant is disabled." : "The tenant is active again.";
});

// Up to where the recommendations learned from the shop's orders (docs/adr/0074).
async function showLearning() {
  const line = document.getElementById("tenant-learning");
  try {
    const learned = await call("GET", path + "/content/learning");
    line.textContent = learned.lastOrderLearnedAt === null
      ? "Recommendations have learned from no orders yet."
      : "Recommendations learned from " + learned.ordersLearned + " orders, up to one received " +
        new Date(learned.lastOrderLearnedAt * 1000).toISOString().replace(".000Z", "Z") + ".";
  } catch (error) {
    line.textContent = "Recommendations: learning not known (" + error.message + ").";
  }
}

renderNav(apiId);
requireOperator()
  .then(() => call("GET", path))
  .then((current) => {
    show(current);
    formLoaded(form);
  })
  .then(showLearning)
  .catch((error) => {
    document.getElementById("tenant-name").textContent = "Tenant not loaded: " + error.message;
  });
