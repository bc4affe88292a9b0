// An A/B test page (issue 6): the shop's testgroup (_svc_shop_plugin.testgroup) reaches every
// widget event the real server stores; the control group has no widget in the DOM and sends
// no content request.
const { test, expect } = require("@playwright/test");
const { execFileSync } = require("node:child_process");
const path = require("node:path");

const base = () => process.env.SVC_BASE_URL;

function storedEvents(cid) {
  const file = path.join(process.env.SVC_DATA_DIR, "events.sqlite3");
  const out = execFileSync("sqlite3", ["-json", file,
    `SELECT type, widget, touchpoint, sku, test_group FROM events WHERE cid = '${cid}' ORDER BY sequence`], { encoding: "utf8" });
  return out.trim() ? JSON.parse(out) : [];
}

test("the shop's test group reaches the view and click events", async ({ page, context }) => {
  const sku = process.env.SVC_FIRST_SKU;
  await page.setViewportSize({ width: 1000, height: 900 });
  // The shop's router keeps the page, so the click's event leaves with the later page hide.
  await page.addInitScript(() => {
    window._svc_shop_plugin = { addToCart: (sku, quantity, P) => P.resolve(), navigateTo: () => {} };
  });
  await page.goto(base() + "/demo/ab.html?group=reco-2&sku=" + encodeURIComponent(sku));
  const widget = page.locator("#ab-widget");
  await expect(widget).toHaveAttribute("data-svc-state", "rendered");
  await widget.scrollIntoViewIfNeeded();
  const card = widget.locator("li.svc-card").first();
  const clicked = await card.getAttribute("data-svc-sku");
  await card.locator("a").first().click();
  const cid = (await context.cookies()).find((cookie) => cookie.name === "_svc_cid").value;
  await page.goto(base() + "/demo/");  // page hide: the events leave with a beacon
  await expect.poll(() => storedEvents(cid).length).toBeGreaterThanOrEqual(2);
  const events = storedEvents(cid);
  expect(events.find((event) => event.type === "view")).toEqual(
    { type: "view", widget: "SIMILAR", touchpoint: "product", sku, test_group: "reco-2" });
  expect(events.find((event) => event.type === "click")).toEqual(
    { type: "click", widget: "SIMILAR", touchpoint: "product", sku: clicked, test_group: "reco-2" });
  expect(events.every((event) => event.test_group === "reco-2")).toBe(true);
});

test("the control group has no widget in the DOM and asks for no content", async ({ page }) => {
  const requests = [];
  page.on("request", (request) => { if (/\/content\?/.test(request.url())) requests.push(request.url()); });
  await page.goto(base() + "/demo/ab.html?group=control&sku=" + encodeURIComponent(process.env.SVC_FIRST_SKU));
  await expect(page.locator("#ab-title")).toHaveText("Test group control");
  await page.waitForFunction(() => window._svc && window._svc.loaded);
  await expect(page.locator("[data-svc-widget-id]")).toHaveCount(0);
  expect(requests).toEqual([]);
});
