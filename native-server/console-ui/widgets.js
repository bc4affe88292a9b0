import { call, requireOperator } from "./api.js";
import { renderNav } from "./nav.js";
import { busy, clearErrors, showErrors } from "./forms.js";

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
  const first = shownLanguage || Object.keys(texts)[0] || loaded.defaultLanguage || "en";
  shownLanguage = "";
  languageOptions();
  showLanguage(first);
}

// The same-origin preview page gets the typed CSS as a style element of its own, after the
// tenant's saved stylesheet: the operator sees it before saving.
function applyDraftCss() {
  const document_ = preview.contentDocument;
  if (!document_ || !document_.head) return;
  let style = document_.getElementById("svc-console-draft-css");
  if (!style) {
    style = document_.createElement("style");
    style.id = "svc-console-draft-css";
    document_.head.appendChild(style);
  }
  style.textContent = form.elements.css.value;
}

function reloadPreview() {
  const params = new URLSearchParams({ apiId, lang: document.getElementById("previewLanguage").value.trim() || "de" });
  const sku = document.getElementById("previewSku").value.trim();
  if (sku) params.set("sku", sku);
  const page = document.getElementById("previewPage").value;
  if (page === "demo") params.set("svc-demo", "true");
  params.set("t", String(Date.now()));  // a new document each time
  preview.src = "/demo/" + (page === "demo" ? "demo.html" : "texts.html") + "?" + params.toString();
}

preview.addEventListener("load", applyDraftCss);
form.elements.css.addEventListener("input", applyDraftCss);
document.getElementById("reload-preview").addEventListener("click", reloadPreview);
languageSelect.addEventListener("change", () => showLanguage(languageSelect.value));

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
  })
  .catch((error) => {
    document.getElementById("tenant-name").textContent = "(not loaded: " + error.message + ")";
  });
