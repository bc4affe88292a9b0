// The svc snippet as a file of the shop's own (a strict CSP allows no inline script): the
// same code as the inline snippet, with the SDK URL and API ID from its script tag.
(function (w, d, script) {
  var u = script.getAttribute("data-svc-sdk-url"), id = script.getAttribute("data-svc-api-id");
  w.svclytics = w.svclytics || function () { (w.svclytics.q = w.svclytics.q || []).push(arguments); };
  if (d.querySelector("script[data-svc-loader]")) return;
  var s = d.createElement("script");
  s.async = true;
  s.src = u + "/" + id + "/loader.js";
  s.setAttribute("data-svc-loader", "");
  d.head.insertBefore(s, d.head.firstChild);
})(window, document, document.currentScript);
