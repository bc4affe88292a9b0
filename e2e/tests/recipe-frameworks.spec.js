// The framework recipes of docs/integration.md (section 8), with the real React from npm built in
// the test (esbuild): docs/examples/react/SimilarWidget.jsx client-rendered with route changes, and
// server-rendered (react-dom/server) then hydrated after the SDK already filled the widget, without
// a hydration warning. A naive widget is the control: the same check sees React's complaint there.
// Vue: docs/examples/vue/SimilarWidget.js the same ways (vue/server-renderer for the server side).
const { test, expect } = require("@playwright/test");
const esbuild = require("esbuild");
const path = require("node:path");
const { shopPage, startShop } = require("../support/shop.js");

let shop;
let bundles;
let server;
let skus;
test.beforeAll(async () => {
  test.setTimeout(60_000);
  shop = await startShop();
  const build = (entry, options) => esbuild.buildSync({
    entryPoints: [path.join(__dirname, "..", "recipes", entry)], bundle: true, write: false, jsx: "automatic",
    define: { "process.env.NODE_ENV": '"development"', __VUE_OPTIONS_API__: "true", __VUE_PROD_DEVTOOLS__: "false",
              __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "true" },
    // The examples live in docs/: their imports resolve from e2e's node_modules.
    nodePaths: [path.join(__dirname, "..", "node_modules")],
    logLevel: "silent", ...options,
  }).outputFiles[0].text;
  bundles = {
    react: build("react-app.jsx", { format: "iife", globalName: "Shop", platform: "browser" }),
    vue: build("vue-app.js", { format: "iife", globalName: "Shop", platform: "browser" }),
  };
  // The server bundles run here in Node, outside Playwright's transform of required files (slow for 2 MB).
  const load = (code) => {
    const module = { exports: {} };
    new Function("module", "exports", "require", code)(module, module.exports, require);
    return module.exports;
  };
  server = { react: load(build("react-app.jsx", { format: "cjs", platform: "node" })),
             vue: load(build("vue-app.js", { format: "cjs", platform: "node" })) };
  // Two products with SIMILAR content: the first SKU and the first product similar to it.
  const first = process.env.SVC_FIRST_SKU;
  const content = await (await fetch(`${process.env.SVC_BASE_URL}/${process.env.SVC_API_ID}/content?w=SIMILAR&t=product&s=${first}&i=`)).json();
  skus = [first, content.widgets[0].items[0].sku];
});
test.afterAll(async () => { await shop.close(); });

let pageCount = 0;
function publish(body) {
  const pagePath = `/app-${++pageCount}.html`;
  shop.pages[pagePath] = shopPage({ sdkUrl: process.env.SVC_BASE_URL, apiId: process.env.SVC_API_ID, body });
  return shop.origin + pagePath;
}

// Console errors and warnings (React's and Vue's hydration complaints, the SDK's), page errors.
function watch(page) {
  const problems = [];
  page.on("console", (message) => {
    // Product images of the demo catalog are not on this test shop: their 404s are no one's complaint.
    if (message.text().startsWith("Failed to load resource")) return;
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(String(error)));
  return problems;
}

async function runApp(page, which, props, hydrate) {
  await page.evaluate(([code, args, again]) => {
    const script = document.createElement("script");
    script.text = code;
    document.head.appendChild(script);
    window.Shop.start(args, again);
  }, [bundles[which], props, hydrate]);
}

async function cardsOf(widget) {
  return widget.locator("[data-svc-sku]").evaluateAll((cards) => cards.map((card) => card.getAttribute("data-svc-sku")));
}

async function routeChange(page, widget, firstCards) {
  await page.click("#next");
  await expect(widget).toHaveAttribute("data-sku", skus[1]);
  await expect(widget).toHaveAttribute("data-svc-state", "rendered");
  await expect.poll(() => cardsOf(widget)).not.toEqual(firstCards);
}

for (const which of ["react", "vue"]) {
  test(`${which}: a client-rendered app shows the widget and follows a route change`, async ({ page }) => {
    const problems = watch(page);
    await page.goto(publish('<div id="root"></div>'));
    await runApp(page, which, { skus }, false);
    const widget = page.locator("#root [data-svc-widget-id]");
    await expect(widget).toHaveAttribute("data-svc-state", "rendered");
    const firstCards = await cardsOf(widget);
    expect(firstCards.length).toBeGreaterThan(0);
    await routeChange(page, widget, firstCards);
    expect(problems).toEqual([]);
  });
}

for (const which of ["react", "vue"]) {
  test(`${which}: server-rendered, filled by svc before it hydrates: no hydration warning, the widget stays`, async ({ page }) => {
    const problems = watch(page);
    await page.goto(publish(`<div id="root">${await server[which].serverHtml({ skus })}</div>`));
    const widget = page.locator("#root [data-svc-widget-id]");
    await expect(widget).toHaveAttribute("data-svc-state", "rendered");
    const firstCards = await cardsOf(widget);
    await runApp(page, which, { skus }, true);
    await page.waitForTimeout(500);
    expect(problems).toEqual([]);
    expect(await cardsOf(widget)).toEqual(firstCards);  // the framework kept what svc rendered
    await routeChange(page, widget, firstCards);
    expect(problems).toEqual([]);
  });
}

test("react control: a naive widget hydrated after svc filled it makes React complain (the check sees it)", async ({ page }) => {
  const problems = watch(page);
  await page.goto(publish(`<div id="root">${server.react.serverHtml({ skus, naive: true })}</div>`));
  await expect(page.locator("#root [data-svc-widget-id]")).toHaveAttribute("data-svc-state", "rendered");
  await runApp(page, "react", { skus, naive: true }, true);
  await expect.poll(() => problems.join("\n")).toMatch(/hydrat/i);
});
