// The shop's own web server, on another origin than svc (as on a real shop): the demo shop's
// pages (web-demo/) and the suite's pages (engines/pages/) with the snippet naming svc, the
// shop's catalog and images from the data dir. Every HTML page gets, first in its <head> and so
// before the snippet and any Content-Security-Policy <meta>, the suite's capture script: console
// warnings and errors, uncaught errors, CSP violations and the SDK's beacons are recorded in
// the page (WebKitWebDriver has no log endpoint; one way for every engine), and the widgets' svc:*
// events. `?plugin=` picks the shop's _svc_shop_plugin a scenario needs; `?consent=` sets
// window._svc_config.consent; `?svc=down` names an svc that does not answer.
"use strict";
const fs = require("node:fs");
const http = require("node:http");
const path = require("node:path");

const repoRoot = path.resolve(__dirname, "..", "..");
const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".json": "application/json",
                ".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg" };

// Runs in the page before anything else.
function capture() {
  var test = window.__svcTest = { problems: [], beacons: [], cart: [], navigations: [] };
  ["error", "warn"].forEach(function (level) {
    var real = console[level];
    console[level] = function () {
      test.problems.push(level + ": " + Array.prototype.join.call(arguments, " "));
      return real.apply(console, arguments);
    };
  });
  addEventListener("error", function (event) { test.problems.push("uncaught: " + event.message); });
  addEventListener("unhandledrejection", function (event) {
    test.problems.push("unhandled rejection: " + (event.reason && event.reason.message || event.reason));
  });
  document.addEventListener("securitypolicyviolation", function (event) {
    test.problems.push("csp: " + event.violatedDirective + " " + event.blockedURI);
  });
  // The widgets' events (docs/adr/0082), as a shop's listener on the document hears them.
  test.svcEvents = [];
  ["svc:rendered", "svc:hidden", "svc:add-to-cart"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      test.svcEvents.push({ type: event.type, target: event.target.id, bubbles: event.bubbles, detail: event.detail });
    });
  });
  // A spy, not a stand-in: the real beacon still leaves.
  if (navigator.sendBeacon) {
    var beacon = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = function (url, body) {
      var sent = beacon(url, body);
      test.beacons.push({ url: String(url), body: String(body), sent: sent, how: "beacon" });
      return sent;
    };
  }
}

// The shop's plugin as a scenario needs it; each records what the SDK asked of it.
function plugin(kind, testgroup) {
  var test = window.__svcTest;
  var shop = window._svc_shop_plugin = { testgroup: testgroup || "A" };
  if (kind === "none") return;
  shop.addToCart = function (sku, quantity, InjectedPromise) {
    test.cart.push({ sku: sku, quantity: quantity, typeofSku: typeof sku, injected: typeof InjectedPromise === "function" && InjectedPromise === window.Promise });
    if (kind === "throw") throw new Error("the shop's cart is broken");
    if (kind === "reject") return InjectedPromise.reject(new Error("out of stock"));
    return InjectedPromise.resolve({ ok: true });
  };
  shop.navigateTo = function (url) { test.navigations.push(url); };
}

class ShopServer {
  // `firstInHead`: a script of the caller's, run in every page right after the capture script
  // (bench/sdk-speed.js observes layout shifts and long tasks from the start).
  constructor({ svcBase, apiId, dataDir, deadBase, firstInHead = "" }) {
    Object.assign(this, { svcBase, apiId, dataDir, deadBase, firstInHead });
  }

  fileFor(pathname) {
    const inside = (root, relative) => {
      const file = path.resolve(root, "." + relative);
      return file.startsWith(root + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile() ? file : null;
    };
    if (pathname === "/__phone.html") return path.join(__dirname, "pages", "phone-frame.html");
    if (pathname.startsWith("/pages/")) return inside(path.join(__dirname, "pages"), pathname.slice("/pages".length));
    if (pathname.startsWith("/demo/")) {
      const relative = pathname.slice("/demo".length).replace(/\/$/, "/index.html");
      return inside(path.join(repoRoot, "web-demo"), relative) || inside(path.join(this.dataDir, "demo"), relative);
    }
    return null;
  }

  handle(request, response) {
    const url = new URL(request.url, "http://shop");
    const file = this.fileFor(url.pathname);
    if (!file) {
      response.writeHead(404, { "content-type": "text/plain" });
      response.end("not found");
      return;
    }
    const type = TYPES[path.extname(file)] || "application/octet-stream";
    let body = fs.readFileSync(file);
    if (/^text\/(html|javascript)/.test(type)) {
      const svc = url.searchParams.get("svc") === "down" ? this.deadBase : this.svcBase;
      const apiId = url.searchParams.get("tenant") || this.apiId;
      let text = body.toString("utf8");
      // The demo's strict policy names only svc because svc serves the demo itself; a shop on its
      // own origin also allows its own files ('self'), as every real shop's policy does.
      if (type.startsWith("text/html")) text = text.replace(/(-src) __SVC_SDK_URL__/g, "$1 'self' __SVC_SDK_URL__");
      text = text.split("__SVC_SDK_URL__").join(svc).split("__SVC_API_ID__").join(apiId);
      if (type.startsWith("text/html")) {
        const setup = [`(${capture})();`, this.firstInHead];
        // `?consent=`: the shop's consent state before the snippet (docs/adr/0083).
        if (url.searchParams.has("consent")) setup.push(`window._svc_config = { consent: ${JSON.stringify(url.searchParams.get("consent"))} };`);
        if (url.searchParams.has("plugin")) {
          setup.push(`(${plugin})(${JSON.stringify(url.searchParams.get("plugin"))}, ${JSON.stringify(url.searchParams.get("testgroup"))});`);
        }
        text = text.replace(/<head>/i, `<head>\n<script>${setup.join("\n")}</script>`);
      }
      body = Buffer.from(text);
    }
    response.writeHead(200, { "content-type": type, "cache-control": "no-store" });
    response.end(body);
  }

  // Listens on every loopback name: the shop is http://localhost:<port>, and the same
  // server as http://127.0.0.1:<port> is another site (the third-party frame scenario).
  async start() {
    this.server = http.createServer((request, response) => this.handle(request, response));
    await new Promise((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.port = this.server.address().port;
    this.origin = `http://localhost:${this.port}`;
    this.otherSite = `http://127.0.0.1:${this.port}`;
  }

  stop() {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(resolve);
    });
  }
}

module.exports = { ShopServer };
