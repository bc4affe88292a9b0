// Add to cart through the shop's _svc_shop_plugin with the Promise the SDK hands in, its
// resolve and reject paths, and navigateTo taking over a card's link.
"use strict";
const assert = require("node:assert/strict");

const statusOf = (index) => document.querySelectorAll("#similar-widget .svc-card__status")[index].textContent;

module.exports = [
  {
    name: "add to cart: the shop's promise resolves, the card says so",
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/product.html", { sku: ctx.firstSku, plugin: "resolve" }));
      await s.settled();
      const sku = await s.eval(() => document.querySelectorAll("#similar-widget li.svc-card")[1].getAttribute("data-svc-sku"));
      await s.click("#similar-widget .svc-card__cart", 1);
      assert.equal(await s.waitFor(statusOf, [1]), "Added to cart");
      assert.deepEqual(await s.eval(() => window.__svcTest.cart), [{ sku, quantity: 1, typeofSku: "string", injected: true }]);
      assert.deepEqual(await s.problems(), []);
    },
  },
  {
    name: "add to cart: a rejected or throwing shop cart is told to the shopper, nothing escapes",
    async run(s, ctx) {
      for (const plugin of ["reject", "throw"]) {
        await s.go(ctx.shop("/demo/product.html", { sku: ctx.firstSku, plugin }));
        await s.settled();
        await s.click("#similar-widget .svc-card__cart", 0);
        assert.equal(await s.waitFor(statusOf, [0]), "Could not add to cart. Please try again.", plugin);
        assert.equal(await s.eval(() => window.__svcTest.cart.length), 1, plugin);
        const problems = await s.problems();
        assert.ok(problems.every((problem) => problem.startsWith("warn: [svc]")), `${plugin}: ${problems.join("\n")}`);
      }
    },
  },
  {
    name: "navigateTo: a card's link goes through the shop's router",
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/product.html", { sku: ctx.firstSku, plugin: "resolve" }));
      await s.settled();
      const before = await s.eval(() => location.href);
      const href = await s.eval(() => document.querySelectorAll("#similar-widget a.svc-card__link")[0].getAttribute("href"));
      await s.click("#similar-widget a.svc-card__link", 0);
      await s.waitFor(() => window.__svcTest.navigations.length > 0);
      assert.deepEqual(await s.eval(() => window.__svcTest.navigations), [href]);
      assert.equal(await s.eval(() => location.href), before);
    },
  },
];
