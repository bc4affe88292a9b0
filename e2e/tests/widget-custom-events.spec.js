// The events a shop can listen to (issue 25, docs/adr/0082): svc:rendered, svc:hidden with the
// reason, svc:add-to-cart resolved or rejected with the shop's reason, as bubbling CustomEvents on
// the widget element. A shop's page on its own origin with the documented snippet, the real SDK
// and svc-server; the listeners are the shop's own, on the document.
const { test, expect } = require("@playwright/test");
const { shopPage, startShop } = require("../support/shop.js");

const apiId = () => process.env.SVC_API_ID;
const sku = () => process.env.SVC_FIRST_SKU;

let shop;
test.beforeAll(async () => { shop = await startShop(); });
test.afterAll(async () => { await shop.close(); });

let pageCount = 0;
function publish(body, head = "") {
  const path = `/events-${++pageCount}.html`;
  shop.pages[path] = shopPage({ sdkUrl: process.env.SVC_BASE_URL, apiId: apiId(), head, body });
  return shop.origin + path;
}

// The shop's listeners, before the snippet runs: on the document (the events bubble) and, for one
// widget, on the element itself; a listener that calls _svc again must not disturb the SDK.
const listeners = `<script>
window.__seen = [];
["svc:rendered", "svc:hidden", "svc:add-to-cart"].forEach(function (type) {
  document.addEventListener(type, function (event) {
    window.__seen.push({ type: event.type, target: event.target.id, bubbles: event.bubbles, custom: event instanceof CustomEvent,
                         detail: event.detail });
    if (type === "svc:rendered") window._svc.initCSE();
  });
});
window._svc_shop_plugin = {
  calls: 0,
  addToCart: function (sku, quantity, Promise) {
    return ++this.calls === 1 ? Promise.resolve() : Promise.reject(new Error("out of stock"));
  }
};
</script>`;

test("svc:rendered, svc:hidden with its reason, svc:add-to-cart resolved and rejected with the shop's reason", async ({ page }) => {
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  await page.goto(publish(
    `<section class="-svc-widget-container"><h2>Similar</h2>` +
    `<div id="shown" data-svc-widget-id="SIMILAR" data-touchpoint="product" data-sku="${sku()}"></div></section>` +
    `<div id="invalid" data-svc-widget-id="SIMILAR" data-touchpoint="product"></div>` +
    `<div id="empty" data-svc-widget-id="SIMILAR" data-touchpoint="product" data-sku="NO-SUCH-SKU"></div>` +
    `<div id="compose" data-svc-widget-id="SET-Compose" data-touchpoint="product"></div>`, listeners));
  await expect(page.locator("#shown")).toHaveAttribute("data-svc-state", "rendered");
  await expect(page.locator("#empty")).toHaveAttribute("data-svc-state", "empty");
  await page.waitForFunction(() => window.__seen.length === 4);
  const seen = await page.evaluate(() => window.__seen);
  const byTarget = Object.fromEntries(seen.map((event) => [event.target, event]));
  for (const event of seen) {
    expect(event.bubbles).toBe(true);
    expect(event.custom).toBe(true);
  }
  expect(byTarget.shown.type).toBe("svc:rendered");
  expect(byTarget.shown.detail.widgetId).toBe("SIMILAR");
  expect(byTarget.shown.detail.touchpoint).toBe("product");
  expect(byTarget.shown.detail.sku).toBe(sku());
  // The products the shopper sees, in order.
  const shownSkus = await page.locator("#shown [data-svc-sku]").evaluateAll((cards) => cards.map((card) => card.getAttribute("data-svc-sku")));
  expect(byTarget.shown.detail.products).toEqual(shownSkus);
  expect(shownSkus.length).toBeGreaterThan(0);
  expect(byTarget.invalid).toMatchObject({ type: "svc:hidden", detail: { reason: "invalid", message: "data-sku: required for SIMILAR" } });
  expect(byTarget.empty).toMatchObject({ type: "svc:hidden", detail: { reason: "empty", sku: "NO-SUCH-SKU" } });
  expect(byTarget.compose).toMatchObject({ type: "svc:hidden", detail: { reason: "demo-only", widgetId: "SET-Compose" } });

  // Add to cart: resolved, then the shop rejects with its reason.
  const buttons = page.locator("#shown .svc-card__cart");
  await buttons.nth(0).click();
  await page.waitForFunction(() => window.__seen.length === 5);
  await buttons.nth(1).click();
  await page.waitForFunction(() => window.__seen.length === 6);
  const carts = (await page.evaluate(() => window.__seen.slice(4)));
  expect(carts[0]).toMatchObject({ type: "svc:add-to-cart", target: "shown",
                                   detail: { status: "resolved", product: shownSkus[0], widgetId: "SIMILAR", sku: sku() } });
  expect(carts[0].detail.reason).toBeUndefined();
  expect(carts[1]).toMatchObject({ type: "svc:add-to-cart", target: "shown",
                                   detail: { status: "rejected", reason: "out of stock", product: shownSkus[1] } });
  expect(errors).toEqual([]);
});

test("svc:hidden says failed when the content request fails", async ({ page }) => {
  await page.route("**/content?**", (route) => route.fulfill({ status: 503, body: "down" }));
  await page.goto(publish(`<div id="w" data-svc-widget-id="SIMILAR" data-touchpoint="product" data-sku="${sku()}"></div>`, listeners));
  await page.waitForFunction(() => window.__seen.length === 1);
  expect(await page.evaluate(() => window.__seen[0])).toMatchObject({
    type: "svc:hidden", target: "w", detail: { reason: "failed", message: "content request failed (HTTP 503); widgets hidden" } });
});
