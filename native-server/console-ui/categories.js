// A tenant's categories mapped onto the content pool's slots (docs/adr/0075): the catalog's
// categories with svc's proposals, a slot per category, save; and the SET widget of one product
// before and after, through the widget preview page (docs/adr/0049).
import { call, requireOperator } from "./api.js";
import { renderNav } from "./nav.js";
import { cell } from "./dom.js";
import { busy, clearErrors, formLoaded, showErrors } from "./forms.js";

const apiId = new URLSearchParams(location.search).get("apiId") || "";
const path = "/tenants/" + encodeURIComponent(apiId);
const form = document.getElementById("mapping-form");
const status = document.getElementById("mapping-status");
const before = document.getElementById("preview-before");
const after = document.getElementById("preview-after");
const previewSku = document.getElementById("previewSku");
let overview = null;

function slotSelect(category, index) {
  const select = document.createElement("select");
  select.id = "slot-" + index;
  select.name = "slot-" + index;
  select.dataset.category = category.category;
  select.setAttribute("aria-label", "Slot for " + category.category);
  const keep = document.createElement("option");
  keep.value = "";
  keep.textContent = "today's matching";
  select.appendChild(keep);
  for (const slot of overview.slots) {
    const option = document.createElement("option");
    option.value = slot.name;
    option.textContent = slot.name;
    select.appendChild(option);
  }
  select.value = category.slot || "";
  select.addEventListener("change", schedulePreview);
  return select;
}

function render() {
  const body = document.querySelector("#mapping-table tbody");
  body.replaceChildren();
  overview.categories.forEach((category, index) => {
    const row = document.createElement("tr");
    cell(row, category.category);
    cell(row, category.products);
    cell(row, category.paths.join("; "));
    cell(row, category.matchedToday.length ? category.matchedToday.join(", ") : "none");
    const proposal = category.proposal;
    cell(row, proposal ? proposal.slot + " (" + Math.round(proposal.confidence * 100) + "%, by " + proposal.basis + ")" : "nothing");
    cell(row, slotSelect(category, index));
    body.appendChild(row);
  });
  document.getElementById("mapping-table").hidden = overview.categories.length === 0;
  const mapped = overview.entries.length;
  status.textContent = overview.categories.length
    ? overview.categoryCount + " categories" + (overview.categoryCount > overview.categories.length ? " (the " + overview.categories.length + " largest listed)" : "") +
      ", " + mapped + " mapped."
    : "This tenant's catalog has no categories yet: import a feed (Feeds page).";
}

function entries() {
  const result = [];
  for (const select of form.querySelectorAll("select[data-category]")) {
    if (select.value) result.push({ category: select.dataset.category, slot: select.value });
  }
  return result;
}

// Errors name "entries[3].slot": shown at that row's select.
function fieldFor(name) {
  const match = /^entries\[(\d+)\]/.exec(name);
  if (!match) return null;
  const wanted = entries()[Number(match[1])];
  if (!wanted) return null;
  return [...form.querySelectorAll("select[data-category]")].find((select) => select.dataset.category === wanted.category) || null;
}

// The preview page asks for the draft when it has loaded: the "after" frame gets the mapping,
// the "before" frame nothing (the saved content and the tenant's saved texts and CSS).
window.addEventListener("message", (event) => {
  if (event.origin !== location.origin || !event.data || event.data.svcPreview !== "ready") return;
  if (event.source === before.contentWindow) before.contentWindow.postMessage({ svcPreview: "draft" }, location.origin);
  if (event.source === after.contentWindow) after.contentWindow.postMessage({ svcPreview: "draft", mapping: entries() }, location.origin);
});

function showPreview() {
  const sku = previewSku.value.trim();
  if (!sku) return;
  const params = new URLSearchParams({ apiId, type: "SET", touchpoint: "product", sku, lang: "en" });
  before.src = "/operator/preview/widget.html?" + params.toString();
  after.src = "/operator/preview/widget.html?" + params.toString() + "&draft=mapping";
}

let previewTimer = 0;
function schedulePreview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(() => {
    if (after.src) after.src = after.src;
  }, 400);
}

document.getElementById("show-preview").addEventListener("click", showPreview);

// Proposals fill only categories no template matches and none is saved for: the operator sees
// them in the selects, and nothing is stored before Save.
document.getElementById("take-proposals").addEventListener("click", () => {
  let taken = 0;
  overview.categories.forEach((category, index) => {
    const select = document.getElementById("slot-" + index);
    if (category.proposal && !category.slot && !category.matchedToday.length && !select.value) {
      select.value = category.proposal.slot;
      taken += 1;
    }
  });
  status.textContent = taken + " proposals taken: not saved yet.";
  schedulePreview();
});

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(form);
  try {
    overview = await busy(form, "Saving…", () => call("PUT", path + "/category-mapping", { entries: entries() }));
    render();
    form.querySelector(".form-status").textContent = "Saved: " + overview.entries.length + " categories mapped. The tenant's content is rebuilt.";
    showPreview();
  } catch (error) {
    showErrors(form, error, fieldFor);
  }
});

requireOperator()
  .then(async () => {
    const tenant = await call("GET", path);
    const current = tenant.tenant || tenant;
    document.getElementById("tenant-name").textContent = current.name;
    document.title = "Categories of " + current.name + " – svc operator console";
    renderNav(apiId, current.name);
    overview = await call("GET", path + "/category-mapping");
    render();
    formLoaded(form);
    const subjects = await call("GET", path + "/widgets/preview");
    const list = document.getElementById("preview-products");
    for (const product of subjects.products) {
      const option = document.createElement("option");
      option.value = product.sku;
      option.textContent = product.name;
      list.appendChild(option);
    }
    if (subjects.products.length) {
      previewSku.value = subjects.products[0].sku;
      showPreview();
    }
  })
  .catch((error) => {
    status.textContent = "Not loaded: " + error.message;
  });
