// Pages that change without a reload (issue 6, docs/adr/0023): a single-page app that changes
// product (data-sku) and variant (_svc.updateWidgetSku) with history.pushState, widgets added
// later (a cart layer), with and without _svc.initCSE(). Every change is one content request
// and one render, whoever announced it.
const { test, expect } = require("@playwright/test");
const http = require("node:http");

const base = () => process.env.SVC_BASE_URL;
// The single-page app shows its first product once it has its catalog (shop.json, several seconds on a busy machine).
const SHOP_DATA = { timeout: 20_000 };

function contentRequests(page) {
  const seen = [];
  page.on("request", (request) => {
    if (/\/content\?/.test(request.url())) seen.push(new URL(request.url()).searchParams);
  });
  return seen;
}

function watchErrors(page) {
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  return errors;
}

// The SKUs the server answers for one widget: what the widget must show.
async function expectedSkus(request, type, sku, touchpoint = "product") {
  const query = `w=${type}&t=${touchpoint}&s=${encodeURIComponent(sku)}&i=`;
  return (await getJson(`${base()}/${process.env.SVC_API_ID}/content?${query}`)).widgets[0].items.map((item) => item.sku);
}

// A GET on a connection of its own: svc-server closes idle keep-alive connections after 5 s, and a
// test that waits longer than that between two requests must not pick up a closed one.
function getJson(url) {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => { body += chunk; });
      response.on("end", () => (response.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(url + ": HTTP " + response.statusCode))));
    }).on("error", reject);
  });
}

function shownSkus(widget) {
  return widget.locator("li.svc-card").evaluateAll((items) => items.map((item) => item.getAttribute("data-svc-sku")));
}

test("single-page app: a product change re-renders both widgets with one request, without a reload", async ({ page, request }) => {
  const requests = contentRequests(page);
  const errors = watchErrors(page);
  await page.goto(base() + "/demo/spa.html");
  const similar = page.locator("#similar-widget");
  await expect(similar).toHaveAttribute("data-svc-state", "rendered", SHOP_DATA);
  await expect(page.locator("#set-widget")).toHaveAttribute("data-svc-state", "rendered");
  const firstSku = await similar.getAttribute("data-sku");
  expect(requests.length).toBe(1);
  await page.evaluate(() => { window.__sameDocument = true; });

  // Another product from the app's navigation: pushState, the app sets data-sku.
  const link = page.locator("#spa-nav a").nth(3);
  const nextSku = new URL(await link.getAttribute("href"), base()).searchParams.get("sku");
  expect(nextSku).not.toBe(firstSku);
  await link.click();
  await expect(page).toHaveURL(new RegExp("spa\\.html\\?sku=" + nextSku));
  await expect.poll(() => shownSkus(similar)).toEqual(await expectedSkus(request, "SIMILAR", nextSku));
  await expect(page.locator("#set-widget")).toHaveAttribute("data-svc-state", "rendered");
  await page.waitForTimeout(300);
  expect(requests.length).toBe(2);
  expect(requests[1].getAll("w")).toEqual(["SET", "SIMILAR"]);
  expect(requests[1].getAll("s")).toEqual([nextSku, nextSku]);
  expect(await page.evaluate(() => window.__sameDocument)).toBe(true);  // no reload

  // Back: popstate, the first product again.
  await page.goBack();
  await expect.poll(() => shownSkus(similar)).toEqual(await expectedSkus(request, "SIMILAR", firstSku));
  expect(requests.length).toBe(3);
  expect(errors).toEqual([]);
});

test("single-page app: a variant change through _svc.updateWidgetSku is one request per widget type, never two renders", async ({ page, request }) => {
  const requests = contentRequests(page);
  await page.goto(base() + "/demo/spa.html");
  const set = page.locator("#set-widget");
  await expect(set).toHaveAttribute("data-svc-state", "rendered", SHOP_DATA);
  const variants = page.locator("#product-colours a[data-spa-variant]:not([aria-current])");
  expect(await variants.count()).toBeGreaterThan(0);
  const variantSku = new URL(await variants.first().getAttribute("href"), base()).searchParams.get("sku");
  // Count renders: each render replaces the widget's children.
  await page.evaluate(() => {
    window.__renders = { SET: 0, SIMILAR: 0 };
    new MutationObserver((records) => records.forEach((record) => {
      if (record.type === "childList" && record.target.matches("[data-svc-widget-id]") && record.addedNodes.length) {
        window.__renders[record.target.getAttribute("data-svc-widget-id")]++;
      }
    })).observe(document.querySelector("main"), { subtree: true, childList: true });
  });
  await variants.first().click();
  await expect.poll(() => shownSkus(set)).toEqual(await expectedSkus(request, "SET", variantSku));
  await expect(page.locator("#similar-widget")).toHaveAttribute("data-sku", variantSku);
  await expect(page.locator("#similar-widget")).toHaveAttribute("data-svc-state", "rendered");
  await page.waitForTimeout(300);
  expect(requests.length).toBe(3);
  expect(requests.slice(1).map((query) => [query.getAll("w"), query.getAll("s")]))
    .toEqual([[["SET"], [variantSku]], [["SIMILAR"], [variantSku]]]);
  expect(await page.evaluate(() => window.__renders)).toEqual({ SET: 1, SIMILAR: 1 });
});

test("single-page app: a product link inside a widget goes through the shop's router (navigateTo)", async ({ page, request }) => {
  const requests = contentRequests(page);
  await page.goto(base() + "/demo/spa.html");
  const similar = page.locator("#similar-widget");
  await expect(similar).toHaveAttribute("data-svc-state", "rendered", SHOP_DATA);
  await page.evaluate(() => { window.__sameDocument = true; });
  const card = similar.locator("li.svc-card").first();
  const cardSku = await card.getAttribute("data-svc-sku");
  await card.locator("a").first().click();
  await expect(page).toHaveURL(new RegExp("spa\\.html\\?sku="));
  await expect(similar).toHaveAttribute("data-svc-state", "rendered");
  const nowSku = await similar.getAttribute("data-sku");
  // The demo feed's deeplinks name the main SKU or the variant; either way the app shows that product.
  expect(cardSku.startsWith(nowSku) || nowSku.startsWith(cardSku.replace(/-[^-]+$/, ""))).toBe(true);
  await expect.poll(() => shownSkus(similar)).toEqual(await expectedSkus(request, "SIMILAR", nowSku));
  expect(await page.evaluate(() => window.__sameDocument)).toBe(true);
  expect(requests.length).toBe(2);
});

test("cart layer: widgets created with the layer are filled once, whether or not the shop calls initCSE", async ({ page, request }) => {
  const sku = process.env.SVC_FIRST_SKU;
  const requests = contentRequests(page);
  const errors = watchErrors(page);
  await page.goto(base() + "/demo/cart-layer.html?sku=" + encodeURIComponent(sku));
  await page.waitForFunction(() => window._svc && window._svc.loaded);
  expect(requests.length).toBe(0);  // no widget on the page yet

  await page.locator("#add-to-cart").click();
  const layerWidget = page.locator("#layer-set-widget");
  await expect(page.locator("#cart-layer")).toBeVisible();
  await expect(layerWidget).toHaveAttribute("data-svc-state", "rendered");
  expect(await shownSkus(layerWidget)).toEqual(await expectedSkus(request, "SET", sku, "cart-layer"));
  await page.waitForTimeout(300);
  // The shop called initCSE and the SDK saw the new element itself: still one request.
  expect(requests.length).toBe(1);
  expect(requests[0].getAll("t")).toEqual(["cart-layer"]);
  expect(requests[0].getAll("s")).toEqual([sku]);

  // A widget the shop adds without telling the SDK is found all the same.
  await page.evaluate((anchor) => {
    const widget = document.createElement("div");
    widget.id = "late-widget";
    widget.setAttribute("data-svc-widget-id", "SIMILAR");
    widget.setAttribute("data-touchpoint", "cart-layer");
    widget.setAttribute("data-sku", anchor);
    document.getElementById("cart-layer-widgets").append(widget);
  }, sku);
  await expect(page.locator("#late-widget")).toHaveAttribute("data-svc-state", "rendered");
  await page.waitForTimeout(300);
  expect(requests.length).toBe(2);
  expect(errors).toEqual([]);
});
