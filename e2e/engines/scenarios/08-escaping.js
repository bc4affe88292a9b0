// Hostile feed values stay text: markup in names and brands makes no element and runs no
// script; a javascript: deeplink is no link target.
"use strict";
const assert = require("node:assert/strict");

module.exports = [
  {
    name: "hostile feed values are escaped: no element made of them, no script run, no javascript: link",
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/product.html", { sku: ctx.hostile.firstSku, tenant: ctx.hostile.apiId }));
      assert.equal(await s.settled(), "set-widget=rendered similar-widget=rendered");
      await new Promise((resolve) => setTimeout(resolve, 300));
      const found = await s.eval(() => {
        const widgets = [...document.querySelectorAll("div[data-svc-widget-id]")];
        const inside = (selector) => widgets.reduce((count, widget) => count + widget.querySelectorAll(selector).length, 0);
        const texts = widgets.map((widget) => widget.textContent).join(" ");
        return {
          xss: window.__xss || 0,
          madeElements: inside("script, svg, img[src='x'], [onerror], [onload]"),
          scriptLinks: inside("a[href^='javascript:' i]"),
          markupAsText: texts.includes("<img src=x") || texts.includes("<svg onload"),
        };
      });
      assert.deepEqual(found, { xss: 0, madeElements: 0, scriptLinks: 0, markupAsText: true });
    },
  },
];
