// Demo mode (issue 6, docs/adr/0022): SET-Compose previews widgets from the SDK's built-in
// demo catalog, without a content request, also for a tenant that has no products at all.
// Outside demo mode SET-Compose stays hidden with one console warning.
const { test, expect } = require("@playwright/test");
const { execFileSync } = require("node:child_process");
const path = require("node:path");

const base = () => process.env.SVC_BASE_URL;
const serverBinary = () => process.env.SVC_SERVER || path.join(__dirname, "..", "..", "build", "bin", "svc-server");

function watch(page) {
  const seen = { errors: [], warnings: [], contentRequests: [] };
  page.on("pageerror", (error) => seen.errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "warning" && message.text().startsWith("[svc]")) seen.warnings.push(message.text());
  });
  page.on("request", (request) => { if (/\/content\?/.test(request.url())) seen.contentRequests.push(request.url()); });
  return seen;
}

async function expectDemoLook(page, seen) {
  const widget = page.locator("#compose-widget");
  await expect(widget).toHaveAttribute("data-svc-state", "rendered");
  await expect(page.locator("#compose-container")).toBeVisible();
  const cards = widget.locator("li.svc-card");
  await expect(cards).toHaveCount(4);
  await expect(cards.first()).toContainText("Linen shirt");
  const skus = await cards.evaluateAll((items) => items.map((item) => item.getAttribute("data-svc-sku")));
  expect(skus.every((sku) => sku.startsWith("svc-demo-"))).toBe(true);
  // Images come from the SDK's host and load.
  const image = cards.first().locator("img");
  await expect(image).toHaveAttribute("src", base() + "/sdk/demo-shirt.svg");
  await expect.poll(() => image.evaluate((element) => element.complete && element.naturalWidth)).toBeGreaterThan(0);
  // Demo SKUs are in no shop's cart: no add-to-cart buttons.
  await expect(widget.locator("[data-svc-action=cart]")).toHaveCount(0);
  expect(seen.contentRequests).toEqual([]);  // the demo needs no backend content
  expect(seen.errors).toEqual([]);
}

test("outside demo mode SET-Compose is hidden with exactly one warning", async ({ page }) => {
  const seen = watch(page);
  await page.goto(base() + "/demo/demo.html");
  await expect(page.locator("#compose-widget")).toHaveAttribute("data-svc-state", "demo-only");
  await expect(page.locator("#compose-container")).toBeHidden();
  await page.waitForTimeout(200);
  expect(seen.warnings).toHaveLength(1);
  expect(seen.warnings[0]).toContain("SET-Compose shows demo content only in demo mode");
  expect(seen.contentRequests).toEqual([]);
  expect(seen.errors).toEqual([]);
});

test("svc-demo=true in the URL shows the demo look; its alternatives work", async ({ page }) => {
  const seen = watch(page);
  await page.goto(base() + "/demo/demo.html?svc-demo=true");
  await expectDemoLook(page, seen);
  const first = page.locator("#compose-widget li.svc-card").first();
  await first.locator("[data-svc-action=alt]").nth(1).click();
  await expect(first).toContainText("Linen shirt, blue");
  expect(seen.warnings).toEqual([]);
});

test("window._svc_config = {isDemoMode: true} shows the demo look", async ({ page }) => {
  await page.addInitScript(() => { window._svc_config = { isDemoMode: true }; });
  const seen = watch(page);
  await page.goto(base() + "/demo/demo.html");
  await expectDemoLook(page, seen);
});

test("_svc.demo('SET-Compose') fills the hidden widget; another widget id only warns", async ({ page }) => {
  const seen = watch(page);
  await page.goto(base() + "/demo/demo.html");
  await expect(page.locator("#compose-widget")).toHaveAttribute("data-svc-state", "demo-only");
  await page.evaluate(() => window._svc.demo("SIMILAR"));
  await expect(page.locator("#compose-container")).toBeHidden();
  await page.evaluate(() => window._svc.demo("SET-Compose"));
  await expectDemoLook(page, seen);
  expect(seen.warnings).toHaveLength(2);
  expect(seen.warnings[1]).toBe("[svc] demo: widgetId 'SIMILAR' has no demo; only SET-Compose supports demo mode");
});

test("_svc.demo called before the SDK arrived is queued by the loader and run once", async ({ page }) => {
  // sdk.js is held back (then served as is) until the shop has called _svc.demo on the loader's queue.
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route(/\/sdk\/([0-9a-f]{16}\/)?sdk\.js$/, async (route) => { await held; await route.continue(); });
  const seen = watch(page);
  await page.goto(base() + "/demo/demo.html", { waitUntil: "domcontentloaded" });
  await page.waitForFunction(() => window._svc && Array.isArray(window._svc.q));
  await page.evaluate(() => window._svc.demo("SET-Compose"));
  expect(await page.evaluate(() => window._svc.q.length)).toBe(1);
  release();
  await expectDemoLook(page, seen);
  expect(await page.evaluate(() => window._svc.q.length)).toBe(0);
  expect(seen.warnings).toEqual([]);  // never hidden as demo-only: the queued call ran before the widgets were shown
});

test("demo mode works for a tenant with no products at all", async ({ page, request }) => {
  const created = JSON.parse(execFileSync(serverBinary(),
    ["tenant", "create", "--data-dir", process.env.SVC_DATA_DIR, "--name", "Shop without a feed"], { encoding: "utf8" }));
  // The tenant really has nothing: its content for any SKU is empty.
  const content = await request.get(base() + "/" + created.apiId + "/content?w=SIMILAR&t=product&s=ANY&i=");
  const body = await content.json();
  expect(content.ok() ? body.widgets[0].items : []).toEqual([]);
  const seen = watch(page);
  await page.goto(base() + "/demo/demo.html?svc-demo=true&apiId=" + created.apiId);
  await expect(page.locator("script[data-svc-loader]")).toHaveAttribute("src", base() + "/" + created.apiId + "/loader.js");
  await expectDemoLook(page, seen);
});
