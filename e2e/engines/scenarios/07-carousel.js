// The carousel by keyboard, its reduced-motion rule, and axe-core in each engine.
"use strict";
const assert = require("node:assert/strict");
const fs = require("node:fs");

const scrollOf = () => document.querySelector("#similar-widget .svc-widget__list").scrollLeft;
const axeSource = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

module.exports = [
  {
    name: "carousel by keyboard: next and previous scroll the row, Tab walks through the cards",
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/product.html", { sku: ctx.firstSku }));
      await s.settled();
      await s.eval(() => document.querySelector("#similar-widget .svc-widget__next").focus());
      await s.press("Enter");
      const moved = await s.waitFor((at) => { const now = document.querySelector("#similar-widget .svc-widget__list").scrollLeft; return now > 100 && now; }, [],
                                    { what: "the row scrolled by next" });
      // The smooth scroll ends: the row stands still over several frames (a fixed pause ran into a
      // scroll still moving on a busy machine).
      await s.waitFor(() => new Promise((resolve) => {
        const list = document.querySelector("#similar-widget .svc-widget__list");
        const at = list.scrollLeft;
        requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve(list.scrollLeft === at))));
      }), [], { what: "the row's smooth scroll ended" });
      await s.eval(() => document.querySelector("#similar-widget .svc-widget__prev").focus());
      await s.press("Enter");
      await s.waitFor(() => document.querySelector("#similar-widget .svc-widget__list").scrollLeft < 5, [], { what: "back by previous" });
      assert.ok(moved > 100);
      // Tab from the first card's link reaches later cards, and the row follows the focus.
      await s.eval(() => document.querySelector("#similar-widget a.svc-card__link").focus());
      for (let i = 0; i < 9; i++) await s.press("Tab");
      const focus = await s.eval(() => {
        const card = document.activeElement.closest("li.svc-card");
        const list = document.querySelector("#similar-widget .svc-widget__list");
        const box = document.activeElement.getBoundingClientRect();
        const view = list.getBoundingClientRect();
        return { position: card ? +card.getAttribute("data-svc-pos") : -1, inView: box.left >= view.left - 1 && box.right <= view.right + 1 };
      });
      assert.ok(focus.position >= 2, `focus on card ${focus.position}`);
      assert.equal(focus.inView, true, "the focused control is scrolled into the row's view");
      assert.equal(await s.eval(scrollOf) > 0, true);
    },
  },
  {
    name: "reduced motion: the row scrolls without animation for those who asked, smoothly otherwise",
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/product.html", { sku: ctx.firstSku }));
      await s.settled();
      const behaviour = () => ({ reduce: matchMedia("(prefers-reduced-motion: reduce)").matches,
                                 scroll: getComputedStyle(document.querySelector("#similar-widget .svc-widget__list")).scrollBehavior });
      const normal = await s.eval(behaviour);
      assert.deepEqual(normal, { reduce: false, scroll: "smooth" });
      // The media query is the engine's own: the rule must parse in each (not "not all").
      assert.equal(await s.eval(() => matchMedia("(prefers-reduced-motion: reduce)").media.includes("reduce")), true);
      if (await s.emulateReducedMotion()) {
        assert.deepEqual(await s.eval(behaviour), { reduce: true, scroll: "auto" });
      }
    },
  },
  {
    name: "axe-core finds no serious or critical WCAG 2.1 A/AA violation in the widgets",
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/product.html", { sku: ctx.firstSku }));
      await s.settled();
      await s.eval((source) => { if (!window.axe) (0, eval)(source); }, axeSource);
      const violations = await s.eval(() => window.axe.run({ include: [["#set-widget"], ["#similar-widget"]] },
                                                           { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } })
        .then((results) => results.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => v.id + ": " + v.nodes.map((node) => node.target.join(" ")).slice(0, 3).join(", "))));
      assert.deepEqual(violations, []);
    },
  },
];
