// A phone: 390x844 CSS px with touch. Cards reachable and readable, every widget button a
// 44x44 touch target, nothing wider than the screen, a long brand kept inside its card, the
// carousel swiped by a finger; a screenshot per engine is kept (.test-output/engines/).
"use strict";
const assert = require("node:assert/strict");
const path = require("node:path");

function layout() {
  const cards = [...document.querySelectorAll("li.svc-card")];
  const spill = [];
  for (const card of cards) {
    const box = card.getBoundingClientRect();
    for (const part of card.querySelectorAll(".svc-card__brand, .svc-card__name, .svc-card__price, button")) {
      const own = part.getBoundingClientRect();
      // A choice's name is cut with an ellipsis on purpose; text elsewhere must wrap.
      const hidden = !part.matches(".svc-card__choice") && part.scrollWidth > part.clientWidth + 1;
      if (own.right > box.right + 1 || own.left < box.left - 1 || hidden) {
        spill.push(part.className + " of " + card.getAttribute("data-svc-sku") + ": " + Math.round(own.right - box.right) + " px");
      }
    }
  }
  const small = [...document.querySelectorAll("[data-svc-widget-id] button")].map((button) => {
    const box = button.getBoundingClientRect();
    return { name: button.className + " " + (button.getAttribute("aria-label") || button.textContent), width: box.width, height: box.height };
  }).filter((button) => button.width < 44 || button.height < 44)
    .map((button) => `${button.name}: ${button.width.toFixed(0)}x${button.height.toFixed(0)}`);
  const fonts = [...document.querySelectorAll(".svc-card__name, .svc-card__selling")].map((text) => parseFloat(getComputedStyle(text).fontSize));
  // What sticks out past the screen's right edge, outermost first (named in a failure).
  const clipped = (element) => {
    for (let up = element.parentElement; up; up = up.parentElement) if (getComputedStyle(up).overflowX !== "visible") return true;
    return false;
  };
  const wide = [...document.body.querySelectorAll("*")].filter((element) => element.getBoundingClientRect().right > innerWidth + 1 && !clipped(element))
    .filter((element, index, all) => !all.includes(element.parentElement))
    .map((element) => element.tagName.toLowerCase() + (element.id ? "#" + element.id : "") + (element.className && typeof element.className === "string" ? "." + element.className.split(" ")[0] : "") +
                      " " + Math.round(element.getBoundingClientRect().right));
  return {
    viewport: innerWidth + "x" + innerHeight,
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    wide: wide.slice(0, 6),
    cards: cards.length,
    spill: spill.slice(0, 5),
    small: [...new Set(small)].slice(0, 5),
    smallestFont: Math.min(...fonts),
    cardWidth: cards.length ? Math.round(cards[0].getBoundingClientRect().width) : 0,
  };
}

// The last card of the row can be brought into view (reachable by scrolling the row).
function lastCardReachable() {
  const list = document.querySelector("#similar-widget .svc-widget__list");
  list.style.setProperty("scroll-behavior", "auto", "important");
  list.scrollLeft = list.scrollWidth;
  const cards = list.querySelectorAll("li.svc-card");
  const last = cards[cards.length - 1].getBoundingClientRect();
  const view = list.getBoundingClientRect();
  const result = list.scrollWidth > list.clientWidth && last.right <= view.right + 2 && last.left >= view.left - 2;
  list.scrollLeft = 0;
  list.style.removeProperty("scroll-behavior");
  return result;
}

function checkPhone(found, what) {
  assert.equal(found.viewport, "390x844", what);
  assert.ok(found.overflow <= 0, `${what}: the page is ${found.overflow} px wider than the screen: ${found.wide.join(", ")}`);
  assert.ok(found.cards > 2, `${what}: ${found.cards} cards`);
  assert.deepEqual(found.spill, [], `${what}: text outside its card`);
  assert.deepEqual(found.small, [], `${what}: touch targets under 44x44 CSS px`);
  assert.ok(found.smallestFont >= 12, `${what}: text of ${found.smallestFont} px`);
  assert.ok(found.cardWidth >= 140, `${what}: cards ${found.cardWidth} px wide`);
}

module.exports = [
  {
    name: "phone 390x844: cards reachable and readable, 44x44 buttons, no overflow; screenshot",
    phone: true,
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/product.html", { sku: ctx.firstSku, plugin: "resolve" }));
      assert.equal(await s.settled(), "set-widget=rendered similar-widget=rendered");
      await s.eval(() => document.getElementById("similar-widget").scrollIntoView({ block: "start" }));
      await s.screenshot(path.join(ctx.artifacts, `phone-product-${ctx.engine}.png`));
      checkPhone(await s.eval(layout), "demo shop");
      assert.equal(await s.eval(lastCardReachable), true);
    },
  },
  {
    name: "phone 390x844: a long unbreakable brand stays inside its card; screenshot",
    phone: true,
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/product.html", { sku: ctx.hostile.firstSku, tenant: ctx.hostile.apiId }));
      await s.settled();
      const brands = await s.eval((brand) => [...document.querySelectorAll(".svc-card__brand")].filter((b) => b.textContent === brand).length,
                                  ctx.hostile.longBrand);
      assert.ok(brands > 0, "a card with the long brand");
      await s.eval(() => document.getElementById("similar-widget").scrollIntoView({ block: "start" }));
      await s.screenshot(path.join(ctx.artifacts, `phone-long-brand-${ctx.engine}.png`));
      checkPhone(await s.eval(layout), "hostile feed");
    },
  },
  {
    name: "phone: the carousel follows a finger's swipe and snaps to a card",
    phone: true,
    async run(s, ctx) {
      await s.go(ctx.shop("/demo/product.html", { sku: ctx.firstSku }));
      await s.settled();
      await s.eval(() => document.getElementById("similar-widget").scrollIntoView({ block: "center" }));
      // What lets a finger scroll the row in any engine: a scroll container that snaps, no
      // touch-action that takes the gesture away.
      const row = await s.eval(() => {
        const style = getComputedStyle(document.querySelector("#similar-widget .svc-widget__list"));
        return { overflowX: style.overflowX, snap: style.scrollSnapType, touchAction: style.touchAction };
      });
      assert.equal(row.overflowX, "auto");
      assert.match(row.snap, /^x mandatory$/);
      assert.match(row.touchAction, /^(auto|manipulation|pan-x.*)$/);
      const snapped = () => {
        const list = document.querySelector("#similar-widget .svc-widget__list");
        const left = list.getBoundingClientRect().left;
        return list.scrollLeft > 50 && [...list.querySelectorAll("li.svc-card")].some((card) =>
          Math.abs(card.getBoundingClientRect().left - left - 2) <= 3) && Math.round(list.scrollLeft);
      };
      if (s.touchScrolls) {
        await s.swipe("#similar-widget .svc-widget__list", -220);
      } else {
        // The engine's driver cannot pan with a synthesised finger (drivers/): the same distance
        // scrolled by the row itself, which the engine's snapping then settles, as after a swipe.
        await s.eval(() => document.querySelector("#similar-widget .svc-widget__list").scrollBy({ left: 220, behavior: "instant" }));
      }
      assert.ok(await s.waitFor(snapped, [], { what: "the row swiped and snapped to a card", timeout: 5000 }));
    },
  },
];
