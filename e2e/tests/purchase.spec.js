// svclytics('purchase', payload) on the page after checkout (spec endpoint 5): the demo
// shop's checkout-success page reports the order bought through a widget; the real
// server stores it once, however often it is sent; a malformed payload is explained in
// the console and not sent.
const { test, expect } = require("@playwright/test");
const { execFileSync } = require("node:child_process");
const path = require("node:path");

const base = () => process.env.SVC_BASE_URL;

function query(sql) {
  const out = execFileSync("sqlite3", ["-json", path.join(process.env.SVC_DATA_DIR, "events.sqlite3"), sql], { encoding: "utf8" });
  return out.trim() ? JSON.parse(out) : [];
}

function purchases(orderId) {
  return query(`SELECT e.sequence, e.cid, l.sku, l.amount, l.price FROM events e JOIN order_lines l ON l.event = e.sequence
                WHERE e.type = 'purchase' AND e.order_id = '${orderId}' ORDER BY l.line`);
}

test("an order bought through a widget arrives once, with the visitor's cid; a repeat is ignored, other lines kept as a conflict", async ({ page, context, request }) => {
  const orderId = "E2E-" + Date.now() + "-" + Math.floor(Math.random() * 1e6);
  await page.goto(base() + "/demo/product.html?sku=" + encodeURIComponent(process.env.SVC_FIRST_SKU));
  const card = page.locator("#similar-widget li.svc-card").first();
  await expect(card).toBeVisible();
  const sku = await card.getAttribute("data-svc-sku");
  await card.locator(".svc-card__cart").click();
  await card.locator(".svc-card__cart").click();
  await expect(card.getByRole("status")).toHaveText("Added to cart");
  await expect(page.locator("#cart-count")).toHaveText("Cart: 2");
  const cid = (await context.cookies()).find((cookie) => cookie.name === "_svc_cid").value;

  const problems = [];
  page.on("console", (message) => { if (["error", "warning"].includes(message.type())) problems.push(message.text()); });
  page.on("pageerror", (error) => problems.push(error.message));
  await page.goto(base() + "/demo/checkout-success.html?order=" + orderId);
  await expect(page.locator("#order-status")).toHaveText(`Order ${orderId} is confirmed.`);
  const shop = await (await request.get(base() + "/demo/shop.json")).json();
  const price = shop.products.find((product) => product.variants.some((variant) => variant.sku === sku)).price;
  await expect.poll(() => purchases(orderId)).toEqual([{ sequence: expect.any(Number), cid, sku, amount: 2, price }]);

  // The same order again, from this page: the SDK keeps it back, with one warning.
  const payload = { customerid: "anonymous", orderid: orderId, products: [{ sku, amount: 1, price: 1 }] };
  await page.evaluate((p) => { window.svclytics("purchase", p); window.svclytics("purchase", p); }, payload);
  expect(problems).toEqual([`[svc] svclytics('purchase'): orderid '${orderId}' was sent already; an order counts once`]);
  // From a fresh page the server decides (docs/adr/0056): an exact repeat is ignored; other lines under
  // the same order id are kept as a conflicting claim beside the first, which they never replace.
  await page.goto(base() + "/demo/");
  await page.waitForFunction(() => window._svc && window._svc.loaded);
  const claims = () => query(`SELECT count(*) AS n, sum(conflicting) AS conflicts FROM events WHERE order_id = '${orderId}'`);
  await page.evaluate((p) => window.svclytics("purchase", p), { customerid: "anonymous", orderid: orderId, products: [{ sku, amount: 2, price }] });
  await page.evaluate(() => fetch("/healthz"));  // let the beacon go out first
  await page.waitForTimeout(500);
  expect(claims()).toEqual([{ n: 1, conflicts: 0 }]);
  await page.goto(base() + "/demo/");
  await page.waitForFunction(() => window._svc && window._svc.loaded);
  await page.evaluate((p) => window.svclytics("purchase", p), payload);
  await expect.poll(claims).toEqual([{ n: 2, conflicts: 1 }]);
  const stored = purchases(orderId);
  expect(stored[0]).toEqual({ sequence: expect.any(Number), cid, sku, amount: 2, price });
  expect(stored[1]).toEqual({ sequence: expect.any(Number), cid, sku, amount: 1, price: 1 });
});

test("svclytics called before the SDK loaded is replayed once; a malformed payload warns once per problem and is not sent", async ({ page }) => {
  const orderId = "E2E-BAD-" + Date.now();
  const goodId = "E2E-EARLY-" + Date.now();
  const warnings = [];
  page.on("console", (message) => { if (message.type() === "warning") warnings.push(message.text()); });
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  // Queued by the snippet before the SDK arrives (called as early as the page's own scripts).
  await page.addInitScript(({ orderId, goodId }) => {
    document.addEventListener("DOMContentLoaded", () => {
      const bad = { customerid: "anonymous", orderid: orderId, products: [{ sku: 4711, amount: 1.5, price: "19.99" }] };
      window.svclytics("purchase", bad);
      window.svclytics("purchase", bad);
      window.svclytics("purchase", { customerid: "anonymous", orderid: goodId, products: [{ sku: "A-1", amount: 1, price: 1999 }] });
      window.__queuedCalls = window.svclytics.q ? window.svclytics.q.length : 0;
    });
  }, { orderId, goodId });
  // The SDK arrives late (a slow network), so the calls above wait in the snippet's queue.
  await page.route("**/sdk/sdk.js", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 700));
    await route.continue();
  });
  await page.goto(base() + "/demo/");
  await page.waitForFunction(() => window._svc && window._svc.loaded);
  expect(await page.evaluate(() => window.__queuedCalls)).toBe(3);
  await expect.poll(() => query(`SELECT order_id FROM events WHERE order_id = '${goodId}'`)).toEqual([{ order_id: goodId }]);
  expect(warnings).toEqual([
    "[svc] svclytics('purchase'): products[0].sku: must be a string (the SKU as a string, exactly as in the product feed), got 4711; the order is not sent",
    "[svc] svclytics('purchase'): products[0].amount: must be an integer number of units (1 or more), got 1.5; the order is not sent",
    "[svc] svclytics('purchase'): products[0].price: must be an integer gross unit price in cents (e.g. 1999 for 19.99), got \"19.99\"; the order is not sent",
  ]);
  expect(query(`SELECT order_id FROM events WHERE order_id = '${orderId}'`)).toEqual([]);
  expect(errors).toEqual([]);
});
