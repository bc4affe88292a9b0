// Loading the snippet, the loader or the SDK twice is harmless (issue 6, "Loader"): shops paste
// the snippet into a template and a tag manager, or include the SDK by hand on top of it.
const { test, expect } = require("@playwright/test");

const base = () => process.env.SVC_BASE_URL;

// The demo product page as served, with the snippet pasted twice and, after it, the loader
// and the SDK included again by hand (route.fulfill changes only the page; server and SDK are real).
async function serveWithEverythingTwice(page) {
  await page.route(/\/demo\/product\.html/, async (route) => {
    const real = await route.fetch();
    const html = await real.text();
    const snippet = html.match(/<script>\s*\(function\(w,d,u,id\)[\s\S]*?<\/script>/)[0];
    const loaderUrl = snippet.match(/"(http[^"]+)","([^"]+)"\)/);
    const again = snippet +
      `<script async src="${loaderUrl[1]}/${loaderUrl[2]}/loader.js"></script>` +
      `<script async src="${loaderUrl[1]}/sdk/sdk.js"></script>`;
    await route.fulfill({ response: real, body: html.replace(snippet, snippet + again) });
  });
}

async function anotherSku(request, sku) {
  const response = await request.post(base() + "/graphql", {
    headers: { "x-api-id": process.env.SVC_API_ID, "content-type": "application/json" },
    data: { query: `{ product(id: ${JSON.stringify(sku)}) { similarProducts(first: 1) { edges { node { id } } } } }` },
  });
  return (await response.json()).data.product.similarProducts.edges[0].node.id;
}

test("the snippet, the loader and the SDK included twice: widgets rendered once, a queued call replayed once", async ({ page, request }) => {
  const sku = process.env.SVC_FIRST_SKU;
  const other = await anotherSku(request, sku);
  const errors = [];
  const warnings = [];
  const contentRequests = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => { if (message.type() === "warning" || message.type() === "error") warnings.push(message.text()); });
  page.on("request", (request) => { if (/\/content\?/.test(request.url())) contentRequests.push(decodeURIComponent(request.url())); });
  // A variant change the shop announces before the SDK arrives: the loader queues it, the SDK
  // replays it once after its first scan (a second SDK or a second replay would ask again).
  await page.addInitScript((variant) => {
    window._svc = { q: [["updateWidgetSku", ["SIMILAR", variant]]] };
  }, other);
  await serveWithEverythingTwice(page);

  await page.goto(base() + "/demo/product.html?sku=" + encodeURIComponent(sku));
  expect(await page.locator("script[src$='/loader.js']").count()).toBe(2);
  expect(await page.locator("script[src$='/sdk.js']").count()).toBe(2);

  await expect(page.locator("#similar-widget")).toHaveAttribute("data-svc-state", "rendered");
  await expect.poll(() => contentRequests.length).toBe(2);
  await page.waitForTimeout(500);  // a second SDK instance or a second replay would ask by now
  // The page's widgets in one request, then the queued variant change for SIMILAR alone.
  expect(contentRequests).toHaveLength(2);
  expect(contentRequests[1]).toContain(other);
  expect(contentRequests[1]).not.toContain("SET");
  expect(await page.locator("#similar-widget").getAttribute("data-sku")).toBe(other);
  // One stylesheet, one list per widget, an empty queue.
  expect(await page.locator("link[href$='/widgets.css']").count()).toBe(1);
  expect(await page.locator("#similar-widget ul").count()).toBe(1);
  const cards = await page.locator("#similar-widget li.svc-card").count();
  expect(cards).toBeGreaterThan(0);
  expect(await page.evaluate(() => window._svc.q.length)).toBe(0);

  // initCSE finds nothing new: nothing is asked again, nothing rendered twice.
  await page.evaluate(() => window._svc.initCSE());
  await page.waitForTimeout(300);
  expect(contentRequests).toHaveLength(2);
  expect(await page.locator("#similar-widget li.svc-card").count()).toBe(cards);
  expect(errors).toEqual([]);
  expect(warnings).toEqual([]);
});

// The SDK included by hand *before* the snippet (synchronously, so it surely runs first) on a
// page that already queued a call in window._svc: it must wait for the loader's config, not
// start without it (it used to ask for "undefined/sdk/sdk.wasm", get a 404 and hide the widgets).
test("the SDK included by hand before the loader waits for it", async ({ page }) => {
  const warnings = [];
  page.on("console", (message) => { if (message.type() === "warning" || message.type() === "error") warnings.push(message.text()); });
  await page.addInitScript(() => { window._svc = { q: [] }; });
  await page.route(/\/demo\/product\.html/, async (route) => {
    const real = await route.fetch();
    const html = await real.text();
    const snippet = html.match(/<script>\s*\(function\(w,d,u,id\)[\s\S]*?<\/script>/)[0];
    const base = snippet.match(/"(http[^"]+)","([^"]+)"\)/)[1];
    await route.fulfill({ response: real, body: html.replace(snippet, `<script src="${base}/sdk/sdk.js"></script>` + snippet) });
  });
  await page.goto(base() + "/demo/product.html?sku=" + encodeURIComponent(process.env.SVC_FIRST_SKU));
  await expect(page.locator("#similar-widget")).toHaveAttribute("data-svc-state", "rendered");
  expect(await page.locator("#similar-widget li.svc-card").count()).toBeGreaterThan(0);
  expect(warnings).toEqual([]);
});
