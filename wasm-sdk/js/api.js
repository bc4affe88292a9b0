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
  var core = new Module.Sdk();

  function fetchContent(batch) {
    if (!batch.id) return;
    // A simple GET without custom headers: no CORS preflight, cacheable.
    fetch(config.base + "/" + encodeURIComponent(config.apiId) + "/content?" + batch.query, { credentials: "omit" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (text) { core._applyContent(batch.id, text); },
            function (error) { core._failBatch(batch.id, "content request failed (" + (error && error.message) + "); widgets hidden"); });
  }

  var api = {
    initCSE: function () { fetchContent(core._scan()); },
    updateWidgetSku: function (widgetId, sku) { fetchContent(core._updateWidgetSku(String(widgetId), String(sku))); }
  };
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
