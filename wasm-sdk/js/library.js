// The browser side of wasm-sdk/src/BrowserDom.cpp and HostCalls: the few DOM and host
// operations the C++ core calls, as plain imports. Plain imports instead of embind keep
// the SDK small (docs/adr/0018): embind's JS runtime alone was most of sdk.js.
// Strings arrive as UTF-8 pointers; strings returned to C++ are malloc'ed (C++ frees them).
mergeInto(LibraryManager.library, {
  // Node handles: C++ holds numbers, this table holds the elements.
  $SVC: { nodes: {} },

  svc_dom_select__deps: ["$SVC"],
  svc_dom_select: function (selector, firstId) {
    var list = document.querySelectorAll(UTF8ToString(selector));
    for (var i = 0; i < list.length; i++) SVC.nodes[firstId + i] = list[i];
    return list.length;
  },

  svc_dom_attribute__deps: ["$SVC"],
  svc_dom_attribute: function (node, name) {
    var element = SVC.nodes[node];
    var value = element ? element.getAttribute(UTF8ToString(name)) : null;
    return value === null ? 0 : allocateUTF8(value);
  },

  svc_dom_set_attribute__deps: ["$SVC"],
  svc_dom_set_attribute: function (node, name, value) {
    var element = SVC.nodes[node];
    if (!element) return;
    if (value) element.setAttribute(UTF8ToString(name), UTF8ToString(value));
    else element.removeAttribute(UTF8ToString(name));
  },

  svc_dom_set_content__deps: ["$SVC"],
  svc_dom_set_content: function (node, html) {
    if (SVC.nodes[node]) SVC.nodes[node].innerHTML = UTF8ToString(html);
  },

  // Hides or shows the enclosing .-svc-widget-container, or the element when it has none, with
  // svc's own marker: svc.css hides [data-svc-hidden] (!important, so that the shop's CSS cannot
  // show an empty widget). The shop's own hiding (hidden, its styles) is never touched, so
  // showing a widget never shows a container the shop hid (an A/B control group).
  svc_dom_set_visible__deps: ["$SVC"],
  svc_dom_set_visible: function (node, visible) {
    var element = SVC.nodes[node];
    if (!element) return;
    var target = element.closest(".-svc-widget-container") || element;
    if (visible) target.removeAttribute("data-svc-hidden");
    else target.setAttribute("data-svc-hidden", "");
  },

  // Whether anything of the widget is displayed: not when the shop hid it or an ancestor.
  svc_dom_displayed__deps: ["$SVC"],
  svc_dom_displayed: function (node) {
    var element = SVC.nodes[node];
    if (!element) return 0;
    if (element.checkVisibility) return element.checkVisibility({ opacityProperty: true, visibilityProperty: true }) ? 1 : 0;
    return element.getClientRects().length && getComputedStyle(element).visibility === "visible" ? 1 : 0;
  },

  svc_dom_release__deps: ["$SVC"],
  svc_dom_release: function (node) { delete SVC.nodes[node]; },

  svc_dom_same__deps: ["$SVC"],
  svc_dom_same: function (a, b) { return SVC.nodes[a] !== undefined && SVC.nodes[a] === SVC.nodes[b] ? 1 : 0; },

  svc_dom_connected__deps: ["$SVC"],
  svc_dom_connected: function (node) { return SVC.nodes[node] && SVC.nodes[node].isConnected ? 1 : 0; },

  svc_warn: function (message) {
    try { console.warn(UTF8ToString(message)); } catch (ignored) {}
  },

  svc_dom_part__deps: ["$SVC"],
  svc_dom_part: function (node, part, name, value) {
    var element = SVC.nodes[node];
    var target = element && element.querySelector('[data-svc-part="' + UTF8ToString(part) + '"]');
    if (!target) return;
    if (!name) target.innerHTML = UTF8ToString(value);
    else if (value) target.setAttribute(UTF8ToString(name), UTF8ToString(value));
    else target.removeAttribute(UTF8ToString(name));
  },

  svc_dom_scroll_part__deps: ["$SVC"],
  svc_dom_scroll_part: function (node, part, direction) {
    var element = SVC.nodes[node];
    var target = element && element.querySelector('[data-svc-part="' + UTF8ToString(part) + '"]');
    if (!target) return;
    var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    target.scrollBy({ left: direction * Math.max(1, target.clientWidth * 0.8), behavior: still ? "auto" : "smooth" });
  },

  // The shop's plugin is the shop's code: any access may throw, and nothing it does may
  // break the SDK.
  svc_shop_can_add_to_cart: function () {
    try {
      var plugin = window._svc_shop_plugin;
      return plugin && typeof plugin.addToCart === "function" ? 1 : 0;
    } catch (ignored) { return 0; }
  },

  // The shop's events (docs/adr/0082): the element is taken now (C++ may release its handle next),
  // the event is dispatched in a microtask, after the SDK's current work, so that a listener
  // calling _svc does not re-enter the core; order is kept. A listener's throw is the page's own
  // error (dispatchEvent reports it, it never reaches the SDK).
  $SVC_EVENTS: [],
  svc_dom_dispatch__deps: ["$SVC", "$SVC_EVENTS"],
  svc_dom_dispatch: function (node, type, detail) {
    var element = SVC.nodes[node];
    if (!element || typeof CustomEvent !== "function") return;
    SVC_EVENTS.push([element, UTF8ToString(type), UTF8ToString(detail)]);
    if (SVC_EVENTS.length > 1) return;
    Promise.resolve().then(function () {
      var events = SVC_EVENTS.splice(0, SVC_EVENTS.length);
      for (var i = 0; i < events.length; i++) {
        try {
          events[i][0].dispatchEvent(new CustomEvent(events[i][1], { bubbles: true, detail: JSON.parse(events[i][2]) }));
        } catch (ignored) {}
      }
    });
  },

  svc_shop_add_to_cart: function (requestId, sku) {
    var skuText = UTF8ToString(sku);
    // The executor turns a throw into a rejection, and the answer always comes later,
    // never inside this call: C++ is not re-entered while it runs. An answer that is no
    // promise says nothing about the cart: outcome 2, not "added".
    var promised = true;
    new Promise(function (resolve) {
      var answer = window._svc_shop_plugin.addToCart(skuText, 1, Promise);
      promised = answer !== null && (typeof answer === "object" || typeof answer === "function") && typeof answer.then === "function";
      resolve(answer);
    }).then(function () { Module["_svc_cart_result"](requestId, promised ? 1 : 2, 0); },
            function (error) {
              // The rejection's message for svc:add-to-cart; whatever the shop rejected with.
              var reason = "";
              try { reason = String(error && error.message !== undefined ? error.message : error).slice(0, 200); } catch (ignored) {}
              Module["_svc_cart_result"](requestId, 0, allocateUTF8(reason));
            });
  },

  // A deferred shop bundle defines the plugin later: look for addToCart a few times a second
  // for a minute, then give up (a page without one keeps no timer running).
  svc_shop_watch_plugin__deps: ["svc_shop_can_add_to_cart"],
  svc_shop_watch_plugin: function () {
    var tries = 240;
    var timer = setInterval(function () {
      var ready = _svc_shop_can_add_to_cart();
      if (!ready && --tries > 0) return;
      clearInterval(timer);
      if (ready) Module["_svc_shop_plugin_ready"]();
    }, 250);
  },

  svc_shop_navigate_to: function (url) {
    try {
      var plugin = window._svc_shop_plugin;
      if (!plugin || typeof plugin.navigateTo !== "function") return 0;
      var target = new URL(UTF8ToString(url), location.href);
      // A path for the shop's router when the product is on this origin, else the full URL.
      plugin.navigateTo(target.origin === location.origin ? target.pathname + target.search + target.hash : target.href);
      return 1;
    } catch (ignored) { return 0; }
  },

  // Storage: private modes and privacy settings make these getters throw; absent then.
  svc_document_cookie: function () {
    try { return allocateUTF8(String(document.cookie)); } catch (ignored) { return 0; }
  },
  svc_set_document_cookie: function (assignment) {
    try { document.cookie = UTF8ToString(assignment); } catch (ignored) {}
  },
  svc_storage_get: function (session, key) {
    try {
      var value = (session ? window.sessionStorage : window.localStorage).getItem(UTF8ToString(key));
      return value === null ? 0 : allocateUTF8(value);
    } catch (ignored) { return 0; }
  },
  svc_storage_remove: function (session, key) {
    try { (session ? window.sessionStorage : window.localStorage).removeItem(UTF8ToString(key)); } catch (ignored) {}
  },
  svc_storage_set: function (session, key, value) {
    try {
      (session ? window.sessionStorage : window.localStorage).setItem(UTF8ToString(key), UTF8ToString(value));
      return 1;
    } catch (ignored) { return 0; }
  },
  svc_random_bytes: function (out, count) {
    var bytes = new Uint8Array(count);
    try { crypto.getRandomValues(bytes); } catch (ignored) {
      for (var i = 0; i < count; i++) bytes[i] = Math.random() * 256;
    }
    HEAPU8.set(bytes, out);
  },
  svc_location: function (part) { return allocateUTF8(part ? location.protocol : location.hostname); },

  svc_shop_test_group: function () {
    try {
      var group = window._svc_shop_plugin && window._svc_shop_plugin.testgroup;
      return typeof group === "string" ? allocateUTF8(group) : 0;
    } catch (ignored) { return 0; }
  },

  // Observing and sending need the event loop: js/api.js does both.
  svc_observe_visibility__deps: ["$SVC"],
  svc_observe_visibility: function (node, widgetKey) {
    if (SVC.nodes[node]) Module["svcObserve"](SVC.nodes[node], widgetKey);
  },
  svc_host_send_events: function (body) { Module["svcSendEvents"](UTF8ToString(body)); },

  // The content request is I/O: js/api.js performs it and answers through _svc_apply_content.
  svc_host_fetch: function (batchId, query) { Module["svcFetch"](batchId, UTF8ToString(query)); }
});
