// The walking skeleton end to end: the demo product page loads the snippet, the
// Wasm SDK finds the SIMILAR widget, fetches content from the real server and
// renders product cards; a widget without content hides its container.
const { test, expect } = require("@playwright/test");

const base = () => process.env.SVC_BASE_URL;

async function similarIdsFromGraphql(request, sku) {
  const response = await request.post(base() + "/graphql", {
    headers: { "x-api-id": process.env.SVC_API_ID, "content-type": "application/json" },
    data: { query: `{ product(id: ${JSON.stringify(sku)}) { id similarProducts(first: 12) { edges { node { id } } } } }` },
  });
  expect(response.ok()).toBeTruthy();
  const body = await response.json();
  return body.data.product.similarProducts.edges.map((edge) => edge.node.id);
}

test("product page shows similar products from the imported catalog", async ({ page, request }) => {
  const consoleProblems = [];
  page.on("console", (message) => { if (["error", "warning"].includes(message.type())) consoleProblems.push(message.text()); });
  page.on("pageerror", (error) => consoleProblems.push(error.message));
  const sku = process.env.SVC_FIRST_SKU;

  await page.goto(base() + "/demo/product.html?sku=" + encodeURIComponent(sku));
  const widget = page.locator("#similar-widget");
  await expect(widget).toHaveAttribute("data-svc-state", "rendered");
  await expect(page.locator("#similar-container")).toBeVisible();

  const cards = widget.locator("li.svc-card");
  const count = await cards.count();
  expect(count).toBeGreaterThan(0);
  expect(count).toBeLessThanOrEqual(12);

  // The same engine answers GraphQL: the widget shows exactly those products, in order.
  const expectedMainSkus = await similarIdsFromGraphql(request, sku);
  const shownSkus = await cards.evaluateAll((items) => items.map((item) => item.getAttribute("data-svc-sku")));
  expect(shownSkus.map((shown) => shown.replace(/-[^-]+$/, ""))).toEqual(expectedMainSkus);

  // Every card is a real product of the shop's catalog, of the anchor's category, not the anchor itself.
  const catalog = await (await request.get(base() + "/demo/shop.json")).json();
  const anchor = catalog.products.find((product) => product.variants.some((variant) => variant.sku === sku));
  for (let i = 0; i < count; i++) {
    const card = cards.nth(i);
    const shownSku = shownSkus[i];
    const product = catalog.products.find((candidate) => candidate.variants.some((variant) => variant.sku === shownSku));
    expect(product, `card ${i} (${shownSku}) is in the catalog`).toBeTruthy();
    expect(product.category).toBe(anchor.category);
    expect(product.mainSku).not.toBe(anchor.mainSku);
    await expect(card.locator(".svc-card__name")).toHaveText(product.name);
    await expect(card.locator("img")).toHaveAttribute("alt", product.name);
    await expect(card.locator("img")).toHaveAttribute("src", product.image);
    await expect(card.locator("a")).toHaveAttribute("href", /\/demo\/product\.html\?sku=/);
    await expect(card.locator(".svc-card__selling")).toHaveText((product.price / 100).toFixed(2).replace(".", ",") + "\u00a0€");
  }
  // The image really loads from the server.
  await expect.poll(() => cards.first().locator("img").evaluate((img) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  expect(consoleProblems).toEqual([]);
});

test("a widget without content hides its whole container", async ({ page }) => {
  await page.goto(base() + "/demo/product.html?sku=NO-SUCH-SKU");
  await expect(page.locator("#similar-widget")).toHaveAttribute("data-svc-state", "empty");
  await expect(page.locator("#similar-container")).toBeHidden();
  await expect(page.locator("#similar-widget li")).toHaveCount(0);
});

test("the loader is served per API ID and refuses unknown ones", async ({ request }) => {
  const known = await request.get(base() + "/" + process.env.SVC_API_ID + "/loader.js");
  expect(known.status()).toBe(200);
  expect(known.headers()["content-type"]).toContain("text/javascript");
  expect(await known.text()).toContain(JSON.stringify(process.env.SVC_API_ID));
  const unknown = await request.get(base() + "/00000000-0000-4000-8000-000000000000/loader.js");
  expect(unknown.status()).toBe(404);
  const wasm = await request.get(base() + "/sdk/sdk.wasm");
  expect(wasm.headers()["content-type"]).toBe("application/wasm");
  expect(wasm.headers()["cache-control"]).toContain("max-age");
});

test("the loader stays under 1 KB gzipped", async ({ request }) => {
  const zlib = require("node:zlib");
  const loader = await (await request.get(base() + "/" + process.env.SVC_API_ID + "/loader.js")).body();
  expect(zlib.gzipSync(loader, { level: 9 }).length).toBeLessThanOrEqual(1024);
});
