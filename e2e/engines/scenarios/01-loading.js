// The snippet, the loader and the SDK: queued calls before load, one SDK for a double
// snippet, and a strict Content-Security-Policy without 'unsafe-eval'.
"use strict";
const assert = require("node:assert/strict");

module.exports = [
  {
    name: "the snippet queues before load; loader, SDK and Wasm load once for a double snippet",
    async run(s, ctx) {
      await s.go(ctx.shop("/pages/double-snippet.html", { sku: ctx.firstSku }));
      assert.match(await s.settled(), /similar-widget=rendered/);
      const loaded = await s.eval(() => {
        const names = performance.getEntriesByType("resource").map((entry) => new URL(entry.name).pathname);
        return {
          loaders: names.filter((name) => name.endsWith("/loader.js")).length,
          sdks: names.filter((name) => name.endsWith("/sdk.js")).length,
          wasms: names.filter((name) => name.endsWith("/sdk.wasm")).length,
          loaderTags: document.querySelectorAll("script[data-svc-loader]").length,
          // The queue was drained: svclytics is the SDK's function now, not the snippet's stub.
          stubLeft: typeof window.svclytics.q !== "undefined",
          sections: document.querySelectorAll("#similar-widget > section").length,
        };
      });
      assert.deepEqual(loaded, { loaders: 1, sdks: 1, wasms: 1, loaderTags: 1, stubLeft: false, sections: 1 });
      // The queued unknown event was reported once by the SDK as a warning, nothing thrown.
      const problems = await s.problems();
      assert.ok(problems.every((problem) => problem.startsWith("warn: [svc]")), problems.join("\n"));
    },
  },
  {
    name: "under a strict CSP without 'unsafe-eval' the widgets render and nothing is blocked",
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/csp.html", { sku: ctx.firstSku }));
      assert.match(await s.settled(), /similar-widget=rendered/);
      const cards = await s.eval(() => document.querySelectorAll("#similar-widget li.svc-card").length);
      assert.ok(cards > 1, `${cards} cards`);
      assert.deepEqual(await s.problems(), []);
    },
  },
];
