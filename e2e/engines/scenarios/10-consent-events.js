// The shop's events (docs/adr/0082) and consent (docs/adr/0083) in every engine: svc:rendered,
// svc:hidden with its reason and svc:add-to-cart with the shop's rejection reach a listener on the
// document; under pending consent nothing is written (cookie, localStorage, sessionStorage) while
// the widget renders, and granting writes the cookie then. Each consent scenario runs on a host of
// its own (*.localhost is this machine in every engine), so no earlier scenario's cookie is there.
"use strict";
const assert = require("node:assert/strict");

const written = () => ({ cookie: document.cookie, local: localStorage.length, session: sessionStorage.length });

module.exports = [
  {
    name: "events: svc:rendered, svc:hidden (empty) and svc:add-to-cart (rejected, with the reason) bubble to the document",
    async run(s, ctx) {
      await s.go(ctx.shop("/pages/similar.html", { sku: ctx.firstSku, plugin: "reject" }));
      assert.equal(await s.settled(), "similar-widget=rendered");
      await s.click("#similar-widget .svc-card__cart", 0);
      const events = await s.waitFor(() => window.__svcTest.svcEvents.length === 2 && window.__svcTest.svcEvents);
      assert.equal(events[0].type, "svc:rendered");
      assert.equal(events[0].target, "similar-widget");
      assert.equal(events[0].bubbles, true);
      assert.deepEqual({ ...events[0].detail, products: events[0].detail.products.length > 0 },
                       { widgetId: "SIMILAR", touchpoint: "product", sku: ctx.firstSku, products: true });
      assert.deepEqual({ ...events[1], detail: { ...events[1].detail, product: undefined } }, {
        type: "svc:add-to-cart", target: "similar-widget", bubbles: true,
        detail: { widgetId: "SIMILAR", touchpoint: "product", sku: ctx.firstSku, product: undefined, status: "rejected", reason: "out of stock" },
      });
      assert.equal(events[1].detail.product, events[0].detail.products[0]);

      await s.go(ctx.shop("/pages/similar.html", { sku: "NO-SUCH-SKU" }));
      assert.equal(await s.settled(), "similar-widget=empty");
      const hidden = await s.waitFor(() => window.__svcTest.svcEvents.length === 1 && window.__svcTest.svcEvents[0]);
      assert.deepEqual(hidden, { type: "svc:hidden", target: "similar-widget", bubbles: true,
        detail: { widgetId: "SIMILAR", touchpoint: "product", sku: "NO-SUCH-SKU", reason: "empty", message: "svc has no content for this widget" } });
    },
  },
  {
    name: "consent pending: the widget renders and nothing is written; granting writes the cookie then",
    async run(s, ctx) {
      const port = new URL(ctx.shopOrigin).port;
      await s.go(`http://consent-${Date.now()}.localhost:${port}/pages/similar.html?sku=${ctx.firstSku}&consent=pending`);
      assert.equal(await s.settled(), "similar-widget=rendered");
      assert.deepEqual(await s.eval(written), { cookie: "", local: 0, session: 0 });
      assert.equal(await s.cookie("_svc_cid"), undefined);
      await s.eval(() => window._svc.consent("granted"));
      const now = await s.eval(written);
      assert.match(now.cookie, /^_svc_cid=[0-9a-f]{32}$/);
      assert.deepEqual([now.local, now.session], [1, 1]);
      // The page's own view (document.cookie): Firefox's BiDi cookie list does not show a cookie of a
      // *.localhost host with a port to page.cookies(); the browser-level check is the Chromium spec's.
      assert.deepEqual(await s.problems(), []);
    },
  },
  {
    name: "consent denied: what svc wrote before is removed, the widget renders",
    async run(s, ctx) {
      const host = `http://consent-${Date.now()}.localhost:${new URL(ctx.shopOrigin).port}`;
      await s.go(`${host}/pages/similar.html?sku=${ctx.firstSku}`);
      assert.equal(await s.settled(), "similar-widget=rendered");
      assert.match((await s.eval(written)).cookie, /_svc_cid=/);
      await s.go(`${host}/pages/similar.html?sku=${ctx.firstSku}&consent=denied`);
      assert.equal(await s.settled(), "similar-widget=rendered");
      assert.deepEqual(await s.eval(written), { cookie: "", local: 0, session: 0 });
      assert.equal(await s.cookie("_svc_cid"), undefined);
    },
  },
];
