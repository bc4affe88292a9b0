// Every widget type and touchpoint renders from the real server; what svc cannot fill
// hides its container; an unreachable svc hides every widget without an error in the page.
"use strict";
const assert = require("node:assert/strict");

async function lookSku(ctx) {
  const answer = await (await fetch(ctx.svcBase + "/graphql", {
    method: "POST", headers: { "content-type": "application/json", "x-api-id": ctx.apiId },
    body: JSON.stringify({ query: '{ customSet(id: "demo-look-city") { products { id } } }' }),
  })).json();
  return answer.data.customSet.products[0].id;
}

// What a rendered widget shows, card by card.
function cardsOf(selector) {
  return [...document.querySelectorAll(selector + " li.svc-card")].map((card) => {
    const image = card.querySelector("img.svc-card__image");
    return {
      sku: card.getAttribute("data-svc-sku"),
      name: (card.querySelector(".svc-card__name") || {}).textContent || "",
      price: (card.querySelector(".svc-card__selling") || {}).textContent || "",
      href: (card.querySelector("a.svc-card__link") || {}).href || "",
      reserved: image ? image.getAttribute("width") + "x" + image.getAttribute("height") : "none",
      shown: card.getBoundingClientRect().height > 100,
    };
  });
}

function assertCards(cards, what) {
  assert.ok(cards.length > 1, `${what}: ${cards.length} cards`);
  for (const card of cards) {
    assert.ok(card.sku && card.name.trim() && /\d,\d\d/.test(card.price), `${what}: ${JSON.stringify(card)}`);
    assert.match(card.href, /^http:\/\/localhost:\d+\/demo\/product\.html\?sku=/, what);
    assert.equal(card.reserved, "240x320", what);
    assert.ok(card.shown, `${what}: ${card.sku} has no height`);
  }
}

module.exports = [
  {
    name: "SET and SIMILAR render product cards on the product page",
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/product.html", { sku: ctx.firstSku }));
      assert.equal(await s.settled(), "set-widget=rendered similar-widget=rendered");
      assertCards(await s.eval(cardsOf, "#similar-widget"), "SIMILAR");
      assertCards(await s.eval(cardsOf, "#set-widget"), "SET");
      assert.deepEqual(await s.problems(), []);
    },
  },
  {
    name: "every touchpoint renders: category, search, content (SET-Custom by set id and by SKU), cart, cart layer",
    async run(s, ctx) {
      const pages = [
        { file: "/demo/category.html", params: {} },
        { file: "/demo/search.html", params: { q: "jeans" } },
        { file: "/demo/content.html", params: { sku: await lookSku(ctx) }, expect: /story-set-widget=rendered.*story-sku-widget=rendered/ },
        { file: "/demo/cart.html", params: {}, cart: true },
      ];
      for (const page of pages) {
        if (page.cart) await s.eval((sku) => sessionStorage.setItem("demo-cart", JSON.stringify({ [sku]: 1 })), ctx.firstSku);
        await s.go(ctx.shop(page.file, page.params));
        const states = await s.settled();
        assert.doesNotMatch(states, /=(failed|invalid|empty)/, `${page.file}: ${states}`);
        if (page.expect) assert.match(states, page.expect);
        const touchpoints = await s.eval(() => [...document.querySelectorAll("div[data-svc-state=rendered] li.svc-card")].length);
        assert.ok(touchpoints > 1, `${page.file}: ${touchpoints} cards`);
      }
      // The cart layer: the shop opens a dialog after its own add to cart, with a SET for it.
      await s.go(ctx.shop("/demo/cart-layer.html", { sku: ctx.firstSku }));
      await s.waitFor(() => window._svc && window._svc.loaded);
      await s.click("#add-to-cart");
      await s.waitFor(() => {
        const widget = document.getElementById("layer-set-widget");
        return widget && widget.getAttribute("data-svc-state") === "rendered" && widget.querySelectorAll("li.svc-card").length > 1;
      }, [], { what: "the cart layer's SET" });
      assert.deepEqual(await s.problems(), []);
    },
  },
  {
    name: "SET-Compose renders the demo look in demo mode",
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/demo.html", { "svc-demo": "true" }));
      const states = await s.settled();
      assert.match(states, /=rendered/);
      const compose = await s.eval(() => document.querySelectorAll("[data-svc-widget-id='SET-Compose'] li.svc-card").length);
      assert.ok(compose > 1, `${compose} SET-Compose cards`);
    },
  },
  {
    name: "empty and invalid widgets and an unknown SKU hide their container; the good one renders",
    async run(s, ctx) {
      await s.go(ctx.shop("/pages/broken-widgets.html", { sku: ctx.firstSku }));
      await s.settled();
      const shown = await s.eval(() => [...document.querySelectorAll(".-svc-widget-container")].map((container) =>
        container.id + ":" + (container.getBoundingClientRect().height > 0 ? "shown" : "hidden")));
      assert.deepEqual(shown, ["unknown-sku-container:hidden", "no-sku-container:hidden", "bad-type-container:hidden",
                               "bad-touchpoint-container:hidden", "good-container:shown"]);
      const problems = await s.problems();
      assert.ok(problems.every((problem) => problem.startsWith("warn: [svc]")), problems.join("\n"));
    },
  },
  {
    // Hiding the containers' headlines when the loader itself cannot load is the snippet's work
    // (issue 20, point 6, done on another branch): this asserts what holds in every engine today.
    name: "svc unreachable: the shop's page works, its widget containers hidden, no error reaches the page",
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/product.html", { sku: ctx.firstSku, svc: "down" }));
      await s.waitFor(() => document.getElementById("product-name").textContent !== "\u2026", [], { what: "the shop's own rendering" });
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(await s.eval(() => document.querySelectorAll(".svc-card, [data-svc-state=rendered]").length), 0);
      // The snippet hides every container when the loader cannot load: no headline above nothing (issue 20, point 6).
      await s.waitFor(() => [...document.querySelectorAll("div[data-svc-widget-id]")].every((widget) =>
        getComputedStyle(widget.closest(".-svc-widget-container") || widget).display === "none"), [], { what: "every widget container hidden" });
      const problems = await s.problems();
      assert.ok(problems.every((problem) => problem.startsWith("warn: [svc]")), problems.join("\n"));
      assert.equal(await s.eval(() => document.getElementById("product-name").textContent.length > 3), true);
    },
  },
];
