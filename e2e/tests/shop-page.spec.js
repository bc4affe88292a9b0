// The shop page as a shop builds it (issue 20, points 5-8; docs/adr/0071): a page on the shop's own
// origin (e2e/support/shop.js) with the snippet from docs/integration.md, the real svc-server, the
// real SDK. svc never shows what the shop hid and counts no view of it; an outage leaves no orphan
// headline; add-to-cart does not depend on when the shop's bundle arrives; SET-Custom shows its photo.
const { test, expect } = require("@playwright/test");
const { shopPage, startShop, closedPort } = require("../support/shop.js");
const { audit } = require("../support/console.js");

const svcUrl = () => process.env.SVC_BASE_URL;
const apiId = () => process.env.SVC_API_ID;
const sku = () => process.env.SVC_FIRST_SKU;

let shop;
test.beforeAll(async () => { shop = await startShop(); });
test.afterAll(async () => { await shop.close(); });

// Serves `body` as a new page of the shop (snippet pointing at `sdkUrl`) and returns its URL.
let pageCount = 0;
function publish(body, { sdkUrl = svcUrl(), head = "" } = {}) {
  const path = `/page-${++pageCount}.html`;
  shop.pages[path] = shopPage({ sdkUrl, apiId: apiId(), head, body });
  return shop.origin + path;
}

function similar(id, touchpoint, widgetSku = sku()) {
  return `<div data-svc-widget-id="SIMILAR" data-touchpoint="${touchpoint}" data-sku="${widgetSku}" id="${id}"></div>`;
}

function container(id, inner, attributes = "") {
  return `<section class="-svc-widget-container" id="${id}" ${attributes}><h2>You may also like</h2>${inner}</section>`;
}

// What the shop would see: page errors and the SDK's warnings.
function watch(page) {
  const seen = { errors: [], warnings: [] };
  page.on("pageerror", (error) => seen.errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "warning" && message.text().startsWith("[svc]")) seen.warnings.push(message.text());
  });
  return seen;
}

// The widget events sent so far (a spy on sendBeacon; the real beacon still goes to svc).
async function spyOnBeacons(page) {
  await page.addInitScript(() => {
    window.__events = [];
    const realBeacon = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, body) => {
      try { window.__events.push(...JSON.parse(body).events); } catch (ignored) {}
      return realBeacon(url, body);
    };
  });
}

async function flushEvents(page) {
  return page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
    return window.__events.splice(0);
  });
}

test.describe("point 5: svc never shows what the shop hid", () => {
  test("containers the shop hid stay hidden when their widgets render, and count no view until the shop shows them", async ({ page }) => {
    await page.setViewportSize({ width: 1200, height: 1600 });
    await spyOnBeacons(page);
    const seen = watch(page);
    await page.goto(publish(
      container("shown", similar("w-product", "product")) +
      // The shop's A/B control group, three ways, and a container that takes space but is invisible.
      container("by-hidden", similar("w-cart", "cart"), "hidden") +
      container("by-style", similar("w-layer", "cart-layer"), 'style="display:none"') +
      `<div id="hidden-ancestor" hidden>${container("by-ancestor", similar("w-search", "search"))}</div>` +
      container("by-visibility", similar("w-category", "category"), 'style="visibility:hidden"')));
    for (const id of ["w-product", "w-cart", "w-layer", "w-search", "w-category"]) {
      await expect(page.locator("#" + id)).toHaveAttribute("data-svc-state", "rendered");
    }
    await expect(page.locator("#shown")).toBeVisible();
    for (const id of ["by-hidden", "by-style", "by-ancestor", "by-visibility"]) await expect(page.locator("#" + id)).toBeHidden();
    // The shop's own hiding is exactly as the shop wrote it.
    expect(await page.locator("#by-hidden").getAttribute("hidden")).toBe("");
    expect(await page.locator("#by-style").getAttribute("style")).toBe("display:none");
    expect(await page.locator("#by-visibility").getAttribute("style")).toBe("visibility:hidden");
    expect(await page.locator("#hidden-ancestor").getAttribute("hidden")).toBe("");

    // The observer reports every widget it watches in one pass, the shown one's view with the
    // hidden ones: once the product's view is there, a view of a hidden widget would be too.
    const views = [];
    await expect.poll(async () => {
      views.push(...(await flushEvents(page)).filter((event) => event.type === "view"));
      return views.length;
    }).toBeGreaterThan(0);
    expect(views.map((event) => event.touchpoint)).toEqual(["product"]);

    // The test group ends: the shop shows its container, and now it is a view.
    await page.evaluate(() => document.querySelector("#by-hidden").removeAttribute("hidden"));
    await expect(page.locator("#w-cart li.svc-card").first()).toBeVisible();
    const later = [];
    await expect.poll(async () => {
      later.push(...await flushEvents(page));
      return later.filter((event) => event.type === "view").map((event) => event.touchpoint);
    }, { timeout: 3000 }).toEqual(["cart"]);
    expect(seen.errors).toEqual([]);
    expect(seen.warnings).toEqual([]);
  });

  test("svc hides an empty widget's container with its own marker and shows it again by removing it", async ({ page }) => {
    const seen = watch(page);
    await page.goto(publish(container("look", '<div id="w" data-svc-widget-id="SET-Custom" data-touchpoint="content" data-set-id="no-such-set"></div>')));
    await expect(page.locator("#w")).toHaveAttribute("data-svc-state", "empty");
    await expect(page.locator("#look")).toBeHidden();
    expect(await page.locator("#look").getAttribute("data-svc-hidden")).toBe("");
    // Nothing of the shop's: no hidden attribute, no inline style.
    expect(await page.locator("#look").getAttribute("hidden")).toBeNull();
    expect(await page.locator("#look").getAttribute("style")).toBeNull();

    // A set that exists: the same container is shown by taking the marker away.
    await page.evaluate(() => document.querySelector("#w").setAttribute("data-set-id", "demo-look-city"));
    await expect(page.locator("#w")).toHaveAttribute("data-svc-state", "rendered");
    await expect(page.locator("#look")).toBeVisible();
    expect(await page.locator("#look").getAttribute("data-svc-hidden")).toBeNull();
    expect(await page.locator("#look").getAttribute("style")).toBeNull();
    expect(seen.errors).toEqual([]);
  });
});

test.describe("point 6: an outage leaves no orphan headline", () => {
  const widgets = () => container("similar-container", similar("similar-widget", "product")) +
                        container("set-container", `<div id="set-widget" data-svc-widget-id="SET" data-touchpoint="product" data-sku="${sku()}"></div>`);

  // Times in the page's own clock, not the test's: a busy machine stretches navigation, never the
  // snippet's 5 s bound. Records when the snippet armed its bound, when that bound ran, and when
  // the first container was hidden, so each test says which of the two hid it.
  async function watchSnippet(page) {
    await page.addInitScript(() => {
      const clock = window.__snippet = { armedAt: null, firedAt: null, hiddenAt: null };
      const setTimer = window.setTimeout;
      window.setTimeout = function (callback, delay, ...rest) {
        if (delay !== 5000 || clock.armedAt !== null || typeof callback !== "function") return setTimer.call(this, callback, delay, ...rest);
        clock.armedAt = performance.now();
        return setTimer.call(this, function () {
          try { return callback.apply(this, arguments); } finally { clock.firedAt = performance.now(); }
        }, delay, ...rest);
      };
      new MutationObserver(() => {
        const box = document.getElementById("similar-container");
        if (clock.hiddenAt === null && box && box.style.display === "none") clock.hiddenAt = performance.now();
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ["style"] });
    });
    return () => page.evaluate(() => window.__snippet);
  }

  async function expectHiddenAfterOutage(page, seen) {
    for (const id of ["#similar-container", "#set-container"]) await expect(page.locator(id)).toBeHidden();
    for (const id of ["#similar-widget", "#set-widget"]) {
      await expect(page.locator(id)).toHaveAttribute("data-svc-state", "failed");
      await expect(page.locator(id)).toBeEmpty();
    }
    await expect(page.locator("#shop-title")).toBeVisible();  // the shop's page is the shop's
    expect(seen.errors).toEqual([]);
    expect(await page.evaluate(() => typeof window.svclytics)).toBe("function");
  }

  // Hidden by the loader's error: before the bound could have run.
  async function expectHiddenByTheError(snippet) {
    const times = await snippet();
    expect(times.armedAt).not.toBeNull();
    expect(times.hiddenAt).not.toBeNull();
    expect(times.hiddenAt - times.armedAt).toBeLessThan(5000);
  }

  test("svc stopped (its port closed): the snippet hides the containers at once", async ({ page }) => {
    const seen = watch(page);
    const snippet = await watchSnippet(page);
    await page.goto(publish(widgets(), { sdkUrl: `http://127.0.0.1:${await closedPort()}` }));
    await expectHiddenAfterOutage(page, seen);
    await expectHiddenByTheError(snippet);
  });

  const blocked = [
    { name: "loader.js blocked", pattern: /\/loader\.js$/ },
    { name: "the SDK blocked (sdk.js)", pattern: /\/sdk\.js$/ },
    { name: "everything from svc's host blocked", pattern: (url) => url.href.startsWith(svcUrl()) },
  ];
  for (const block of blocked) {
    test(`${block.name}: the containers are hidden at once`, async ({ page }) => {
      const seen = watch(page);
      const snippet = await watchSnippet(page);
      await page.route(block.pattern, (route) => route.abort("blockedbyclient"));
      await page.goto(publish(widgets()));
      await expectHiddenAfterOutage(page, seen);
      // loader.js itself failing is the snippet's error path; a later failure is the SDK's own.
      const times = await snippet();
      expect(times.hiddenAt).not.toBeNull();
      expect(times.hiddenAt - times.armedAt).toBeLessThan(5000);
    });
  }

  test("svc hanging (loader.js never answers): the containers are hidden after the snippet's 5 s bound", async ({ page }) => {
    const seen = watch(page);
    const snippet = await watchSnippet(page);
    const held = [];
    await page.route(/\/loader\.js$/, (route) => { held.push(route); });
    await page.goto(publish(widgets()), { waitUntil: "domcontentloaded" });  // the held script holds "load"
    // Until the bound has run, whatever the machine's load; then what it did.
    await expect.poll(async () => (await snippet()).firedAt, { timeout: 30_000 }).not.toBeNull();
    await expectHiddenAfterOutage(page, seen);
    const times = await snippet();
    expect(times.firedAt).not.toBeNull();
    expect(times.hiddenAt - times.armedAt).toBeGreaterThanOrEqual(5000);  // not before the bound
    // The loader arrives after all: a late SDK leaves the given-up widgets alone.
    await Promise.all(held.map((route) => route.continue()));
    await page.unroute(/\/loader\.js$/);
    await expect.poll(() => page.evaluate(() => window._svc && window._svc.loaded === true)).toBe(true);
    await page.evaluate((other) => document.querySelector("#similar-widget").setAttribute("data-sku", other), sku());
    await page.waitForTimeout(500);  // absence: a content request for the given-up widget would have rendered by now
    await expect(page.locator("#similar-container")).toBeHidden();
    await expect(page.locator("#similar-widget")).toBeEmpty();
  });

  test("a healthy svc: the snippet's bound hides nothing", async ({ page }) => {
    const seen = watch(page);
    const snippet = await watchSnippet(page);
    await page.goto(publish(widgets()));
    await expect(page.locator("#similar-widget")).toHaveAttribute("data-svc-state", "rendered");
    // Until the bound has run, whatever the machine's load.
    await expect.poll(async () => (await snippet()).firedAt, { timeout: 30_000 }).not.toBeNull();
    await expect(page.locator("#similar-container")).toBeVisible();
    expect(await page.locator("#similar-container").getAttribute("style")).toBeNull();
    expect((await snippet()).hiddenAt).toBeNull();
    expect(seen.errors).toEqual([]);
    expect(seen.warnings).toEqual([]);
  });
});

test.describe("point 7: add to cart does not depend on timing", () => {
  test("a shop plugin defined after the first render (a deferred bundle) brings the buttons at once", async ({ page }) => {
    const seen = watch(page);
    await page.goto(publish(container("c", similar("w", "product"))));
    await expect(page.locator("#w")).toHaveAttribute("data-svc-state", "rendered");
    await page.waitForTimeout(600);
    await expect(page.locator("#w .svc-card__cart")).toHaveCount(0);
    await page.evaluate(() => {
      window.__added = [];
      window._svc_shop_plugin = { addToCart: (added, quantity, P) => { window.__added.push(added); return P.resolve(); } };
    });
    const card = page.locator("#w li.svc-card").first();
    await expect(card.locator(".svc-card__cart")).toBeVisible({ timeout: 1000 });
    await card.locator(".svc-card__cart").click();
    await expect(card.getByRole("status")).toHaveText("Added to cart");
    expect(await page.evaluate(() => window.__added)).toEqual([await card.getAttribute("data-svc-sku")]);
    expect(seen.warnings).toEqual([]);
  });

  test("an addToCart that returns no promise: one warning, no 'Added to cart'", async ({ page }) => {
    const seen = watch(page);
    await page.addInitScript(() => {
      window.__calls = 0;
      window._svc_shop_plugin = { addToCart: () => { window.__calls++; return true; } };
    });
    await page.goto(publish(container("c", similar("w", "product"))));
    const cards = page.locator("#w li.svc-card");
    for (const at of [0, 1]) {
      await cards.nth(at).locator(".svc-card__cart").click();
      await expect.poll(() => page.evaluate(() => window.__calls)).toBe(at + 1);
      await expect(cards.nth(at).locator(".svc-card__cart")).toBeEnabled();
      await page.waitForTimeout(200);
      await expect(cards.nth(at).getByRole("status")).toHaveText("");
    }
    expect(seen.warnings).toEqual(["[svc] _svc_shop_plugin.addToCart must return a promise that resolves when the product " +
                                   "is in the cart; it returned none, so the widget cannot say whether it was added"]);
  });

  test("the button is disabled and busy while the shop's promise is pending", async ({ page }) => {
    await page.addInitScript(() => {
      window.__calls = 0;
      window._svc_shop_plugin = {
        addToCart: (added, quantity, P) => { window.__calls++; return new P((resolve) => { window.__finish = resolve; }); },
      };
    });
    await page.goto(publish(container("c", similar("w", "product"))));
    const card = page.locator("#w li.svc-card").first();
    const button = card.locator(".svc-card__cart");
    await button.click();
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute("aria-busy", "true");
    await expect(button).toHaveAttribute("aria-disabled", "true");
    await button.click({ force: true });  // a disabled button takes no second click
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => window.__calls)).toBe(1);
    await page.evaluate(() => window.__finish());
    await expect(card.getByRole("status")).toHaveText("Added to cart");
    await expect(button).toBeEnabled();
    expect(await button.getAttribute("aria-busy")).toBeNull();
    expect(await button.getAttribute("aria-disabled")).toBeNull();
  });
});

test.describe("point 8: SET-Custom shows what it is", () => {
  test("the set's photo with its description as alt text, its title, its products with alternatives; accessible", async ({ page, request }) => {
    const answer = await request.post(svcUrl() + "/graphql", {
      headers: { "x-api-id": apiId(), "content-type": "application/json" },
      data: { query: '{ customSet(id: "demo-look-city") { title description images(first: 1) { edges { node { url } } } products { id } } }' },
    });
    const set = (await answer.json()).data.customSet;
    expect(set.title).toBe("City weekend");
    await page.goto(publish(`<main>${container("look-container",
      '<div id="look" data-svc-widget-id="SET-Custom" data-touchpoint="content" data-set-id="demo-look-city"></div>')}</main>`));
    const widget = page.locator("#look");
    await expect(widget).toHaveAttribute("data-svc-state", "rendered");
    const photo = widget.locator("figure img.svc-widget__photo");
    await expect(photo).toBeVisible();
    expect(await photo.getAttribute("src")).toBe(set.images.edges[0].node.url);
    expect(await photo.getAttribute("alt")).toBe(set.description);
    await expect(widget.getByRole("img", { name: set.description })).toHaveCount(1);
    await expect(widget.locator("figure figcaption")).toHaveText(set.title);
    const shown = await widget.locator("li.svc-card").evaluateAll((items) => items.map((item) => item.getAttribute("data-svc-sku")));
    expect(shown.map((variantSku) => variantSku.replace(/-[^-]+$/, ""))).toEqual(set.products.map((product) => product.id));
    // Alternatives come with the set, delivered by svc (no authoring of them).
    expect(await widget.locator(".svc-card__choices button").count()).toBeGreaterThan(0);
    await audit(page);
  });
});
