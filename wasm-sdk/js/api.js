// The public `_svc` API around the Wasm core. Kept small: the logic is C++
// (shared/sdk/SdkController); this file only does what needs the browser's event
// loop: loading the module, fetch, observing the page, and replaying calls queued by
// the loader. Nothing here may throw into the shop's page (docs/adr/0024).
var svc = window._svc;
// Nothing to do without the loader's config: a copy of sdk.js included by hand can run
// before the loader (both async), even when the shop already queued calls in window._svc;
// the loader then inserts the SDK itself. A second copy after the first does nothing either.
if (!svc || !svc.config || svc.__sdk) return;
svc.__sdk = true;
var config = svc.config || {};
var warned = {};
// A content answer later than this counts as a failure: the widgets are hidden and the
// late answer is ignored, so a slow backend never makes the page jump seconds later.
var CONTENT_TIMEOUT_MS = 3000;

function warnOnce(message) {
  if (warned[message]) return;
  warned[message] = true;
  try { console.warn("[svc] " + message); } catch (ignored) {}
}

// Without the Wasm core the widgets can only be hidden, never half-shown. For good: nothing
// shows them again, so an inline !important (CSSOM, allowed under a strict CSP) that needs no
// stylesheet is safe; the shop's own hiding (hidden, its styles) stays as it is (docs/adr/0071).
function hideAllWidgets(message) {
  var widgets = document.querySelectorAll("div[data-svc-widget-id]");
  for (var i = 0; i < widgets.length; i++) {
    (widgets[i].closest(".-svc-widget-container") || widgets[i]).style.setProperty("display", "none", "important");
    widgets[i].setAttribute("data-svc-state", "failed");
    // The shop's svc:hidden (docs/adr/0082), as the core sends it.
    try {
      widgets[i].dispatchEvent(new CustomEvent("svc:hidden", { bubbles: true, detail: {
        widgetId: widgets[i].getAttribute("data-svc-widget-id") || "", touchpoint: widgets[i].getAttribute("data-touchpoint") || "",
        sku: widgets[i].getAttribute("data-sku") || "", reason: "failed", message: message } }));
    } catch (ignored) {}
  }
}

function whenDomReady(callback) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", callback);
  else callback();
}

function giveUp(message) {
  whenDomReady(function () { hideAllWidgets(message); });
  warnOnce(message);
}

// Every entry from the browser (fetch answers, clicks, observers, the shop's calls) runs
// guarded: an unexpected failure in the core hides the widgets instead of reaching the
// shop's error handlers.
var broken = false;
function guard(work) {
  return function () {
    if (broken) return;
    try { return work.apply(this, arguments); } catch (ignored) {
      broken = true;
      giveUp("the SDK stopped after an internal error; widgets are hidden");
    }
  };
}

if (typeof WebAssembly !== "object") {
  giveUp("WebAssembly is not available in this browser; widgets are hidden");
  return;
}

// Demo mode (spec: svc-demo=true in the URL, or window._svc_config = {isDemoMode: true}).
var demoMode = /[?&]svc-demo=true(&|#|$)/.test(location.search);
try { demoMode = demoMode || (window._svc_config && window._svc_config.isDemoMode) === true; } catch (ignored) {}

// From the loader's versioned folder; a page that includes sdk.js itself (or the console's preview)
// has no config.sdk and uses the unversioned one.
var wasmUrl = (config.sdk || config.base + "/sdk") + "/sdk.wasm";
createSvcSdk({
  print: function () {},
  printErr: function () {},
  // The module is fetched and compiled here, not by the glue, so that a failure (blocked by
  // a Content-Security-Policy without 'wasm-unsafe-eval', a 404, a broken file) is one
  // warning and hidden widgets, never an uncaught rejection in the shop's console.
  instantiateWasm: function (imports, receiveInstance) {
    function fromBytes() {
      return fetch(wasmUrl, { credentials: "omit" }).then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.arrayBuffer();
      }).then(function (bytes) { return WebAssembly.instantiate(bytes, imports); });
    }
    var loading = typeof WebAssembly.instantiateStreaming === "function"
      ? WebAssembly.instantiateStreaming(fetch(wasmUrl, { credentials: "omit" }), imports).catch(fromBytes)
      : fromBytes();
    var failed = function () { giveUp("the SDK's WebAssembly module could not be loaded; widgets are hidden"); };
    loading.then(function (result) {
      try { receiveInstance(result.instance, result.module); } catch (ignored) { failed(); }  // a trap while starting
    }, failed);
    return {};
  }
}).then(guard(function (Module) {
  function text(value) { return Module.allocateUTF8(String(value)); }
  // The SDK's synchronous work on the main thread, for bench/sdk-speed.js (User Timing).
  function measure(name, start) {
    try { performance.measure(name, { start: start, end: performance.now() }); } catch (ignored) {}
  }

  // Consent first (docs/adr/0083): the page's window._svc_config.consent, else the tenant's default
  // from loader.js, else granted. Then the visitor's ids, when it is granted: events and purchases carry them.
  var consent = config.consent || "granted";
  try {
    if (window._svc_config && window._svc_config.consent !== undefined) consent = window._svc_config.consent;
  } catch (ignored) {}
  var started = performance.now();
  Module._svc_start(demoMode ? 1 : 0, text(config.base + "/sdk"), text(consent));
  measure("svc:start", started);

  // C++ asks for content through svc_host_fetch (js/library.js); the answer goes back here.
  var applyContent = guard(function (batchId, body) {
    var arrived = performance.now();
    Module._svc_apply_content(batchId, text(body));
    measure("svc:render", arrived);  // content arrival to rendered widgets
  });
  var failBatch = guard(function (batchId, cause) { Module._svc_fail_batch(batchId, text(cause + "; widgets hidden")); });
  Module.svcFetch = function (batchId, query) {
    var settled = false;
    var aborter = typeof AbortController === "function" ? new AbortController() : null;
    var timer = setTimeout(function () {
      if (settled) return;
      settled = true;
      if (aborter) aborter.abort();
      failBatch(batchId, "content request timed out after " + CONTENT_TIMEOUT_MS + " ms");
    }, CONTENT_TIMEOUT_MS);
    function settle(callback, value) {
      if (settled) return;  // the timeout came first: the late answer is ignored
      settled = true;
      clearTimeout(timer);
      callback(batchId, value);
    }
    // A simple GET without custom headers: no CORS preflight, cacheable. The page's language
    // hints (<html lang>, first path segment) let the tenant's language rule pick the texts.
    var page = "&hl=" + encodeURIComponent(document.documentElement.lang || "") +
               "&hp=" + encodeURIComponent(location.pathname.split("/")[1] || "");
    fetch(config.base + "/" + encodeURIComponent(config.apiId) + "/content?" + query + page,
          { credentials: "omit", signal: aborter ? aborter.signal : undefined })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (body) { settle(applyContent, body); },
            function (error) {
              // An HTTP status names itself; anything else (refused, reset, offline) is one cause.
              var status = error && /^HTTP \d+$/.test(error.message) ? error.message : "backend unreachable";
              settle(failBatch, "content request failed (" + status + ")");
            });
  };

  // One listener for every widget: clicks on the SDK's own controls go to C++, which
  // decides; the default (following a link) is prevented only when C++ handled it.
  document.addEventListener("click", guard(function (event) {
    var control = event.target && event.target.closest && event.target.closest("[data-svc-action]");
    var widget = control && control.closest("[data-svc-key]");
    if (!widget) return;
    var position = control.closest("[data-svc-pos]");
    var plain = event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
    if (Module._svc_action(+widget.getAttribute("data-svc-key"), text(control.getAttribute("data-svc-action")),
                           position ? +position.getAttribute("data-svc-pos") : -1, +(control.getAttribute("data-svc-alt") || 0),
                           plain ? 1 : 0)) {
      event.preventDefault();
    }
  }));

  // Views: IntersectionObserver reports, C++ applies the rule (half the widget visible,
  // or half the viewport covered by it). Without the observer there are no view events.
  var observer = typeof IntersectionObserver === "function" && new IntersectionObserver(guard(function (entries) {
    entries.forEach(function (entry) {
      var root = entry.rootBounds;
      var screen = root ? root.width * root.height : 0;
      var shown = entry.isIntersecting ? entry.intersectionRatio : 0;
      var covered = entry.isIntersecting && screen > 0 ? entry.intersectionRect.width * entry.intersectionRect.height / screen : 0;
      if (Module._svc_visibility(+entry.target.getAttribute("data-svc-key"), shown, covered)) observer.unobserve(entry.target);
    });
  }), { threshold: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1] });
  Module.svcObserve = function (element) { if (observer) observer.observe(element); };

  // Events leave with the page: a beacon survives unloading. A text/plain string body
  // needs no CORS preflight; the API ID travels in the query (beacons cannot set headers).
  var eventsUrl = (config.tracking || config.base) + "/events?apiId=" + encodeURIComponent(config.apiId);
  Module.svcSendEvents = function (body) {
    try {
      if (navigator.sendBeacon && navigator.sendBeacon(eventsUrl, body)) return;
      fetch(eventsUrl, { method: "POST", body: body, keepalive: true, credentials: "omit", headers: { "content-type": "text/plain" } })
        .catch(function () {});
    } catch (ignored) {}
  };
  var flushEvents = guard(function () { Module._svc_flush_events(); });
  window.addEventListener("pagehide", flushEvents);
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "hidden") flushEvents(); });

  var api = {
    initCSE: guard(function () { Module._svc_scan(); }),
    updateWidgetSku: guard(function (widgetId, sku) { Module._svc_update_widget_sku(text(widgetId), text(sku)); }),
    demo: guard(function (widgetId) { Module._svc_demo(text(widgetId)); }),
    consent: guard(function (state) { Module._svc_consent(text(state)); })
  };

  // New widgets and changed widget attributes are picked up without a call from the shop
  // (docs/adr/0023). C++ compares each claimed widget with what it was claimed with, so a
  // change the shop also announced (initCSE, updateWidgetSku) is not rendered twice.
  var WIDGET = "div[data-svc-widget-id]";
  var refresh = guard(function () {
    var began = performance.now();
    Module._svc_refresh();
    measure("svc:refresh", began);
  });
  function concernsWidgets(records) {
    for (var i = 0; i < records.length; i++) {
      var record = records[i];
      if (record.type === "attributes") {
        if (record.target.hasAttribute("data-svc-state")) return true;
        continue;
      }
      // Inside a widget only the SDK's own rendering changes things.
      if (record.target.closest && record.target.closest(WIDGET)) continue;
      for (var j = 0; j < record.addedNodes.length; j++) {
        var node = record.addedNodes[j];
        if (node.nodeType === 1 && (node.matches(WIDGET) || node.querySelector(WIDGET))) return true;
      }
      // A rendered widget that left the page is forgotten at the next refresh.
      for (var k = 0; k < record.removedNodes.length; k++) {
        var gone = record.removedNodes[k];
        if (gone.nodeType === 1 && (gone.matches(WIDGET) || gone.querySelector(WIDGET))) return true;
      }
    }
    return false;
  }
  function observePage() {
    if (typeof MutationObserver !== "function") return;
    new MutationObserver(function (records) { if (concernsWidgets(records)) refresh(); })
      .observe(document.documentElement, {
        subtree: true, childList: true, attributes: true,
        attributeFilter: ["data-svc-widget-id", "data-touchpoint", "data-sku", "data-set-id"]
      });
  }

  // svclytics: the snippet's queue function is replaced by the real one; queued calls run
  // once, in order. C++ checks the payload (as JSON) and builds the body.
  var analyticsQueue = (window.svclytics && window.svclytics.q) || [];
  window.svclytics = guard(function (eventName, payload) {
    var json;
    try { json = JSON.stringify(payload); } catch (ignored) {}  // a cyclic object: reported as not an object
    Module._svc_svclytics(text(eventName), Module.allocateUTF8(json === undefined ? "null" : json));
  });
  for (var a = 0; a < analyticsQueue.length; a++) window.svclytics.apply(null, analyticsQueue[a]);

  var queued = svc.q || [];
  svc.initCSE = api.initCSE;
  svc.updateWidgetSku = api.updateWidgetSku;
  svc.demo = api.demo;
  svc.consent = api.consent;
  whenDomReady(function () {
    // Calls made before the SDK arrived run now, exactly once: demo() and consent() before the
    // first scan (so that SET-Compose is shown, not first hidden as outside demo mode), the others
    // after it (updateWidgetSku changes widgets the scan claimed).
    svc.q = [];
    var scanned = performance.now();
    var i;
    var first = { demo: true, consent: true };
    for (i = 0; i < queued.length; i++) if (first[queued[i][0]]) api[queued[i][0]].apply(null, queued[i][1]);
    api.initCSE();
    measure("svc:scan", scanned);
    for (i = 0; i < queued.length; i++) {
      var call = queued[i];
      if (!first[call[0]] && api[call[0]]) api[call[0]].apply(null, call[1]);
    }
    observePage();
    svc.loaded = true;
  });
}), function () {
  giveUp("the SDK could not start; widgets are hidden");
});
