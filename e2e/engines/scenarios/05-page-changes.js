// Pages that change: updateWidgetSku and initCSE, a single-page app changing routes with
// history.pushState, and widgets added after the SDK loaded.
"use strict";
const assert = require("node:assert/strict");

const skusOf = (selector) => [...document.querySelectorAll(selector + " li.svc-card")].map((card) => card.getAttribute("data-svc-sku")).join(",");

module.exports = [
  {
    name: "updateWidgetSku re-renders for the new SKU; initCSE and a late widget render once each",
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/product.html", { sku: ctx.firstSku }));
      await s.settled();
      const before = await s.eval(skusOf, "#similar-widget");
      const other = await s.eval(() => document.querySelector("#set-widget li.svc-card").getAttribute("data-svc-sku"));
      await s.eval((sku) => window._svc.updateWidgetSku("SIMILAR", sku), other);
      await s.waitFor((selector, old) => {
        const widget = document.querySelector(selector);
        const now = [...widget.querySelectorAll("li.svc-card")].map((card) => card.getAttribute("data-svc-sku")).join(",");
        return widget.getAttribute("data-svc-state") === "rendered" && now && now !== old;
      }, ["#similar-widget", before], { what: "SIMILAR for the new SKU" });
      assert.equal(await s.eval(() => document.getElementById("similar-widget").getAttribute("data-sku")), other);
      // A widget the shop adds later, then initCSE as the guide allows: rendered once.
      await s.eval((sku) => {
        const late = document.createElement("div");
        late.id = "late-widget";
        late.setAttribute("data-svc-widget-id", "SIMILAR");
        late.setAttribute("data-touchpoint", "product");
        late.setAttribute("data-sku", sku);
        document.querySelector("main").append(late);
        window._svc.initCSE();
      }, ctx.firstSku);
      await s.waitFor(() => document.getElementById("late-widget").getAttribute("data-svc-state") === "rendered");
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(await s.eval(() => document.querySelectorAll("#late-widget > section").length), 1);
      assert.equal(await s.eval(() => document.querySelectorAll("#similar-widget > section").length), 1);
      assert.deepEqual(await s.problems(), []);
    },
  },
  {
    name: "a single-page app: a route change with pushState re-renders the widgets for the new product",
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/spa.html", { sku: ctx.firstSku }));
      await s.settled();
      const widget = await s.eval(() => document.querySelector("div[data-svc-widget-id=SIMILAR]").id);
      const before = await s.eval(skusOf, "#" + widget);
      const target = await s.eval(() => {
        const links = [...document.querySelectorAll("[data-spa-variant]:not([aria-current])")];
        return links.length ? new URL(links[0].href).searchParams.get("sku") : null;
      });
      assert.ok(target, "the product has another colour to go to");
      await s.click("[data-spa-variant]:not([aria-current])", 0);
      await s.waitFor((sku) => new URLSearchParams(location.search).get("sku") === sku, [target], { what: "the route change" });
      await s.waitFor((selector, old) => {
        const element = document.querySelector(selector);
        const now = [...element.querySelectorAll("li.svc-card")].map((card) => card.getAttribute("data-svc-sku")).join(",");
        return element.getAttribute("data-svc-state") === "rendered" && now && now !== old;
      }, ["#" + widget, before], { what: "the widget for the new route" });
      assert.equal(await s.eval(() => performance.getEntriesByType("navigation").length), 1);  // no page load
      assert.deepEqual(await s.problems(), []);
    },
  },
];
