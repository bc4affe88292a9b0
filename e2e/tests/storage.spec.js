// Browser storage (spec: "Browser storage items"): the _svc_cid cookie (random, 730
// days, refreshed every visit, on the registrable domain), _svc_sid in sessionStorage,
// _svc_cse_config in localStorage; and a page whose storage throws still works.
const { test, expect, chromium } = require("@playwright/test");
const config = require("../playwright.config.js");

const base = () => process.env.SVC_BASE_URL;
const productPath = () => "/demo/product.html?sku=" + encodeURIComponent(process.env.SVC_FIRST_SKU);
const DAY = 24 * 60 * 60;

async function cidCookie(context) {
  return (await context.cookies()).find((cookie) => cookie.name === "_svc_cid");
}

async function loaded(page) {
  await expect(page.locator("#similar-widget")).toHaveAttribute("data-svc-state", "rendered");
}

test("first visit: a random cid for 730 days, a sid for the session, the engine config; kept and refreshed later", async ({ page, context }) => {
  await page.goto(base() + productPath());
  await loaded(page);
  const cookie = await cidCookie(context);
  expect(cookie).toBeTruthy();
  expect(cookie.value).toMatch(/^[0-9a-f]{32}$/);
  expect(cookie.domain).toBe(new URL(base()).hostname);  // an IP address: host-only
  expect(cookie.path).toBe("/");
  expect(cookie.sameSite).toBe("Lax");
  // The SDK asks for 730 days (Max-Age=63072000, unit-tested); Chromium caps every cookie
  // at 400 days, which is why the cookie is refreshed on every visit.
  const now = Date.now() / 1000;
  expect(cookie.expires).toBeGreaterThan(now + Math.min(730, 400) * DAY - 60);
  expect(cookie.expires).toBeLessThan(now + 730 * DAY + 60);
  const stored = await page.evaluate(() => ({ sid: sessionStorage.getItem("_svc_sid"), config: localStorage.getItem("_svc_cse_config") }));
  expect(stored.sid).toMatch(/^[0-9a-f]{32}$/);
  expect(stored.sid).not.toBe(cookie.value);
  expect(JSON.parse(stored.config)).toEqual({ variant: "default" });

  // A later visit: the same ids, the cookie's lifetime starts again.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  await page.reload();
  await loaded(page);
  const again = await cidCookie(context);
  expect(again.value).toBe(cookie.value);
  expect(again.expires).toBeGreaterThan(cookie.expires);
  expect(await page.evaluate(() => sessionStorage.getItem("_svc_sid"))).toBe(stored.sid);

  // Another tab is another session: a new sid, the same cid.
  const other = await context.newPage();
  await other.goto(base() + productPath());
  await loaded(other);
  const otherSid = await other.evaluate(() => sessionStorage.getItem("_svc_sid"));
  expect(otherSid).toMatch(/^[0-9a-f]{32}$/);
  expect(otherSid).not.toBe(stored.sid);
  expect((await cidCookie(context)).value).toBe(cookie.value);

  // A visitor whose engine config says otherwise keeps it.
  await page.evaluate(() => localStorage.setItem("_svc_cse_config", JSON.stringify({ variant: "B" })));
  await page.reload();
  await loaded(page);
  expect(await page.evaluate(() => localStorage.getItem("_svc_cse_config"))).toBe(JSON.stringify({ variant: "B" }));
});

test("the cid cookie is set on the registrable domain, also under a multi-part suffix", async () => {
  const port = new URL(base()).port;
  const launch = config.use.launchOptions;
  // Real host names, resolved to the test server by Chromium itself.
  const browser = await chromium.launch({
    executablePath: launch.executablePath,
    args: [...launch.args, "--host-resolver-rules=MAP *.co.uk 127.0.0.1, MAP *.test 127.0.0.1"],
  });
  try {
    for (const [host, domain] of [["www.demo-shop.co.uk", ".demo-shop.co.uk"], ["checkout.eu.demo-shop.test", ".demo-shop.test"]]) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`http://${host}:${port}${productPath()}`);
      await loaded(page);
      const cookie = await cidCookie(context);
      expect(cookie, host).toBeTruthy();
      expect(cookie.domain).toBe(domain);
      expect(cookie.value).toMatch(/^[0-9a-f]{32}$/);
      await context.close();
    }
  } finally {
    await browser.close();
  }
});

test("storage that throws (cookies, localStorage, sessionStorage) breaks nothing", async ({ page }) => {
  await page.addInitScript(() => {
    const blocked = () => { throw new DOMException("The operation is insecure.", "SecurityError"); };
    Object.defineProperty(Document.prototype, "cookie", { get: blocked, set: blocked, configurable: true });
    Object.defineProperty(window, "localStorage", { get: blocked, configurable: true });
    Object.defineProperty(window, "sessionStorage", { get: blocked, configurable: true });
    window.__cartCalls = [];
    window._svc_shop_plugin = { addToCart: (sku, quantity, P) => { window.__cartCalls.push(sku); return P.resolve(); } };
  });
  const problems = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => { if (["error", "warning"].includes(message.type())) problems.push(message.text()); });
  await page.goto(base() + productPath());
  await loaded(page);
  await expect(page.locator("#set-widget")).toHaveAttribute("data-svc-state", "rendered");
  const card = page.locator("#similar-widget li.svc-card").first();
  await card.locator(".svc-card__cart").click();
  await expect(card.getByRole("status")).toHaveText("Added to cart");
  expect(await page.evaluate(() => window.__cartCalls.length)).toBe(1);
  expect(problems).toEqual([]);
});
