// A shop with a strict Content-Security-Policy (issue 6): scripts only from the SDK's host
// plus 'wasm-unsafe-eval', no 'unsafe-eval', no inline scripts or styles. The SDK loads,
// renders and handles clicks there without a single violation.
const { test, expect } = require("@playwright/test");

const base = () => process.env.SVC_BASE_URL;

test("the SDK works under a strict CSP without any violation", async ({ page }) => {
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (event) => {
      window.__violations.push(event.violatedDirective + " " + event.blockedURI);
    });
  });
  await page.goto(base() + "/demo/csp.html?sku=" + encodeURIComponent(process.env.SVC_FIRST_SKU));
  const similar = page.locator("#similar-widget");
  await expect(similar).toHaveAttribute("data-svc-state", "rendered");
  await expect(page.locator("#set-widget")).toHaveAttribute("data-svc-state", "rendered");
  await expect(similar.locator("li.svc-card").first()).toBeVisible();
  // The SDK's stylesheet applies (a link from the SDK's host, not inline styles).
  expect(await page.evaluate(() => [...document.styleSheets].some((sheet) => (sheet.href || "").endsWith("/widgets.css")))).toBe(true);
  // Images load from the SDK's host.
  const image = similar.locator("img").first();
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => image.evaluate((element) => element.complete && element.naturalWidth)).toBeGreaterThan(0);
  // Clicks work: add to cart through the shop's plugin.
  const card = similar.locator("li.svc-card").first();
  await card.locator(".svc-card__cart").click();
  await expect(card.getByRole("status")).toHaveText(/.+/);
  await expect(page.locator("#cart-count")).toHaveText("Cart: 1");
  // An empty widget is hidden through the CSSOM, which the policy allows.
  await page.evaluate(() => window._svc.updateWidgetSku("SET", "NO-SUCH-SKU"));
  await expect(page.locator("#set-container")).toBeHidden();

  expect(await page.evaluate(() => window.__violations)).toEqual([]);
  expect(errors).toEqual([]);

  // The check above would see a violation: an inline script is refused and reported.
  await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = "window.__inline = true";
    document.body.append(script);
  });
  await expect.poll(() => page.evaluate(() => window.__violations.length)).toBe(1);
  expect(await page.evaluate(() => window.__inline)).toBeUndefined();
});

test("a policy without 'wasm-unsafe-eval' blocks the SDK's WebAssembly: widgets hidden, one warning, no error", async ({ page }) => {
  // The same shop page with a policy that forgets 'wasm-unsafe-eval' (route.fulfill serves the
  // real page with that one word removed; the SDK and the server are the real ones).
  await page.route(/\/demo\/csp\.html/, async (route) => {
    const real = await route.fetch();
    await route.fulfill({ response: real, body: (await real.text()).replace(" 'wasm-unsafe-eval';", ";") });
  });
  const errors = [];
  const warnings = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => { if (message.type() === "warning" && message.text().startsWith("[svc]")) warnings.push(message.text()); });
  await page.goto(base() + "/demo/csp.html?sku=" + encodeURIComponent(process.env.SVC_FIRST_SKU));
  expect(await page.evaluate(() => document.querySelector("meta[http-equiv]").content)).not.toContain("wasm-unsafe-eval");
  await expect(page.locator("#similar-container")).toBeHidden();
  await expect(page.locator("#set-container")).toBeHidden();
  await expect(page.locator("#similar-widget")).toHaveAttribute("data-svc-state", "failed");
  await page.waitForTimeout(300);
  expect(warnings).toEqual(["[svc] the SDK's WebAssembly module could not be loaded; widgets are hidden"]);
  expect(errors).toEqual([]);
});
