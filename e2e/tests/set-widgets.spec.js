// SET and SET-Custom widgets in the demo shop, filled by the recommendation engine:
// complementary products of other categories on a product page, and the demo's custom
// set on the home page, each the same content GraphQL gives.
const { test, expect } = require("@playwright/test");

const base = () => process.env.SVC_BASE_URL;

async function graphql(request, query) {
  const response = await request.post(base() + "/graphql", {
    headers: { "x-api-id": process.env.SVC_API_ID, "content-type": "application/json" },
    data: { query },
  });
  expect(response.ok()).toBeTruthy();
  return (await response.json()).data;
}

test("a product page shows a complementary set: one product per cluster, none of the anchor's category", async ({ page, request }) => {
  const sku = process.env.SVC_FIRST_SKU;
  await page.goto(base() + "/demo/product.html?sku=" + encodeURIComponent(sku));
  const widget = page.locator("#set-widget");
  await expect(widget).toHaveAttribute("data-svc-state", "rendered");
  await expect(page.locator("#set-container")).toBeVisible();
  const shown = await widget.locator("li.svc-card").evaluateAll((items) => items.map((item) => item.getAttribute("data-svc-sku")));

  const data = await graphql(request, `{ product(id: ${JSON.stringify(sku)}) { matchingProductClusters(first: 8) {
      edges { node { name products(first: 1) { edges { node { id } } } } } } } }`);
  const firstOfEachCluster = data.product.matchingProductClusters.edges.map((edge) => edge.node.products.edges[0].node.id);
  expect(firstOfEachCluster.length).toBeGreaterThanOrEqual(2);
  expect(shown.map((variantSku) => variantSku.replace(/-[^-]+$/, ""))).toEqual(firstOfEachCluster);

  const catalog = await (await request.get(base() + "/demo/shop.json")).json();
  const bySku = (wanted) => catalog.products.find((product) => product.variants.some((variant) => variant.sku === wanted));
  const anchor = bySku(sku);
  const categories = new Set();
  for (const variantSku of shown) {
    const product = bySku(variantSku);
    expect(product, `${variantSku} is in the catalog`).toBeTruthy();
    expect(product.category).not.toBe(anchor.category);
    expect(product.category.split(" > ")[0]).toBe(anchor.category.split(" > ")[0]);  // the same department
    categories.add(product.category);
  }
  expect(categories.size).toBe(shown.length);  // one product per category
});

test("the home page shows the demo's custom set by its id, as GraphQL's customSet", async ({ page, request }) => {
  await page.goto(base() + "/demo/");
  const widget = page.locator("#look-widget");
  await expect(widget).toHaveAttribute("data-svc-state", "rendered");
  const shown = await widget.locator("li.svc-card").evaluateAll((items) => items.map((item) => item.getAttribute("data-svc-sku")));
  const data = await graphql(request, `{ customSet(id: "demo-look-city") { title products { id } } }`);
  expect(data.customSet.title).toBe("City weekend");
  expect(shown.map((variantSku) => variantSku.replace(/-[^-]+$/, ""))).toEqual(data.customSet.products.map((product) => product.id));
  expect(shown.length).toBeGreaterThanOrEqual(3);
});
