import { call, requireOperator } from "./api.js";
import { renderNav } from "./nav.js";
import { busy, clearErrors, formLoaded, showErrors } from "./forms.js";

const apiId = new URLSearchParams(location.search).get("apiId") || "";
const path = "/tenants/" + encodeURIComponent(apiId) + "/widgets";
const form = document.getElementById("widgets-form");
const languageSelect = document.getElementById("textLanguage");
const textFields = document.getElementById("text-fields");
const preview = document.getElementById("preview");
let settings = null;
let texts = {};  // language -> {key: text}: the edited bundles, saved together
let shownLanguage = "";

function builtIn(language, key) {
  const bundle = settings.builtInTexts[language] || settings.builtInTexts.en;
  return bundle[key] || "";
}

// Keeps what is typed for the language on screen before another is shown.
function collectShown() {
  if (!shownLanguage) return;
  const bundle = {};
  for (const input of textFields.querySelectorAll("input")) {
    if (input.value.trim() !== "") bundle[input.dataset.key] = input.value;
  }
  texts[shownLanguage] = bundle;
}

function showLanguage(language) {
  collectShown();
  shownLanguage = language;
  languageSelect.value = language;
  textFields.replaceChildren();
  const bundle = texts[language] || {};
  for (const key of settings.textKeys) {
    const field = document.createElement("div");
    field.className = "field";
    const label = document.createElement("label");
    label.htmlFor = "text-" + key;
    label.textContent = key;
    const input = document.createElement("input");
    input.id = "text-" + key;
    input.dataset.key = key;
    input.value = bundle[key] || "";
    input.placeholder = builtIn(language, key);
    input.setAttribute("aria-describedby", "text-" + key + "-error");
    const error = document.createElement("p");
    error.className = "field-error";
    error.id = "text-" + key + "-error";
    error.hidden = true;
    field.append(label, input, error);
    textFields.appendChild(field);
  }
}

function languageOptions() {
  const languages = new Set(["en", "de", ...Object.keys(texts)]);
  languageSelect.replaceChildren();
  for (const language of [...languages].sort()) {
    const option = document.createElement("option");
    option.value = language;
    option.textContent = language + (texts[language] && Object.keys(texts[language]).length ? " (own texts)" : " (built-in)");
    languageSelect.appendChild(option);
  }
}

function show(loaded) {
  settings = loaded;
  texts = JSON.parse(JSON.stringify(loaded.texts));
  form.elements.languageRule.value = loaded.languageRule;
  form.elements.defaultLanguage.value = loaded.defaultLanguage;
  form.elements.css.value = loaded.css;
  // CSS saved before svc checked it (docs/adr/0058): shops get it without these parts.
  const cssProblems = loaded.cssProblems || [];
  if (cssProblems.length) {
    const message = document.getElementById("css-error");
    message.textContent = "Shops get this CSS without " + cssProblems.length + (cssProblems.length === 1 ? " part: " : " parts; the first: ") +
      cssProblems[0] + ". Fix it and save.";
    message.hidden = false;
    form.elements.css.setAttribute("aria-invalid", "true");
  }
  const first = shownLanguage || Object.keys(texts)[0] || loaded.defaultLanguage || "en";
  shownLanguage = "";
  languageOptions();
  showLanguage(first);
}

// The preview (docs/adr/0049): /operator/preview/widget.html in the iframe asks for the draft
// when it has loaded and gets it by postMessage, to this origin only. The CSS goes along on
// every keystroke; a changed text reloads the preview (the SDK renders texts from its content
// answer). Nothing of the draft is stored before "Save".
const previewControls = {
  type: document.getElementById("previewType"),
  touchpoint: document.getElementById("previewTouchpoint"),
  sku: document.getElementById("previewSku"),
  set: document.getElementById("previewSet"),
  language: document.getElementById("previewLanguage"),
};

function previewLanguage() {
  const tag = previewControls.language.value.trim().toLowerCase();
  return tag.split(/[-_]/)[0] || "en";
}

// The texts the page language gets: the draft's own texts over the built-in ones; a language
// with neither falls back to the default language, as the tenant's language rule does.
function draftTexts() {
  collectShown();
  let language = previewLanguage();
  const known = (name) => settings.builtInTexts[name] || (texts[name] && Object.keys(texts[name]).length);
  if (!known(language)) language = form.elements.defaultLanguage.value.trim() || "en";
  return Object.assign({}, settings.builtInTexts[language] || settings.builtInTexts.en, texts[language] || {});
}

function sendDraft() {
  if (!settings || !preview.contentWindow) return;
  preview.contentWindow.postMessage({ svcPreview: "draft", texts: draftTexts(), css: form.elements.css.value }, location.origin);
}

window.addEventListener("message", (event) => {
  if (event.origin !== location.origin || event.source !== preview.contentWindow) return;
  if (event.data && event.data.svcPreview === "ready") sendDraft();
});

function reloadPreview() {
  if (!settings) return;
  const type = previewControls.type.value;
  const params = new URLSearchParams({ apiId, type, touchpoint: previewControls.touchpoint.value, lang: previewControls.language.value.trim() || "de" });
  const sku = previewControls.sku.value.trim();
  if (sku) params.set("sku", sku);
  if (type === "SET-Custom" && previewControls.set.value) params.set("setId", previewControls.set.value);
  params.set("t", String(Date.now()));  // a new document each time
  preview.src = "/operator/preview/widget.html?" + params.toString();
}

let textTimer = 0;
function textsChanged() {
  clearTimeout(textTimer);
  textTimer = setTimeout(reloadPreview, 400);
}

// What the tenant's catalog offers to preview with; a tenant without products is told so.
async function loadSubjects() {
  const subjects = await call("GET", path + "/preview");
  const products = document.getElementById("preview-products");
  products.replaceChildren();
  for (const product of subjects.products) {
    const option = document.createElement("option");
    option.value = product.sku;
    option.label = product.name;
    products.appendChild(option);
  }
  for (const set of subjects.sets) {
    const option = document.createElement("option");
    option.value = set.id;
    option.textContent = set.title ? set.title + " (" + set.id + ")" : set.id;
    previewControls.set.appendChild(option);
  }
  if (!previewControls.sku.value && subjects.products.length) previewControls.sku.value = subjects.products[0].sku;
  const notice = document.getElementById("preview-catalog");
  if (subjects.productCount === 0) {
    notice.textContent = "This tenant has no catalog yet: import a feed (Feeds page) to preview SET, SIMILAR and SET-Custom " +
      "with its products. Meanwhile SET-Compose shows the SDK's demo look.";
    previewControls.type.value = "SET-Compose";
  } else {
    notice.textContent = subjects.productCount + " products in the catalog, " + subjects.sets.length +
      (subjects.sets.length === 1 ? " custom set." : " custom sets.");
  }
}

preview.addEventListener("load", sendDraft);
form.elements.css.addEventListener("input", sendDraft);
textFields.addEventListener("input", textsChanged);
form.elements.defaultLanguage.addEventListener("input", textsChanged);
document.getElementById("reload-preview").addEventListener("click", reloadPreview);
previewControls.type.addEventListener("change", () => {
  // Each type at the touchpoint it is made for (interface spec); any other can be picked after.
  previewControls.touchpoint.value = previewControls.type.value === "SET-Custom" ? "content" : "product";
  reloadPreview();
});
previewControls.touchpoint.addEventListener("change", reloadPreview);
previewControls.set.addEventListener("change", reloadPreview);
languageSelect.addEventListener("change", () => {
  showLanguage(languageSelect.value);
  // The texts being edited are the ones previewed.
  previewControls.language.value = languageSelect.value;
  reloadPreview();
});

document.getElementById("add-language").addEventListener("click", () => {
  const input = form.elements.newLanguage;
  const language = input.value.trim().toLowerCase();
  clearErrors(form);
  if (!/^[a-z]{2,3}$/.test(language)) {
    return showErrors(form, { fields: [{ field: "newLanguage", message: "two or three letters, e.g. fr" }] });
  }
  collectShown();
  if (!texts[language]) texts[language] = {};
  input.value = "";
  languageOptions();
  showLanguage(language);
  previewControls.language.value = language;
  reloadPreview();
  textFields.querySelector("input").focus();
});

// "texts.de.addToCart" names a text of a language: that language is shown first.
function fieldFor(name) {
  const match = /^texts\.([a-z]{2,3})\.([A-Za-z]+)$/.exec(name);
  if (match) {
    if (match[1] !== shownLanguage) showLanguage(match[1]);
    return document.getElementById("text-" + match[2]);
  }
  return form.elements.namedItem(name);
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(form);
  collectShown();
  const bundles = {};
  for (const [language, bundle] of Object.entries(texts)) {
    if (Object.keys(bundle).length) bundles[language] = bundle;
  }
  const body = {
    languageRule: form.elements.languageRule.value,
    defaultLanguage: form.elements.defaultLanguage.value.trim(),
    css: form.elements.css.value,
    texts: bundles,
  };
  try {
    show(await busy(form, "Saving…", () => call("PUT", path, body)));
    form.querySelector(".form-status").textContent = "Widget settings saved.";
    reloadPreview();
  } catch (error) {
    showErrors(form, error, fieldFor);
  }
});

requireOperator()
  .then(() => Promise.all([call("GET", path), call("GET", "/tenants/" + encodeURIComponent(apiId))]))
  .then(([loaded, tenant]) => {
    document.getElementById("tenant-name").textContent = tenant.name;
    document.title = "Widgets of " + tenant.name + " – svc operator console";
    renderNav(apiId, tenant.name);
    show(loaded);
    formLoaded(form);
    return loadSubjects().catch((error) => {
      document.getElementById("preview-catalog").textContent = "The catalog could not be read: " + error.message;
    });
  })
  .then(reloadPreview)
  .catch((error) => {
    document.getElementById("tenant-name").textContent = "(not loaded: " + error.message + ")";
  });
