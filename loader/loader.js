/* svc loader for one shop (served at {sdk_url}/<api_id>/loader.js). Tiny on purpose:
   it queues _svc calls, then loads the Wasm SDK once. Loading it twice is harmless. */
(function (w, d) {
  var svc = w._svc = w._svc || {};
  if (svc.config) return;
  // sdk: the SDK's versioned folder (docs/adr/0077); consent: the tenant's default (docs/adr/0083).
  svc.config = { apiId: __SVC_API_ID__, base: __SVC_BASE_URL__, sdk: __SVC_SDK_URL__, consent: __SVC_CONSENT__ };
  var queue = svc.q = svc.q || [];
  ["initCSE", "updateWidgetSku", "demo", "consent"].forEach(function (name) {
    if (!svc[name]) svc[name] = function () { queue.push([name, arguments]); };
  });
  function hideWidgets() {
    var widgets = d.querySelectorAll("div[data-svc-widget-id]:not([data-svc-state])");
    for (var i = 0; i < widgets.length; i++) {
      widgets[i].setAttribute("data-svc-state", "failed");
      (widgets[i].closest(".-svc-widget-container") || widgets[i]).style.setProperty("display", "none", "important");
    }
  }
  var style = d.createElement("link");
  style.rel = "stylesheet";
  // The base styles plus the tenant's own CSS (docs/adr/0029): a stylesheet, so a strict CSP needs no inline style.
  style.href = svc.config.base + "/" + encodeURIComponent(svc.config.apiId) + "/widgets.css";
  var script = d.createElement("script");
  script.async = true;
  script.src = svc.config.sdk + "/sdk.js";
  script.onerror = function () {
    if (d.readyState === "loading") d.addEventListener("DOMContentLoaded", hideWidgets);
    else hideWidgets();
    try { console.warn("[svc] the SDK could not be loaded; widgets are hidden"); } catch (e) {}
  };
  var head = d.head || d.getElementsByTagName("head")[0];
  head.appendChild(style);
  head.appendChild(script);
})(window, document);
