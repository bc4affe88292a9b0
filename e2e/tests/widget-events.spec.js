// Widget events for attribution (issue 6): views, clicks and add-to-carts are batched in
// the page and sent with sendBeacon when the page is hidden; the real server stores them
// (read back from its events file).
const { test, expect } = require("@playwright/test");
const { execFileSync } = require("node:child_process");
const path = require("node:path");

const base = () => process.env.SVC_BASE_URL;
const productPage = () => base() + "/demo/product.html?sku=" + encodeURIComponent(process.env.SVC_FIRST_SKU);

function storedEvents(cid) {
  const file = path.join(process.env.SVC_DATA_DIR, "events.sqlite3");
  const out = execFileSync("sqlite3", ["-json", file,
    `SELECT type, cid, widget, touchpoint, sku, set_id, test_group, variant FROM events WHERE cid = '${cid}' ORDER BY sequence`],
    { encoding: "utf8" });
  return out.trim() ? JSON.parse(out) : [];
}

test("view, click and add-to-cart reach the server as a text/plain beacon when the page is hidden", async ({ page, context }) => {
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.addInitScript(() => {
    window._svc_shop_plugin = {
      testgroup: "T1",
      addToCart: (sku, quantity, P) => P.resolve(),
      navigateTo: () => {},  // keeps the page, so the click's event leaves with the later page hide
    };
    // A spy, not a stand-in: the real beacon still goes to the server.
    window.__beacons = [];
    const realBeacon = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, body) => { window.__beacons.push({ url, body, isString: typeof body === "string" }); return realBeacon(url, body); };
  });
  await page.goto(productPage());
  const similar = page.locator("#similar-widget");
  await expect(similar).toHaveAttribute("data-svc-state", "rendered");
  await similar.scrollIntoViewIfNeeded();
  const card = similar.locator("li.svc-card").nth(2);
  const cartSku = await card.getAttribute("data-svc-sku");
  await card.locator(".svc-card__cart").click();
  await expect(card.getByRole("status")).toHaveText("Added to cart");
  const clickSku = await similar.locator("li.svc-card").nth(0).getAttribute("data-svc-sku");
  await similar.locator("li.svc-card").nth(0).locator("a").click();
  await page.waitForTimeout(200);
  expect(await page.evaluate(() => window.__beacons.length)).toBe(0);  // nothing leaves while the page is shown

  const cid = (await context.cookies()).find((cookie) => cookie.name === "_svc_cid").value;
  const sid = await page.evaluate(() => sessionStorage.getItem("_svc_sid"));
  // The tab goes to the background.
  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
  });
  const beacons = await page.evaluate(() => window.__beacons);
  expect(beacons.length).toBe(1);
  // A string body is sent as text/plain: no CORS preflight. Beacons cannot set headers: the API ID is in the URL.
  expect(beacons[0].isString).toBe(true);
  expect(beacons[0].url).toBe(base() + "/events?apiId=" + process.env.SVC_API_ID);
  const body = JSON.parse(beacons[0].body);
  expect(body.events.length).toBeGreaterThanOrEqual(3);
  expect(body.events.every((event) => event.cid === cid && event.sid === sid)).toBe(true);

  await expect.poll(() => storedEvents(cid).length).toBeGreaterThanOrEqual(3);
  const events = storedEvents(cid);
  const similarView = events.find((event) => event.type === "view" && event.widget === "SIMILAR");
  expect(similarView).toMatchObject({ touchpoint: "product", sku: process.env.SVC_FIRST_SKU, test_group: "T1", variant: "default" });
  expect(events.filter((event) => event.type === "add-to-cart")).toEqual([
    { type: "add-to-cart", cid, widget: "SIMILAR", touchpoint: "product", sku: cartSku, set_id: null, test_group: "T1", variant: "default" },
  ]);
  expect(events.filter((event) => event.type === "click")).toEqual([
    { type: "click", cid, widget: "SIMILAR", touchpoint: "product", sku: clickSku, set_id: null, test_group: "T1", variant: "default" },
  ]);
  // The SET widget's events name its set.
  const setView = events.find((event) => event.type === "view" && event.widget === "SET");
  if (setView) expect(setView.set_id).toBeTruthy();

  // Later events leave with the page itself (pagehide on navigation); nothing is sent twice.
  const secondSku = await similar.locator("li.svc-card").nth(1).getAttribute("data-svc-sku");
  await similar.locator("li.svc-card").nth(1).locator(".svc-card__cart").click();
  await expect(similar.locator("li.svc-card").nth(1).getByRole("status")).toHaveText("Added to cart");
  const before = storedEvents(cid).length;
  await page.goto(base() + "/demo/");
  await expect.poll(() => storedEvents(cid).filter((event) => event.type === "add-to-cart").map((event) => event.sku))
    .toEqual([cartSku, secondSku]);
  expect(storedEvents(cid).length).toBe(before + 1);
});

test("a widget that was never on screen sends no view", async ({ page, context }) => {
  await page.setViewportSize({ width: 1000, height: 300 });
  await page.goto(productPage());
  await expect(page.locator("#similar-widget")).toHaveAttribute("data-svc-state", "rendered");
  // The similar widget is far below a 300 px viewport; scroll only the product into view.
  await page.locator("#product").scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  const cid = (await context.cookies()).find((cookie) => cookie.name === "_svc_cid").value;
  await page.evaluate(() => document.getElementById("similar-widget").getBoundingClientRect().top).then((top) => expect(top).toBeGreaterThan(300));
  await page.goto(base() + "/demo/");
  await page.waitForTimeout(500);
  expect(storedEvents(cid).filter((event) => event.widget === "SIMILAR")).toEqual([]);
});
