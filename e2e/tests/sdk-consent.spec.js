// Consent (issue 25, docs/adr/0083): under pending or denied the SDK writes no cookie and no storage
// item (not even _svc_cid) and attributes nothing, while widgets still render; granting starts the
// cookie then; denied removes what svc wrote before; a tenant's default comes through loader.js.
// A shop's page on its own origin with the documented snippet, the real SDK, svc-server and its CLI;
// cookies and storage read from Chromium itself.
const { test, expect } = require("@playwright/test");
const { execFileSync } = require("node:child_process");
const path = require("node:path");
const { shopPage, startShop } = require("../support/shop.js");

const serverBinary = process.env.SVC_SERVER || path.join(__dirname, "..", "..", "build", "bin", "svc-server");
const sku = () => process.env.SVC_FIRST_SKU;

let shop;
test.beforeAll(async () => { shop = await startShop(); });
test.afterAll(async () => { await shop.close(); });

let pageCount = 0;
function publish(body, { head = "", apiId = process.env.SVC_API_ID } = {}) {
  const pagePath = `/consent-${++pageCount}.html`;
  shop.pages[pagePath] = shopPage({ sdkUrl: process.env.SVC_BASE_URL, apiId, head, body });
  return shop.origin + pagePath;
}

// The shop's consent state, set before the snippet (its <script> comes first in <head>, so the
// config goes into the page's first script through an init script).
async function startWith(page, consent) {
  await page.addInitScript((state) => {
    if (state) window._svc_config = { consent: state };
    window.__events = [];
    const realBeacon = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, body) => {
      try {
        const parsed = JSON.parse(body);
        window.__events.push(...(parsed.events || [parsed]));
      } catch (ignored) {}
      return realBeacon(url, body);
    };
  }, consent);
  await page.addInitScript(() => {
    // navigateTo: a product click stays on this page (a single-page app's router).
    window._svc_shop_plugin = { addToCart: (sku, quantity, Promise) => Promise.resolve(), navigateTo: () => {} };
  });
}

const widget = () => `<div id="w" data-svc-widget-id="SIMILAR" data-touchpoint="product" data-sku="${sku()}"></div>`;

async function flushEvents(page) {
  return page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
    Object.defineProperty(document, "visibilityState", { value: "visible", configurable: true });
    return window.__events.splice(0);
  });
}

// Everything svc could have left in this browser: cookies of any site, and the page's storage.
async function stored(page) {
  const cookies = (await page.context().cookies()).map((cookie) => cookie.name);
  const storage = await page.evaluate(() => ({ local: Object.keys(localStorage), session: Object.keys(sessionStorage) }));
  return { cookies, ...storage };
}
const nothing = { cookies: [], local: [], session: [] };

test("pending: widgets render, nothing is written or sent; granting starts the cookie and the events", async ({ page }) => {
  await startWith(page, "pending");
  await page.goto(publish(widget()));
  await expect(page.locator("#w")).toHaveAttribute("data-svc-state", "rendered");
  await page.locator("#w .svc-card__cart").first().click();
  await page.locator("#w a.svc-card__link").first().click();
  await page.evaluate(() => svclytics("purchase", { customerid: "anonymous", orderid: "CONSENT-1",
                                                    products: [{ sku: "A", amount: 1, price: 100 }] }));
  // Nothing left the page (the purchase waits for the answer), nothing was written.
  expect(await page.evaluate(() => window.__events)).toEqual([]);
  expect(await stored(page)).toEqual(nothing);

  // The banner answers: the cookie and storage now, the waiting purchase with the visitor's id.
  await page.evaluate(() => window._svc.consent("granted"));
  const cid = (await page.context().cookies()).find((cookie) => cookie.name === "_svc_cid");
  expect(cid && cid.value).toMatch(/^[0-9a-f]{32}$/);
  expect(await stored(page)).toEqual({ cookies: ["_svc_cid"], local: ["_svc_cse_config"], session: ["_svc_sid"] });
  await page.locator("#w a.svc-card__link").first().click();
  const events = await flushEvents(page);
  // Only what happened after the grant: the purchase (it waited, and left at the grant) and the new click;
  // the view, click and add-to-cart before it were never recorded.
  expect(events.map((event) => [event.type, event.cid])).toEqual([["purchase", cid.value], ["click", cid.value]]);
});

test("denied: what svc wrote before is removed, the purchase goes without a visitor id, nothing else is sent", async ({ page }) => {
  await startWith(page, null);
  await page.goto(publish(widget()));
  await expect(page.locator("#w")).toHaveAttribute("data-svc-state", "rendered");
  expect((await stored(page)).cookies).toEqual(["_svc_cid"]);  // granted: the tenant's default

  // Seen under the default (granted): a view waits in the page for the next beacon.
  await page.waitForTimeout(300);
  await page.evaluate(() => window._svc.consent("denied"));
  expect(await stored(page)).toEqual(nothing);
  await page.locator("#w a.svc-card__link").first().click();
  await page.evaluate(() => svclytics("purchase", { customerid: "anonymous", orderid: "CONSENT-2",
                                                    products: [{ sku: "A", amount: 1, price: 100 }] }));
  const events = await flushEvents(page);
  // The view recorded before the denial is dropped with the cid it names.
  expect(events.map((event) => [event.type, event.cid])).toEqual([["purchase", undefined]]);

  // The next page view starts denied: the SDK neither writes nor attributes, the widget renders.
  await page.addInitScript(() => { window._svc_config = { consent: "denied" }; });
  await page.goto(publish(widget()));
  await expect(page.locator("#w")).toHaveAttribute("data-svc-state", "rendered");
  expect(await stored(page)).toEqual(nothing);
});

test("an unknown state is treated as pending, with one warning naming it", async ({ page }) => {
  const warnings = [];
  page.on("console", (message) => { if (message.text().startsWith("[svc]")) warnings.push(message.text()); });
  await startWith(page, "yes");
  await page.goto(publish(widget()));
  await expect(page.locator("#w")).toHaveAttribute("data-svc-state", "rendered");
  expect(await stored(page)).toEqual(nothing);
  expect(warnings).toEqual(["[svc] _svc_config.consent: 'yes' is not 'pending', 'granted' or 'denied'; treated as 'pending'"]);
});

test("the tenant's default (svc-server tenant widgets --consent pending) holds until the page states consent", async ({ page }) => {
  const run = (...args) => JSON.parse(execFileSync(serverBinary, [...args, "--data-dir", process.env.SVC_DATA_DIR], { encoding: "utf8" }));
  const tenant = run("tenant", "create", "--name", "Consent shop").apiId;
  expect(run("tenant", "widgets", "--api-id", tenant, "--consent", "pending").consent).toBe("pending");
  const loader = await (await fetch(`${process.env.SVC_BASE_URL}/${tenant}/loader.js`)).text();
  expect(loader).toContain('consent: "pending"');

  await startWith(page, null);
  // The tenant has no catalog: the widget is hidden, and the page still writes nothing.
  await page.goto(publish(widget(), { apiId: tenant }));
  await expect(page.locator("#w")).toHaveAttribute("data-svc-state", /empty|failed/);
  expect(await stored(page)).toEqual(nothing);

  await page.evaluate(() => window._svc.consent("granted"));
  expect((await stored(page)).cookies).toEqual(["_svc_cid"]);
});
