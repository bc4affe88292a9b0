// Browser storage: _svc_cid on the registrable domain (each engine's cap on its lifetime),
// _svc_sid, _svc_cse_config; storage that throws and a third-party frame break nothing.
"use strict";
const assert = require("node:assert/strict");

const DAY = 24 * 60 * 60;
// What each engine keeps of the 730 days the SDK asks for: Chromium caps every cookie at 400
// days; Safari's tracking prevention caps cookies written by script at 7 days, which real
// Safari does and WebKitGTK's MiniBrowser (no ITP by default) does not (docs/integration.md).
const CAP_DAYS = { chromium: 400, firefox: 400, webkit: 730 };

module.exports = [
  {
    name: "storage: a random cid on the shop's site for the engine's longest lifetime, a sid per tab, the engine config",
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/product.html", { sku: ctx.firstSku }));
      await s.settled();
      const cookie = await s.cookie("_svc_cid");
      assert.ok(cookie, "no _svc_cid");
      assert.match(cookie.value, /^[0-9a-f]{32}$/);
      assert.equal(cookie.domain.replace(/^\./, ""), "localhost");
      assert.equal(cookie.path, "/");
      const days = (cookie.expires - Date.now() / 1000) / DAY;
      // Exactly the engine's cap: a change in an engine's policy shows here first.
      assert.ok(Math.abs(days - CAP_DAYS[ctx.engine]) < 1, `${ctx.engine} keeps the cid ${days.toFixed(1)} days`);
      const stored = await s.eval(() => ({ sid: sessionStorage.getItem("_svc_sid"), config: localStorage.getItem("_svc_cse_config"),
                                            script: document.cookie.includes("_svc_cid=") }));
      assert.match(stored.sid, /^[0-9a-f]{32}$/);
      assert.notEqual(stored.sid, cookie.value);
      assert.deepEqual(JSON.parse(stored.config), { variant: "default" });
      assert.equal(stored.script, true);
      // A later page of the same visit keeps both ids.
      await s.go(ctx.shop("/demo/category.html"));
      await s.settled();
      assert.equal((await s.cookie("_svc_cid")).value, cookie.value);
      assert.equal(await s.eval(() => sessionStorage.getItem("_svc_sid")), stored.sid);
    },
  },
  {
    name: "storage: the cid is set on the registrable domain of a shop's subdomain",
    async run(s, ctx) {
      const port = new URL(ctx.shopOrigin).port;
      // *.localhost is this machine in every engine (no resolver rules needed).
      await s.go(`http://www.demo-shop.localhost:${port}/demo/product.html?sku=${ctx.firstSku}`);
      await s.settled();
      const cookie = await s.cookie("_svc_cid");
      assert.ok(cookie, "no _svc_cid");
      assert.equal(cookie.domain, ".demo-shop.localhost");
    },
  },
  {
    name: "storage blocked (every access throws): widgets render, nothing reaches the page's error handlers",
    async run(s, ctx) {
      await s.go(ctx.shop("/pages/storage-blocked.html", { sku: ctx.firstSku }));
      assert.equal(await s.settled(), "similar-widget=rendered");
      assert.deepEqual(await s.problems(), []);
    },
  },
  {
    name: "a sandboxed frame (opaque origin: the engine itself refuses cookies and storage): widgets render, nothing thrown",
    async run(s, ctx) {
      await s.go(ctx.shop("/pages/similar.html", { sku: ctx.firstSku }), { framedBy: `${ctx.otherSite}/pages/sandboxed.html` });
      const blocked = await s.eval(() => {
        try { return typeof localStorage.getItem("x") === "object" && document.cookie === "" && "readable"; } catch (error) { return error.name; }
      });
      assert.equal(blocked, "SecurityError");
      assert.equal(await s.settled(), "similar-widget=rendered");
      assert.deepEqual(await s.problems(), []);
    },
  },
  {
    name: "a third-party frame (the shop framed by another site): widgets render, nothing thrown",
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/product.html", { sku: ctx.firstSku }), { framedBy: `${ctx.otherSite}/pages/third-party.html` });
      assert.equal(await s.settled(), "set-widget=rendered similar-widget=rendered");
      assert.deepEqual(await s.problems(), []);
    },
  },
];
