// The public `_svc` API around the Wasm core. Kept small: the logic is C++
// (shared/sdk/SdkController); this file only does what needs the browser's event
// loop: loading the module, fetch, and replaying calls queued by the loader.
var svc = window._svc;
if (!svc || svc.__sdk) return; // no loader, or the SDK was loaded twice: do nothing
svc.__sdk = true;
var config = svc.config || {};
var warned = {};

function warnOnce(message) {
  if (warned[message]) return;
  warned[message] = true;
  try { console.warn("[svc] " + message); } catch (ignored) {}
}

// Without the Wasm core the widgets can only be hidden, never half-shown.
function hideAllWidgets() {
  var widgets = document.querySelectorAll("div[data-svc-widget-id]");
  for (var i = 0; i < widgets.length; i++) {
    var target = widgets[i].closest(".-svc-widget-container") || widgets[i];
    target.hidden = true;
    target.style.setProperty("display", "none", "important");
    widgets[i].setAttribute("data-svc-state", "failed");
  }
}

function whenDomReady(callback) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", callback);
  else callback();
}

if (typeof WebAssembly !== "object") {
  whenDomReady(hideAllWidgets);
  warnOnce("WebAssembly is not available in this browser; widgets are hidden");
  return;
}

createSvcSdk({
  locateFile: function (file) { return config.base + "/sdk/" + file; },
  print: function () {},
  printErr: function () {}
}).then(function (Module) {
  // The visitor's ids first: widget events and purchases carry them.
  Module._svc_start();
  // C++ asks for content through svc_host_fetch (js/library.js); the answer goes back here.
  Module.svcFetch = function (batchId, query) {
    // A simple GET without custom headers: no CORS preflight, cacheable.
    fetch(config.base + "/" + encodeURIComponent(config.apiId) + "/content?" + query, { credentials: "omit" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (text) { Module._svc_apply_content(batchId, Module.allocateUTF8(text)); },
            function (error) {
              Module._svc_fail_batch(batchId, Module.allocateUTF8("content request failed (" + (error && error.message) + "); widgets hidden"));
            });
  };

  // One listener for every widget: clicks on the SDK's own controls go to C++, which
  // decides; the default (following a link) is prevented only when C++ handled it.
  document.addEventListener("click", function (event) {
    var control = event.target && event.target.closest && event.target.closest("[data-svc-action]");
    var widget = control && control.closest("[data-svc-key]");
    if (!widget) return;
    var position = control.closest("[data-svc-pos]");
    var plain = event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
    if (Module._svc_action(+widget.getAttribute("data-svc-key"), Module.allocateUTF8(control.getAttribute("data-svc-action")),
                           position ? +position.getAttribute("data-svc-pos") : -1, +(control.getAttribute("data-svc-alt") || 0),
                           plain ? 1 : 0)) {
      event.preventDefault();
    }
  });

  // Views: IntersectionObserver reports, C++ applies the rule (half the widget visible,
  // or half the viewport covered by it). Without the observer there are no view events.
  var observer = typeof IntersectionObserver === "function" && new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      var root = entry.rootBounds;
      var screen = root ? root.width * root.height : 0;
      var shown = entry.isIntersecting ? entry.intersectionRatio : 0;
      var covered = entry.isIntersecting && screen > 0 ? entry.intersectionRect.width * entry.intersectionRect.height / screen : 0;
      if (Module._svc_visibility(+entry.target.getAttribute("data-svc-key"), shown, covered)) observer.unobserve(entry.target);
    });
  }, { threshold: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1] });
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
  function flushEvents() { Module._svc_flush_events(); }
  window.addEventListener("pagehide", flushEvents);
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "hidden") flushEvents(); });

  var api = {
    initCSE: function () { Module._svc_scan(); },
    updateWidgetSku: function (widgetId, sku) {
      Module._svc_update_widget_sku(Module.allocateUTF8(String(widgetId)), Module.allocateUTF8(String(sku)));
    }
  };
  // svclytics: the snippet's queue function is replaced by the real one; queued calls run
  // once, in order. C++ checks the payload (as JSON) and builds the body.
  var analyticsQueue = (window.svclytics && window.svclytics.q) || [];
  window.svclytics = function (eventName, payload) {
    var json;
    try { json = JSON.stringify(payload); } catch (ignored) {}  // a cyclic object: reported as not an object
    Module._svc_svclytics(Module.allocateUTF8(String(eventName)), Module.allocateUTF8(json === undefined ? "null" : json));
  };
  for (var a = 0; a < analyticsQueue.length; a++) window.svclytics.apply(null, analyticsQueue[a]);

  var queued = svc.q || [];
  svc.initCSE = api.initCSE;
  svc.updateWidgetSku = api.updateWidgetSku;
  whenDomReady(function () {
    api.initCSE();
    // Calls made before the SDK arrived run now, exactly once.
    svc.q = [];
    for (var i = 0; i < queued.length; i++) {
      var call = queued[i];
      if (api[call[0]]) api[call[0]].apply(null, call[1]);
    }
    svc.loaded = true;
  });
}, function () {
  whenDomReady(hideAllWidgets);
  warnOnce("the SDK could not start; widgets are hidden");
});
