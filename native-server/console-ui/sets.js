// Custom sets and photo sets of one tenant (docs/adr/0045): list, edit, upload a photo, pick the
// products by SKU search, order them, preview the draft with the real SDK, save.
import { ApiError, call, requireOperator } from "./api.js";
import { renderNav } from "./nav.js";
import { button, cell } from "./dom.js";
import { busy, clearErrors, showErrors } from "./forms.js";

const apiId = new URLSearchParams(location.search).get("apiId") || "";
const tenantPath = "/tenants/" + encodeURIComponent(apiId);
const form = document.getElementById("set-form");
const chosenList = document.getElementById("chosen-products");
const resultsList = document.getElementById("search-results");
const preview = document.getElementById("preview");
let csrfToken = "";
let currency = "EUR";
let locale = "en";
let chosen = [];  // [{sku, name}] in display order
let editing = null;  // {kind, id} of the set being edited; null for a new one

function setStatus(id, text) {
  document.getElementById(id).textContent = text;
}

function price(cents) {
  if (cents === null || cents === undefined) return "no price";
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);
  } catch (ignored) {
    return (cents / 100).toFixed(2) + " " + currency;
  }
}

// Product images come from the shop's servers; the console's policy loads images from svc only,
// so only svc's own (the demo catalog, uploaded photos) are shown here.
function ownImage(url) {
  try {
    return new URL(url, location.href).origin === location.origin;
  } catch (ignored) {
    return false;
  }
}

// --- chosen products: order with Move up / Move down, keyboard focus follows the moved row ---

function renderChosen(focus) {
  chosenList.replaceChildren();
  document.getElementById("chosen-empty").hidden = chosen.length > 0;
  chosen.forEach((product, index) => {
    const row = document.createElement("li");
    const sku = document.createElement("input");
    sku.readOnly = true;
    sku.id = "product-" + index;
    sku.value = product.sku;
    sku.setAttribute("aria-label", "Position " + (index + 1) + ": SKU");
    sku.setAttribute("aria-describedby", "product-" + index + "-error");
    const name = document.createElement("span");
    name.className = "product-name";
    name.textContent = product.name || "";
    const up = button("Move up", "Move up " + product.sku, () => move(index, -1, "up"));
    up.disabled = index === 0;
    up.dataset.role = "up";
    const down = button("Move down", "Move down " + product.sku, () => move(index, 1, "down"));
    down.disabled = index === chosen.length - 1;
    down.dataset.role = "down";
    const remove = button("Remove", "Remove " + product.sku, () => {
      chosen.splice(index, 1);
      renderChosen();
      document.getElementById("sku-search").focus();
    });
    const error = document.createElement("p");
    error.className = "field-error";
    error.id = "product-" + index + "-error";
    error.hidden = true;
    row.append(sku, name, up, down, remove, error);
    chosenList.appendChild(row);
  });
  if (focus) {
    const row = chosenList.children[focus.index];
    const target = row && (row.querySelector("[data-role=" + focus.role + "]:not(:disabled)") || row.querySelector("button:not(:disabled)"));
    if (target) target.focus();
  }
}

function move(index, step, role) {
  const to = index + step;
  if (to < 0 || to >= chosen.length) return;
  [chosen[index], chosen[to]] = [chosen[to], chosen[index]];
  renderChosen({ index: to, role });
  setStatus("search-status", chosen[to].sku + " is now at position " + (to + 1) + ".");
}

function add(product) {
  if (chosen.some((item) => item.sku === product.sku || item.sku === product.mainSku)) {
    setStatus("search-status", product.sku + " is already in the set.");
    return;
  }
  chosen.push({ sku: product.sku, name: product.name });
  renderChosen();
  setStatus("search-status", product.sku + " added at position " + chosen.length + ".");
}

// --- SKU search ---

async function search() {
  const input = document.getElementById("sku-search");
  const query = input.value.trim();
  resultsList.replaceChildren();
  clearErrors(form);
  if (!query) return showErrors(form, { fields: [{ field: "q", message: "type a SKU or words of a product's title" }] }, fieldFor);
  setStatus("search-status", "Searching…");
  try {
    const found = await call("GET", tenantPath + "/catalog/search?q=" + encodeURIComponent(query));
    currency = found.currency || currency;
    locale = found.locale || locale;
    for (const product of found.products) {
      const row = document.createElement("li");
      if (product.image && ownImage(product.image)) {
        const image = document.createElement("img");
        image.src = product.image;
        image.alt = "";
        row.appendChild(image);
      }
      const text = document.createElement("span");
      text.className = "product-name";
      text.textContent = product.sku + " — " + product.name + " — " + price(product.price) + (product.available ? "" : " (out of stock)");
      row.append(text, button("Add", "Add " + product.sku, () => add(product)));
      resultsList.appendChild(row);
    }
    setStatus("search-status", found.products.length ? found.products.length + " found." : "Nothing found for “" + query + "”.");
  } catch (error) {
    setStatus("search-status", "");
    showErrors(form, error, fieldFor);
  }
}

// --- photo upload: the file itself is the body; svc decodes it and answers its address ---

async function uploadPhoto() {
  const file = document.getElementById("photo-file").files[0];
  clearErrors(form);
  if (!file) return showErrors(form, { fields: [{ field: "photo", message: "choose a JPEG or PNG file first" }] }, fieldFor);
  const uploadButton = document.getElementById("upload-photo");
  uploadButton.disabled = true;
  setStatus("upload-status", "Uploading…");
  try {
    const response = await fetch("/operator/api" + tenantPath + "/sets/photos", {
      method: "POST",
      headers: { accept: "application/json", "content-type": file.type || "application/octet-stream", "x-csrf-token": csrfToken },
      body: file,
      credentials: "same-origin",
    });
    const data = await response.json().catch(() => null);
    if (!response.ok) throw new ApiError(response.status, data && data.error);
    form.elements.images.value = data.url;
    showPhoto();
    setStatus("upload-status", "Photo uploaded.");
  } catch (error) {
    setStatus("upload-status", "");
    showErrors(form, error, fieldFor);
  } finally {
    uploadButton.disabled = false;
  }
}

function showPhoto() {
  const image = document.getElementById("photo-preview");
  const url = form.elements.images.value.trim();
  image.hidden = !url || !ownImage(url);
  if (!image.hidden) image.src = url;
}

// --- the editor ---

function kind() {
  return form.elements.kind.value;
}

function showKind() {
  const custom = kind() === "custom";
  document.getElementById("products-fieldset").hidden = !custom;
  document.getElementById("description-field").hidden = !custom;
  document.getElementById("preview-button").hidden = !custom;
}

function draft() {
  const body = {
    id: form.elements.id.value.trim(),
    title: form.elements.title.value.trim(),
    tags: form.elements.tags.value.split(",").map((tag) => tag.trim()).filter(Boolean),
  };
  const image = form.elements.images.value.trim();
  if (kind() === "custom") {
    body.description = form.elements.description.value.trim();
    body.skus = chosen.map((product) => product.sku);
    body.images = image ? [image] : [];
  } else {
    body.images = image ? [image] : [];
  }
  return body;
}

// API field names to controls: "skus[2]" is the third chosen product, "skus" the search box.
function fieldFor(name) {
  const product = /^skus\[(\d+)\]$/.exec(name);
  if (product) return document.getElementById("product-" + product[1]);
  if (name === "skus" || name === "q") return document.getElementById("sku-search");
  if (name === "photo") return document.getElementById("photo-file");
  const list = /^(tags|images)(\[\d+\])?$/.exec(name);
  if (list) return form.elements.namedItem(list[1]);
  return form.elements.namedItem(name);
}

function edit(setKind, set) {
  editing = set ? { kind: setKind, id: set.id } : null;
  clearErrors(form);
  form.elements.kind.value = setKind;
  form.elements.kind.disabled = Boolean(set);
  form.elements.id.value = set ? set.id : "";
  form.elements.id.readOnly = Boolean(set);
  form.elements.title.value = set ? set.title : "";
  form.elements.description.value = set && set.description ? set.description : "";
  form.elements.tags.value = set ? set.tags.join(", ") : "";
  form.elements.images.value = set && set.images.length ? set.images[0] : "";
  chosen = set && set.skus ? set.skus.map((sku) => ({ sku, name: "" })) : [];
  document.getElementById("editor-heading").textContent = set ? "Edit set " + set.id : "New set";
  resultsList.replaceChildren();
  setStatus("search-status", "");
  showKind();
  showPhoto();
  renderChosen();
  form.elements[set ? "title" : "kind"].focus();
  if (set && set.skus) nameChosen();
}

// A stored set holds SKUs only: their titles are looked up for the list (the order is untouched).
async function nameChosen() {
  for (const product of chosen) {
    try {
      const found = await call("GET", tenantPath + "/catalog/search?q=" + encodeURIComponent(product.sku));
      const match = found.products.find((item) => item.sku === product.sku || item.mainSku === product.sku);
      if (match) product.name = match.name;
    } catch (ignored) {
      // No name is shown; saving still tells whether the SKU is in the catalog.
    }
  }
  for (const [index, product] of chosen.entries()) {
    const row = chosenList.children[index];
    const name = row && row.querySelector(".product-name");
    if (name && row.querySelector("input").value === product.sku) name.textContent = product.name;
  }
}

async function showPreview() {
  clearErrors(form);
  setStatus("preview-status", "Preparing the preview…");
  try {
    const body = draft();
    if (!body.id) delete body.id;
    const created = await call("POST", tenantPath + "/sets/previews", body);
    preview.src = created.url;
    setStatus("preview-status", "Preview of the unsaved set.");
  } catch (error) {
    setStatus("preview-status", "The preview needs the errors in the form fixed first.");
    showErrors(form, error, fieldFor);
  }
}

async function loadSets() {
  const [custom, photo] = await Promise.all([call("GET", tenantPath + "/sets/custom"), call("GET", tenantPath + "/sets/photo")]);
  const body = document.querySelector("#sets-table tbody");
  body.replaceChildren();
  const rows = [...custom.sets.map((set) => ["custom", set]), ...photo.sets.map((set) => ["photo", set])];
  for (const [setKind, set] of rows) {
    const row = document.createElement("tr");
    const cells = [setKind === "custom" ? "Custom" : "Photo", set.id, set.title, set.tags.join(", "), set.skus ? String(set.skus.length) : "—"];
    for (const text of cells) cell(row, text);
    const actions = document.createElement("td");
    actions.append(
      button("Edit", "Edit " + set.id, () => edit(setKind, set)),
      " ",
      button("Delete", "Delete " + set.id, async () => {
        if (!confirm("Delete the set " + set.id + "? Shop pages stop showing it.")) return;
        await call("DELETE", tenantPath + "/sets/" + setKind + "/" + encodeURIComponent(set.id));
        setStatus("sets-status", "Set " + set.id + " deleted.");
        await loadSets();
      }, "danger small"),
    );
    row.appendChild(actions);
    body.appendChild(row);
  }
  document.getElementById("sets-table").hidden = rows.length === 0;
  if (rows.length === 0) setStatus("sets-status", "No sets yet.");
  else if (document.getElementById("sets-status").textContent === "Loading…") setStatus("sets-status", "");
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(form);
  const body = draft();
  const setKind = kind();
  if (!body.id) return showErrors(form, { fields: [{ field: "id", message: "required" }] }, fieldFor);
  try {
    const saved = await busy(form, "Saving…", () =>
      call("PUT", tenantPath + "/sets/" + setKind + "/" + encodeURIComponent(body.id), body));
    await loadSets();
    edit(setKind, saved);
    form.querySelector(".form-status").textContent = "Set " + saved.id + " saved.";
  } catch (error) {
    showErrors(form, error, fieldFor);
  }
});

form.elements.kind.addEventListener("change", showKind);
form.elements.images.addEventListener("change", showPhoto);
document.getElementById("upload-photo").addEventListener("click", uploadPhoto);
document.getElementById("search-button").addEventListener("click", search);
document.getElementById("sku-search").addEventListener("keydown", (event) => {
  if (event.key === "Enter") {
    event.preventDefault();  // Enter searches; it does not save the set
    search();
  }
});
document.getElementById("preview-button").addEventListener("click", showPreview);
document.getElementById("new-set").addEventListener("click", () => edit("custom", null));

requireOperator()
  .then((me) => {
    csrfToken = me.csrfToken || "";
    return Promise.all([call("GET", tenantPath), loadSets()]);
  })
  .then(([tenant]) => {
    document.getElementById("tenant-name").textContent = tenant.name;
    document.title = "Sets of " + tenant.name + " – svc operator console";
    currency = tenant.currency || currency;
    locale = tenant.locale || locale;
    renderNav(apiId, tenant.name);
    showKind();
    renderChosen();
  })
  .catch((error) => {
    document.getElementById("tenant-name").textContent = "(not loaded: " + error.message + ")";
  });
