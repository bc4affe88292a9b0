// The svc snippet as a file of the shop's own (a strict CSP allows no inline script): the
// same code as the inline snippet, with the SDK URL and API ID from its script tag.
(function (w, d, script) {
  var u = script.getAttribute("data-svc-sdk-url"), id = script.getAttribute("data-svc-api-id");
  w.svclytics = w.svclytics || function () { (w.svclytics.q = w.svclytics.q || []).push(arguments); };
  if (d.querySelector("script[data-svc-loader]")) return;
  // svc down or blocked: the widgets svc has not taken up are hidden with their containers, so
  // no headline stands above nothing. CSSOM, not a style attribute: allowed under a strict CSP.
  function hideWidgets() {
    if (d.readyState == "loading") return d.addEventListener("DOMContentLoaded", hideWidgets);
    [].forEach.call(d.querySelectorAll("div[data-svc-widget-id]:not([data-svc-state])"), function (e) {
      e.setAttribute("data-svc-state", "failed");
      (e.closest(".-svc-widget-container") || e).style.setProperty("display", "none", "important");
    });
  }
  var s = d.createElement("script");
  s.async = true;
  s.src = u + "/" + id + "/loader.js";
  s.setAttribute("data-svc-loader", "");
  s.onerror = hideWidgets;
  setTimeout(hideWidgets, 5000);
  d.head.insertBefore(s, d.head.firstChild);
})(window, document, document.currentScript);
