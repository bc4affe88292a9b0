// The demo shop's touchpoints beyond the product page (issue 6): cart, content (SET-Custom by
// set id and by SKU), category and search. Each widget shows what the server answers for
// its attributes, and its requests and events name its touchpoint.
const { test, expect } = require("@playwright/test");
const http = require("node:http");

const base = () => process.env.SVC_BASE_URL;
// The listing pages set data-sku once the shop has its catalog (shop.json, several seconds on a busy machine).
const SHOP_DATA = { timeout: 20_000 };

async function expectedSkus(request, query) {
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

function svcWarnings(page) {
  const warnings = [];
  page.on("console", (message) => { if (message.type() === "warning" && message.text().startsWith("[svc]")) warnings.push(message.text()); });
  return warnings;
}

function contentQueries(page) {
  const seen = [];
  page.on("request", (request) => { if (/\/content\?/.test(request.url())) seen.push(new URL(request.url()).searchParams); });
  return seen;
}

async function graphql(request, query) {
  const response = await request.post(base() + "/graphql", {
    headers: { "x-api-id": process.env.SVC_API_ID, "content-type": "application/json" },
    data: { query },
  });
  expect(response.ok()).toBeTruthy();
  return (await response.json()).data;
}

test("cart: SET and SIMILAR for a SKU of the cart, touchpoint cart", async ({ page, request }) => {
  const sku = process.env.SVC_FIRST_SKU;
  await page.addInitScript((cartSku) => { sessionStorage.setItem("demo-cart", JSON.stringify({ [cartSku]: 2 })); }, sku);
  const queries = contentQueries(page);
  await page.goto(base() + "/demo/cart.html");
  const set = page.locator("#cart-set-widget");
  const similar = page.locator("#cart-similar-widget");
  await expect(set).toHaveAttribute("data-svc-state", "rendered");
  await expect(similar).toHaveAttribute("data-svc-state", "rendered");
  expect(await shownSkus(set)).toEqual(await expectedSkus(request, `w=SET&t=cart&s=${sku}&i=`));
  expect(await shownSkus(similar)).toEqual(await expectedSkus(request, `w=SIMILAR&t=cart&s=${sku}&i=`));
  expect(queries).toHaveLength(1);
  expect(queries[0].getAll("t")).toEqual(["cart", "cart"]);
  await expect(page.locator("#cart-lines li")).toHaveCount(1, SHOP_DATA);
});

test("cart: an empty cart leaves the widgets out, and no request is made", async ({ page }) => {
  const queries = contentQueries(page);
  await page.goto(base() + "/demo/cart.html");
  await expect(page.locator("#cart-status")).toHaveText("Your cart is empty.");
  await page.waitForFunction(() => window._svc && window._svc.loaded);
  expect(queries).toEqual([]);
  await expect(page.locator("[data-svc-widget-id]")).toHaveCount(0);
});

test("content page: SET-Custom by set id and by a SKU of that set", async ({ page, request }) => {
  const data = await graphql(request, `{ customSet(id: "demo-look-city") { products { id variants { edges { node { id } } } } } }`);
  const mainSku = data.customSet.products[0].id;
  const queries = contentQueries(page);
  await page.goto(base() + "/demo/content.html?sku=" + encodeURIComponent(mainSku));
  const bySet = page.locator("#story-set-widget");
  const bySku = page.locator("#story-sku-widget");
  await expect(bySet).toHaveAttribute("data-svc-state", "rendered");
  await expect(bySku).toHaveAttribute("data-svc-state", "rendered");
  const setSkus = await shownSkus(bySet);
  expect(setSkus.map((sku) => sku.replace(/-[^-]+$/, ""))).toEqual(data.customSet.products.map((product) => product.id));
  expect(await shownSkus(bySku)).toEqual(await expectedSkus(request, `w=SET-Custom&t=content&s=${encodeURIComponent(mainSku)}&i=`));
  // The set shown for the SKU contains that product.
  expect((await shownSkus(bySku)).some((sku) => sku.startsWith(mainSku))).toBe(true);
  expect(queries).toHaveLength(1);
  expect(queries[0].getAll("i")).toEqual(["demo-look-city", ""]);
  expect(queries[0].getAll("s")).toEqual(["", mainSku]);
});

test("category page: SIMILAR for the listing's first product, touchpoint category", async ({ page, request }) => {
  const category = "Men > Clothing > Jeans";
  const queries = contentQueries(page);
  const warnings = svcWarnings(page);
  await page.goto(base() + "/demo/category.html?c=" + encodeURIComponent(category));
  const widget = page.locator("#category-widget");
  await expect(widget).toHaveAttribute("data-svc-state", "rendered", SHOP_DATA);
  const catalog = await getJson(base() + "/demo/shop.json");
  const first = catalog.products.find((product) => product.category === category);
  await expect(widget).toHaveAttribute("data-sku", first.sku);
  expect(await shownSkus(widget)).toEqual(await expectedSkus(request, `w=SIMILAR&t=category&s=${first.sku}&i=`));
  expect(queries).toHaveLength(1);
  expect(queries[0].get("t")).toBe("category");
  expect(warnings).toEqual([]);  // added with its SKU, the widget was never invalid
});

test("search page: SIMILAR for the top hit, touchpoint search; a search without hits has no widget", async ({ page, request }) => {
  const queries = contentQueries(page);
  await page.goto(base() + "/demo/search.html?q=sneakers");
  const widget = page.locator("#search-widget");
  await expect(widget).toHaveAttribute("data-svc-state", "rendered", SHOP_DATA);
  const sku = await widget.getAttribute("data-sku");
  expect(await shownSkus(widget)).toEqual(await expectedSkus(request, `w=SIMILAR&t=search&s=${sku}&i=`));
  expect(queries).toHaveLength(1);
  expect(queries[0].get("t")).toBe("search");

  await page.goto(base() + "/demo/search.html?q=no-such-thing");
  await expect(page.locator("#search-title")).toHaveText("0 results for “no-such-thing”", SHOP_DATA);
  await expect(page.locator("#search-widget")).toHaveCount(0);
});
