// The Widgets page's preview (issue #9, docs/adr/0049) in Chromium against the real server of
// global-setup.js: every widget type at several touchpoints, rendered by the real SDK with the
// demo tenant's own catalog, and the operator's unsaved texts and CSS shown in the preview while
// the shop's page keeps the saved ones until "Save". The demo tenant's settings are put back
// afterwards; the test's texts are French, a language no other test uses.
const { test, expect } = require("@playwright/test");
const { signedIn, audit } = require("../support/console");

const base = () => process.env.SVC_BASE_URL;
const apiId = () => process.env.SVC_API_ID;
const sku = () => process.env.SVC_FIRST_SKU;
const widgetsPath = () => base() + "/operator/api/tenants/" + encodeURIComponent(apiId()) + "/widgets";



// Every SKU of the demo catalog (main SKUs and variants).
async function catalogSkus(request) {
  const catalog = await (await request.get(base() + "/demo/shop.json")).json();
  const skus = new Set();
  for (const product of catalog.products) {
    skus.add(product.mainSku);
    for (const variant of product.variants) skus.add(variant.sku);
  }
  return skus;
}

// Read again when the preview reloads while it is read ("Execution context was destroyed"):
// each control's change loads a new preview document, and a debounced one may still follow.
async function shownSkus(widget) {
  let skus = [];
  await expect(async () => {
    await expect(widget).toHaveAttribute("data-svc-state", "rendered", { timeout: 5_000 });
    skus = await widget.locator("li.svc-card").evaluateAll((items) => items.map((item) => item.getAttribute("data-svc-sku")));
  }).toPass({ timeout: 15_000 });
  return skus;
}

test("every widget type and touchpoints with the tenant's catalog; draft texts and CSS before saving, the shop after", async ({ page, context }) => {
  test.setTimeout(45_000);
  const csrf = await signedIn(page);
  const saved = await (await page.request.get(widgetsPath())).json();
  try {
    const skus = await catalogSkus(page.request);
    await page.goto(base() + "/console/widgets.html?apiId=" + encodeURIComponent(apiId()));
    await expect(page.locator("#preview-catalog")).toContainText("products in the catalog");
    await audit(page);
    const frame = page.frameLocator("#preview");

    await page.getByLabel("Product SKU").fill(sku());
    const cases = [
      { type: "SIMILAR", touchpoint: "product", widget: "#similar-widget" },
      { type: "SET", touchpoint: "cart", widget: "#set-widget" },
      { type: "SIMILAR", touchpoint: "search", widget: "#similar-widget" },
      { type: "SET", touchpoint: "cart-layer", widget: "#set-widget" },
    ];
    for (const { type, touchpoint, widget } of cases) {
      await page.getByLabel("Widget type").selectOption(type);
      await page.getByLabel("Touchpoint").selectOption(touchpoint);
      const element = frame.locator(widget);
      await expect(element).toHaveAttribute("data-touchpoint", touchpoint);
      const shown = await shownSkus(element);
      expect(shown.length, `${type} at ${touchpoint}`).toBeGreaterThan(0);
      for (const shownSku of shown) expect(skus.has(shownSku), `${shownSku} of ${type} is the tenant's`).toBe(true);
    }

    // SET-Custom: the tenant's own sets, listed by the page; the touchpoint follows the type.
    await page.getByLabel("Widget type").selectOption("SET-Custom");
    await expect(page.getByLabel("Touchpoint")).toHaveValue("content");
    const setIds = await page.locator("#previewSet option").evaluateAll((options) => options.map((o) => o.value).filter(Boolean));
    expect(setIds.length).toBeGreaterThan(0);
    await page.getByLabel("Custom set").selectOption(setIds[0]);
    const custom = frame.locator("#set-custom-widget");
    await expect(custom).toHaveAttribute("data-set-id", setIds[0]);
    const customSkus = await shownSkus(custom);
    expect(customSkus.length).toBeGreaterThan(0);
    for (const shownSku of customSkus) expect(skus.has(shownSku)).toBe(true);

    // SET-Compose: the SDK's demo look (demo mode), never a feed's SKU.
    await page.getByLabel("Widget type").selectOption("SET-Compose");
    const composeSkus = await shownSkus(frame.locator("#set-compose-widget"));
    expect(composeSkus.length).toBeGreaterThan(0);
    expect(composeSkus.every((shownSku) => shownSku.startsWith("svc-demo-"))).toBe(true);

    // Draft texts (French, a new language) and CSS show in the preview at once ...
    await page.getByLabel("Widget type").selectOption("SIMILAR");
    await page.getByLabel("Add a language").fill("fr");
    await page.getByRole("button", { name: "Add language" }).click();
    await expect(page.getByLabel("Page language")).toHaveValue("fr");
    await page.getByLabel("addToCart", { exact: true }).fill("Ajouter au panier maintenant");
    const previewCart = frame.locator("#similar-widget .svc-card__cart").first();
    await expect(previewCart).toHaveText("Ajouter au panier maintenant");
    const css = saved.css + "\n.svc-widget .svc-card .svc-card__cart { background-color: rgb(0, 0, 128) !important; }";
    await page.getByLabel("CSS of the tenant").fill(css);
    await expect(previewCart).toHaveCSS("background-color", "rgb(0, 0, 128)");

    // ... while a shop's page still has the saved ones: nothing of the draft left the browser.
    const shop = await context.newPage();
    const shopUrl = base() + "/demo/texts.html?lang=fr&sku=" + encodeURIComponent(sku());
    await shop.goto(shopUrl);
    const shopCart = shop.locator("#similar-widget .svc-card__cart").first();
    await expect(shop.locator("#similar-widget")).toHaveAttribute("data-svc-state", "rendered");
    await expect(shopCart).not.toHaveText("Ajouter au panier maintenant");
    await expect(shopCart).not.toHaveCSS("background-color", "rgb(0, 0, 128)");

    await page.getByRole("button", { name: "Save widget settings" }).click();
    await expect(page.getByText("Widget settings saved.")).toBeVisible();
    await shop.goto(shopUrl);
    await expect(shopCart).toHaveText("Ajouter au panier maintenant");
    await expect(shopCart).toHaveCSS("background-color", "rgb(0, 0, 128)");
    await page.screenshot({ path: test.info().outputPath("widgets-preview.png"), fullPage: true });
  } finally {
    // The demo tenant as it was, for the other tests.
    const restored = await page.request.put(widgetsPath(), {
      headers: { "x-csrf-token": csrf },
      data: { languageRule: saved.languageRule, defaultLanguage: saved.defaultLanguage, css: saved.css, texts: saved.texts },
    });
    expect(restored.status()).toBe(200);
  }
});

test("a tenant without a catalog is told so and previews SET-Compose's demo look", async ({ page }) => {
  await signedIn(page);
  await page.goto(base() + "/console/tenants.html");
  await page.getByLabel("Shop name").fill("Empty Preview Shop");
  await page.getByRole("button", { name: "Create tenant" }).click();
  await expect(page.locator("#secret-box")).toBeVisible();
  // The element is there, empty, before the tenant is created: wait for the ID itself.
  await expect(page.locator("#secret-api-id")).not.toBeEmpty();
  const emptyId = await page.locator("#secret-api-id").textContent();
  await page.goto(base() + "/console/widgets.html?apiId=" + encodeURIComponent(emptyId));
  await expect(page.locator("#preview-catalog")).toContainText("This tenant has no catalog yet");
  await expect(page.getByLabel("Widget type")).toHaveValue("SET-Compose");
  const composeSkus = await shownSkus(page.frameLocator("#preview").locator("#set-compose-widget"));
  expect(composeSkus.every((shownSku) => shownSku.startsWith("svc-demo-"))).toBe(true);
  // The draft CSS reaches the demo look too, before saving.
  await page.getByLabel("CSS of the tenant").fill(".svc-widget .svc-card__name { color: rgb(128, 0, 0) !important; }");
  await expect(page.frameLocator("#preview").locator("#set-compose-widget .svc-card__name").first()).toHaveCSS("color", "rgb(128, 0, 0)");
});
