// Events for attribution: a view only once a widget is visible (IntersectionObserver), clicks
// and add-to-carts with the shop's test group, sent when the page is hidden or left
// (sendBeacon); the purchase on the thank-you page, stored once per order id. Read back from
// the real server's events file.
"use strict";
const assert = require("node:assert/strict");

// The tab goes to the background (what a shopper switching apps does on a phone).
function hideTab(hidden) {
  Object.defineProperty(document, "visibilityState", { value: hidden ? "hidden" : "visible", configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}
const sentEvents = () => window.__svcTest.beacons.flatMap((beacon) => JSON.parse(beacon.body).events || [])
  .map((event) => event.type + ":" + (event.testgroup || event.testGroup || ""));

module.exports = [
  {
    name: "events: a view only once the widget is visible; clicks with the test group; sent as a beacon when hidden",
    async run(s, ctx) {
      await s.go(ctx.shop("/pages/below-fold.html", { sku: ctx.firstSku, plugin: "resolve", testgroup: "T9" }));
      await s.settled();
      await new Promise((resolve) => setTimeout(resolve, 400));
      await s.eval(hideTab, true);
      // Below the fold: nothing seen, so nothing to send.
      assert.deepEqual(await s.eval(sentEvents), []);
      await s.eval(hideTab, false);
      await s.eval(() => document.getElementById("similar-widget").scrollIntoView({ block: "center" }));
      await s.waitFor(seenAsTheSdkSeesIt, ["similar-widget"], { what: "the widget on screen, reported to the SDK's observer" });
      await s.click("#similar-widget a.svc-card__link", 0);
      await s.waitFor(() => window.__svcTest.navigations.length === 1);
      await s.eval(hideTab, true);
      const beacons = await s.eval(() => window.__svcTest.beacons);
      assert.equal(beacons.length, 1);
      assert.equal(beacons[0].sent, true);
      assert.equal(beacons[0].url, `${ctx.svcBase}/events?apiId=${ctx.apiId}`);
      const cid = (await s.cookie("_svc_cid")).value;
      const stored = await waitForStored(ctx, `cid = '${cid}'`, 2);
      assert.deepEqual(stored.map((event) => [event.type, event.widget, event.touchpoint, event.test_group]),
                       [["view", "SIMILAR", "product", "T9"], ["click", "SIMILAR", "product", "T9"]]);
    },
  },
  {
    name: "events: leaving the page (pagehide) sends the add-to-cart",
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/product.html", { sku: ctx.firstSku, plugin: "resolve", testgroup: "B" }));
      await s.settled();
      await s.click("#similar-widget .svc-card__cart", 0);
      await s.waitFor(() => window.__svcTest.cart.length === 1);
      const cid = (await s.cookie("_svc_cid")).value;
      await s.go(ctx.shop("/demo/category.html"));
      const stored = await waitForStored(ctx, `cid = '${cid}' AND type = 'add-to-cart'`, 1);
      assert.equal(stored[0].test_group, "B");
    },
  },
  {
    name: "purchase: reported on the thank-you page, stored once per order id",
    async run(s, ctx) {
      const order = `ORDER-${ctx.engine}-${Date.now()}`;
      await s.go(ctx.shop("/demo/product.html", { sku: ctx.firstSku }));
      await s.settled();
      const cid = (await s.cookie("_svc_cid")).value;
      for (let visit = 0; visit < 2; visit++) {
        await s.eval((sku) => sessionStorage.setItem("demo-cart", JSON.stringify({ [sku]: 2 })), ctx.firstSku);
        await s.go(ctx.shop("/demo/checkout-success.html", { order }));
        await s.waitFor(() => /is confirmed/.test(document.getElementById("order-status").textContent));
        await waitForStored(ctx, `order_id = '${order}'`, 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      const stored = ctx.storedEvents(`order_id = '${order}'`);
      assert.deepEqual(stored.map((event) => [event.type, event.cid]), [["purchase", cid]]);
      assert.deepEqual(await s.problems(), []);
    },
  },
];

// An IntersectionObserver of the test's own on the widget, made after the SDK's: observers are
// told in the order they were made, in one task, so once this one reports the widget half on
// screen (or covering half of it, the SDK's rule), the SDK's observer has counted the view. A
// fixed pause here let a busy machine click and hide the tab before the view was counted.
function seenAsTheSdkSeesIt(id) {
  const seen = window.__svcSeen = window.__svcSeen || {};
  if (!(id in seen)) {
    seen[id] = false;
    new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const root = entry.rootBounds;
        const covered = root && root.width * root.height > 0
          ? entry.intersectionRect.width * entry.intersectionRect.height / (root.width * root.height) : 0;
        if (entry.isIntersecting && (entry.intersectionRatio >= 0.5 || covered >= 0.5)) seen[id] = true;
      }
    }, { threshold: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1] }).observe(document.getElementById(id));
  }
  return seen[id];
}

// Until `count` events are stored: a beacon, the server's event writer and its commit take their
// time on a busy machine; the deadline only ends a wait that would never end.
async function waitForStored(ctx, where, count, deadlineMs = 30_000) {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const stored = ctx.storedEvents(where);
    if (stored.length >= count || Date.now() > until) return stored;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
