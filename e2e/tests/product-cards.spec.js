// Product cards (issue 6): links, lazy images with reserved size, names, brands, prices,
// add-to-cart through the shop's _svc_shop_plugin, navigateTo, and the alternatives of a
// SET position, on the demo product page against the real server. The shop's plugin is
// the shop's code, so tests define it as a shop would (before the page's scripts run).
const { test, expect } = require("@playwright/test");

const base = () => process.env.SVC_BASE_URL;
const productPage = () => base() + "/demo/product.html?sku=" + encodeURIComponent(process.env.SVC_FIRST_SKU);

function euro(cents) {
  return (cents / 100).toFixed(2).replace(".", ",") + "\u00a0€";
}

// Records every call; `behaviour` is "resolve", "reject", "throw" or "late-resolve".
function definePlugin(page, behaviour, extra = {}) {
  return page.addInitScript(({ behaviour, extra }) => {
    window.__cartCalls = [];
    window.__navigations = [];
    window._svc_shop_plugin = {
      addToCart(sku, quantity, InjectedPromise) {
        window.__cartCalls.push({ sku, quantity, typeofSku: typeof sku, injected: InjectedPromise === window.Promise });
        if (behaviour === "throw") throw new Error("the shop's cart is broken");
        if (behaviour === "reject") return InjectedPromise.reject(new Error("out of stock"));
        return InjectedPromise.resolve({ ok: true });
      },
    };
    if (extra.navigateTo) window._svc_shop_plugin.navigateTo = (path) => { window.__navigations.push(path); };
    if (extra.noAddToCart) delete window._svc_shop_plugin.addToCart;
  }, { behaviour, extra });
}

function watchProblems(page) {
  const problems = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => { if (["error", "warning"].includes(message.type())) problems.push(message.text()); });
  return problems;
}

async function catalog(request) {
  return (await request.get(base() + "/demo/shop.json")).json();
}

test("cards show link, lazy image with reserved size and the name as alt text, brand and prices", async ({ page, request }) => {
  await definePlugin(page, "resolve");
  const problems = watchProblems(page);
  await page.goto(productPage());
  const widget = page.locator("#similar-widget");
  await expect(widget).toHaveAttribute("data-svc-state", "rendered");
  const shop = await catalog(request);
  const cards = widget.locator("li.svc-card");
  const count = await cards.count();
  expect(count).toBeGreaterThan(0);
  expect(await widget.getByRole("list").count()).toBe(1);
  let crossedOut = 0;
  for (let i = 0; i < count; i++) {
    const card = cards.nth(i);
    const sku = await card.getAttribute("data-svc-sku");
    const product = shop.products.find((candidate) => candidate.variants.some((variant) => variant.sku === sku));
    expect(product, sku).toBeTruthy();
    const image = card.locator("img");
    await expect(image).toHaveAttribute("alt", product.name);
    await expect(image).toHaveAttribute("loading", "lazy");
    await expect(image).toHaveAttribute("width", "240");
    await expect(image).toHaveAttribute("height", "320");
    await expect(card.locator(".svc-card__brand")).toHaveText(product.brand);
    await expect(card.locator(".svc-card__name")).toHaveText(product.name);
    await expect(card.locator("a.svc-card__link")).toHaveAttribute("href", /\/demo\/product\.html\?sku=/);
    await expect(card.locator(".svc-card__selling")).toHaveText(euro(product.price));
    if (product.retailPrice > product.price) {
      crossedOut++;
      await expect(card.locator("s.svc-card__retail")).toHaveText(euro(product.retailPrice));
    } else {
      await expect(card.locator("s")).toHaveCount(0);
    }
    await expect(card.getByRole("button", { name: "Add to cart: " + product.name })).toBeVisible();
  }
  // The space of a lazy image is reserved before it loads: the box has its height already.
  const box = await cards.first().locator("img").boundingBox();
  expect(box.height).toBeGreaterThan(50);
  // No style attributes anywhere in the widgets (a strict CSP forbids them).
  expect(await page.locator("[data-svc-widget-id] [style]").count()).toBe(0);
  console.log(`checked ${count} cards, ${crossedOut} with a crossed-out retail price`);
  expect(problems).toEqual([]);
});

test("add to cart calls the shop with the feed SKU, quantity 1 and the injected Promise, and says so", async ({ page, request }) => {
  await definePlugin(page, "resolve");
  const problems = watchProblems(page);
  await page.goto(productPage());
  const card = page.locator("#similar-widget li.svc-card").nth(1);
  await expect(card).toBeVisible();
  const sku = await card.getAttribute("data-svc-sku");
  const name = await card.locator(".svc-card__name").textContent();
  await card.getByRole("button", { name: "Add to cart: " + name }).click();
  await expect(card.getByRole("status")).toHaveText("Added to cart");
  const calls = await page.evaluate(() => window.__cartCalls);
  expect(calls).toEqual([{ sku, quantity: 1, typeofSku: "string", injected: true }]);
  const shop = await catalog(request);
  expect(shop.products.some((product) => product.variants.some((variant) => variant.sku === sku))).toBe(true);
  expect(problems).toEqual([]);
});

for (const behaviour of ["reject", "throw"]) {
  test(`a shop addToCart that ${behaviour}s shows the failure and breaks nothing`, async ({ page }) => {
    await definePlugin(page, behaviour);
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(productPage());
    const cards = page.locator("#similar-widget li.svc-card");
    await expect(cards.first()).toBeVisible();
    await cards.nth(0).locator(".svc-card__cart").click();
    await expect(cards.nth(0).getByRole("status")).toHaveText("Could not add to cart. Please try again.");
    // The page and the SDK still work: another card, another attempt.
    await cards.nth(1).locator(".svc-card__cart").click();
    await expect(cards.nth(1).getByRole("status")).toHaveText("Could not add to cart. Please try again.");
    expect(await page.evaluate(() => window.__cartCalls.length)).toBe(2);
    expect(errors).toEqual([]);
  });
}

test("without addToCart in the shop there are no add-to-cart buttons, the cards still show", async ({ page }) => {
  await definePlugin(page, "resolve", { noAddToCart: true });
  await page.goto(productPage());
  const widget = page.locator("#similar-widget");
  await expect(widget).toHaveAttribute("data-svc-state", "rendered");
  expect(await widget.locator("li.svc-card").count()).toBeGreaterThan(0);
  await expect(page.locator("[data-svc-widget-id] button.svc-card__cart")).toHaveCount(0);
  await expect(page.locator("[data-svc-widget-id] [role=status]")).toHaveCount(0);
});

test("product links go through the shop's navigateTo with a path; without it the browser navigates", async ({ page }) => {
  await definePlugin(page, "resolve", { navigateTo: true });
  await page.goto(productPage());
  const link = page.locator("#similar-widget li.svc-card a").first();
  const href = await link.getAttribute("href");
  await link.click();
  const navigations = await page.evaluate(() => window.__navigations);
  const expected = new URL(href, page.url());
  expect(navigations).toEqual([expected.pathname + expected.search]);
  expect(page.url()).toBe(productPage());

  await definePlugin(page, "resolve");
  await page.goto(productPage());
  const plainLink = page.locator("#similar-widget li.svc-card a").first();
  const target = new URL(await plainLink.getAttribute("href"), page.url()).href;
  await plainLink.click();
  await page.waitForURL(target);
});

test("a SET position switches to an alternative by keyboard; add to cart then takes the alternative's SKU", async ({ page, request }) => {
  await definePlugin(page, "resolve");
  const problems = watchProblems(page);
  await page.goto(productPage());
  const widget = page.locator("#set-widget");
  await expect(widget).toHaveAttribute("data-svc-state", "rendered");
  const position = widget.locator("li.svc-card").filter({ has: page.locator(".svc-card__choices") }).first();
  await expect(position).toBeVisible();
  const originalSku = await position.getAttribute("data-svc-sku");
  const choices = position.locator(".svc-card__choices").getByRole("button");
  expect(await choices.count()).toBeGreaterThanOrEqual(2);
  await expect(choices.nth(0)).toHaveAttribute("aria-pressed", "true");
  const alternativeName = await choices.nth(1).textContent();

  // Keyboard only: focus the choice, press Enter.
  await choices.nth(1).focus();
  await page.keyboard.press("Enter");
  await expect(choices.nth(1)).toHaveAttribute("aria-pressed", "true");
  await expect(choices.nth(0)).toHaveAttribute("aria-pressed", "false");
  await expect(position.locator(".svc-card__name")).toHaveText(alternativeName);
  await expect(position.locator("img")).toHaveAttribute("alt", alternativeName);
  const alternativeSku = await position.getAttribute("data-svc-sku");
  expect(alternativeSku).not.toBe(originalSku);
  await expect(choices.nth(1)).toBeFocused();  // focus stays where the shopper is

  const shop = await catalog(request);
  const product = shop.products.find((candidate) => candidate.variants.some((variant) => variant.sku === alternativeSku));
  expect(product.name).toBe(alternativeName);

  await position.getByRole("button", { name: "Add to cart: " + alternativeName }).press("Space");
  await expect(position.getByRole("status")).toHaveText("Added to cart");
  expect((await page.evaluate(() => window.__cartCalls)).map((call) => call.sku)).toEqual([alternativeSku]);

  // And back (Space this time).
  await choices.nth(0).focus();
  await page.keyboard.press("Space");
  await expect(position).toHaveAttribute("data-svc-sku", originalSku);
  expect(problems).toEqual([]);
});
