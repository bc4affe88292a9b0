// The tag-manager recipe of docs/integration.md (section 8), as written there: a page that loads
// without svc, pushes GA4 view_item events to its data layer and gets both tags injected late the
// way a tag manager injects Custom HTML (script elements made by script, after the page loaded).
const { test, expect } = require("@playwright/test");
const fs = require("node:fs");
const path = require("node:path");
const { documentedSnippet, startShop } = require("../support/shop.js");

const guide = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "integration.md"), "utf8");
const recipe = guide.match(/### A tag manager\n([\s\S]*?)(\n## |\n### |$)/)[1];
const [tag1, tag2] = [...recipe.matchAll(/```html\n([\s\S]*?)```/g)].map((match) => match[1]);

let shop;
test.beforeAll(async () => { shop = await startShop(); });
test.afterAll(async () => { await shop.close(); });

// What a tag manager does with a Custom HTML tag: its scripts become new script elements.
function inject(page, html) {
  return page.evaluate((markup) => {
    const holder = document.createElement("div");
    holder.innerHTML = markup;
    for (const old of holder.querySelectorAll("script")) {
      const script = document.createElement("script");
      script.text = old.text;
      document.body.appendChild(script);
    }
  }, html);
}

const viewItem = (sku) => ({ event: "view_item", ecommerce: { items: [{ item_id: sku, item_name: "A product" }] } });

test("tag 1 injected after load builds the widget from the data layer; tag 2 follows a variant change", async ({ page }) => {
  const sku = process.env.SVC_FIRST_SKU;
  shop.pages["/product.html"] = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Product</title>
    <script>window.dataLayer = [{ event: "page_view" }]; dataLayer.push(${JSON.stringify(viewItem(sku))});</script></head>
    <body><h1>Product</h1><section class="-svc-widget-container"><h2>Similar</h2><div id="svc-similar"></div></section></body></html>`;
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  await page.goto(shop.origin + "/product.html");
  await page.waitForLoadState("load");
  await page.waitForTimeout(300);  // the tag manager's own loading

  const snippet = documentedSnippet(process.env.SVC_BASE_URL, process.env.SVC_API_ID);
  expect(tag1).toContain("<!-- the snippet of section 1 -->");
  await inject(page, tag1.replace("<!-- the snippet of section 1 -->", snippet));
  const widget = page.locator("#svc-similar [data-svc-widget-id]");
  await expect(widget).toHaveAttribute("data-svc-state", "rendered");
  await expect(widget).toHaveAttribute("data-sku", sku);
  const firstCards = await widget.locator("[data-svc-sku]").evaluateAll((cards) => cards.map((card) => card.getAttribute("data-svc-sku")));
  expect(firstCards.length).toBeGreaterThan(0);

  // The shopper picks another colour: the shop pushes view_item, the tag manager runs tag 2.
  const other = firstCards[0];
  await page.evaluate((event) => window.dataLayer.push(event), viewItem(other));
  await inject(page, tag2.replace("{{SKU}}", JSON.stringify(other)));
  await expect(widget).toHaveAttribute("data-sku", other);
  await expect(widget).toHaveAttribute("data-svc-state", "rendered");
  await expect.poll(() => widget.locator("[data-svc-sku]").evaluateAll((cards) => cards.map((card) => card.getAttribute("data-svc-sku"))))
    .not.toEqual(firstCards);
  expect(errors).toEqual([]);
});
