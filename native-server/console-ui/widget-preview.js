// The widget preview page (docs/adr/0049). The console page that frames it sends the draft
// (texts of the page language, the tenant's CSS) by postMessage; only a message from the
// parent window of this very origin is taken. The draft is applied here, in the operator's
// browser: the texts replace those of the SDK's content answer, the CSS replaces the tenant's
// saved part of widgets.css. Nothing of the draft reaches the server, so no shop sees it.
const params = new URLSearchParams(location.search);
const apiId = params.get("apiId") || "";
const type = params.get("type") || "SIMILAR";
const touchpoint = params.get("touchpoint") || "product";
const sku = params.get("sku") || "";
const setId = params.get("setId") || "";
const root = document.getElementById("preview-root");
const status = document.getElementById("preview-status");
const contentPath = "/" + encodeURIComponent(apiId) + "/content";
const draftSheet = new CSSStyleSheet();
let draftTexts = null;
// A category mapping not saved yet (docs/adr/0075): the content comes from the operator API's
// preview of it instead of the tenant's served content. The operator's session goes along
// (same origin); the CSRF token is this page's own, from /operator/api/me.
let draftMapping = null;
let csrfToken = "";
// Without draft CSS (the categories page) the tenant's saved stylesheet stays.
let draftCss = false;
let started = false;

document.documentElement.lang = params.get("lang") || "en";

function isContentRequest(input) {
  try {
    const url = new URL(typeof input === "string" ? input : input.url, location.href);
    return url.origin === location.origin && url.pathname === contentPath;
  } catch (ignored) {
    return false;
  }
}

// The SDK asks for content with fetch(); the answer is the server's (the tenant's catalog),
// only its texts are the draft's. Widget events are not sent: a preview is no shopper.
const realFetch = window.fetch.bind(window);
window.fetch = function (input, init) {
  const url = typeof input === "string" ? input : input.url;
  if (/\/events(\?|$)/.test(new URL(url, location.href).pathname + "?")) return Promise.resolve(new Response(null, { status: 204 }));
  if (!isContentRequest(input)) return realFetch(input, init);
  let answer;
  if (draftMapping) {
    const url = new URL(typeof input === "string" ? input : input.url, location.href);
    answer = realFetch("/operator/api/tenants/" + encodeURIComponent(apiId) + "/category-mapping/preview" + url.search, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", "x-csrf-token": csrfToken, accept: "application/json" },
      body: JSON.stringify({ entries: draftMapping }),
    }).then((response) => {
      if (!response.ok) {
        response.clone().json().then((body) => {
          status.textContent = "The mapping cannot be previewed: " + (body && body.error ? body.error.message : "HTTP " + response.status);
        }, () => {});
      }
      return response;
    });
  } else {
    answer = realFetch(input, init);
  }
  return answer.then(async (response) => {
    if (!response.ok || !draftTexts) return response;
    const body = await response.json();
    body.texts = Object.assign({}, body.texts, draftTexts);
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  });
};
if (navigator.sendBeacon) navigator.sendBeacon = () => true;

// The shop's part: add-to-cart only says what it would do.
window._svc_shop_plugin = {
  addToCart: (addedSku, quantity, PromiseType) => {
    status.textContent = "Preview: " + quantity + " × " + addedSku + " would go to the shop's cart.";
    return PromiseType.resolve();
  },
  navigateTo: (target) => {
    status.textContent = "Preview: the shop would open " + target;
  },
};
// SET-Compose has only the SDK's built-in demo look (docs/adr/0022).
if (type === "SET-Compose") window._svc_config = { isDemoMode: true };

function applyCss(css) {
  try {
    draftSheet.replaceSync(css || "");
  } catch (error) {
    status.textContent = "The CSS could not be applied: " + error.message;
  }
  document.adoptedStyleSheets = [draftSheet];
}

const headlines = {
  SET: "Complete the look",
  SIMILAR: "You may also like",
  "SET-Custom": "Shop the look",
  "SET-Compose": "Complete the look (demo)",
};

function widgetElement() {
  const container = document.createElement("section");
  container.className = "-svc-widget-container";
  const headline = document.createElement("h1");
  headline.textContent = headlines[type] || type;
  const widget = document.createElement("div");
  widget.id = type.toLowerCase() + "-widget";
  widget.setAttribute("data-svc-widget-id", type);
  widget.setAttribute("data-touchpoint", touchpoint);
  if (sku && type !== "SET-Compose") widget.setAttribute("data-sku", sku);
  if (setId && type === "SET-Custom") widget.setAttribute("data-set-id", setId);
  container.append(headline, widget);
  // The SDK hides the container when it has nothing to show: the operator learns why.
  new MutationObserver(() => {
    if (container.hidden) status.textContent = "The SDK shows nothing here: no " + type + " content for this product or set at " + touchpoint + ".";
  }).observe(container, { attributes: true, attributeFilter: ["hidden"] });
  return container;
}

function start() {
  started = true;
  status.textContent = type + " at touchpoint " + touchpoint + (sku ? ", product " + sku : "") + (setId ? ", set " + setId : "") +
    ", page language " + document.documentElement.lang;
  root.appendChild(widgetElement());
  const loader = document.createElement("script");
  loader.src = "/" + encodeURIComponent(apiId) + "/loader.js";
  loader.async = true;
  loader.addEventListener("load", () => {
    if (!draftCss) return;
    // The base stylesheet without the tenant's saved CSS: the draft takes its place.
    for (const link of document.querySelectorAll('link[rel="stylesheet"]')) {
      if (link.href.endsWith(contentPath.replace("/content", "/widgets.css"))) link.href = "/sdk/svc.css";
    }
  });
  loader.addEventListener("error", () => {
    status.textContent = "The SDK could not be loaded for this tenant (disabled, or unknown API ID).";
  });
  document.head.appendChild(loader);
}

window.addEventListener("message", (event) => {
  if (event.origin !== location.origin || event.source !== window.parent) return;
  const draft = event.data;
  if (!draft || draft.svcPreview !== "draft") return;
  if (typeof draft.css === "string") {
    draftCss = true;
    applyCss(draft.css);
  }
  if (!started) {
    started = true;
    draftTexts = draft.texts && typeof draft.texts === "object" ? draft.texts : null;
    if (Array.isArray(draft.mapping)) {
      draftMapping = draft.mapping;
      fetch("/operator/api/me", { credentials: "same-origin", headers: { accept: "application/json" } })
        .then((response) => (response.ok ? response.json() : {}))
        .then((me) => {
          csrfToken = me.csrfToken || "";
          start();
        }, start);
    } else {
      start();
    }
  }
});

if (window.parent === window) {
  status.textContent = "Open the preview from the console's Widgets page.";
} else {
  window.parent.postMessage({ svcPreview: "ready" }, location.origin);
}
