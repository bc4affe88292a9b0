// Widget presentation per tenant (issue 6, spec points 8 and 9): the operator's texts and
// language rule, the tenant's CSS and the widgets' isolation from the shop's CSS, the
// lowest 30-day price (EU price indication rules), and the WAI-ARIA carousel. A second
// tenant is made here with the real CLI against the running server's data dir and fed the
// demo catalog; web-demo/texts.html shows its SIMILAR widget.
const { test, expect } = require("@playwright/test");
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

test.describe.configure({ mode: "serial" });

const repoRoot = path.resolve(__dirname, "..", "..");
const serverBinary = process.env.SVC_SERVER || path.join(repoRoot, "build", "bin", "svc-server");
const base = () => process.env.SVC_BASE_URL;
const dataDir = () => process.env.SVC_DATA_DIR;
const sku = () => process.env.SVC_FIRST_SKU;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "svc-presentation-"));
let apiId = "";

function cli(...args) {
  return execFileSync(serverBinary, args, { encoding: "utf8" });
}

function euro(cents) {
  return (cents / 100).toFixed(2).replace(".", ",") + "\u00a0€";
}

// The demo feed is fully quoted, ';'-separated, one record per line.
function parseCsv(text) {
  return text.split("\n").filter((line) => line.length > 0).map((line) => {
    const fields = [];
    let at = 0;
    while (at < line.length) {
      let value = "";
      at++;  // opening quote
      for (;;) {
        if (line[at] === '"' && line[at + 1] === '"') { value += '"'; at += 2; continue; }
        if (line[at] === '"') { at++; break; }
        value += line[at++];
      }
      fields.push(value);
      at++;  // separator
    }
    return fields;
  });
}
const toCsv = (rows) => rows.map((row) => row.map((value) => '"' + value.replace(/"/g, '""') + '"').join(";")).join("\n") + "\n";

function pageUrl(params) {
  return base() + "/demo/texts.html?" + new URLSearchParams({ sku: sku(), ...params }).toString();
}

async function similarItems(request, tenant) {
  const response = await request.get(`${base()}/${tenant}/content?w=SIMILAR&t=product&s=${encodeURIComponent(sku())}&i=`);
  expect(response.status()).toBe(200);
  return (await response.json()).widgets[0].items;
}

// The server keeps a tenant's settings for 2 s; the CLI is another process.
const settle = () => new Promise((resolve) => setTimeout(resolve, 2300));

test.beforeAll(() => {
  apiId = JSON.parse(cli("tenant", "create", "--data-dir", dataDir(), "--name", "Presentation shop")).apiId;
  cli("feed", "import", "--data-dir", dataDir(), "--api-id", apiId, path.join(dataDir(), "demo", "feed.csv"));
  fs.writeFileSync(path.join(work, "de.json"), JSON.stringify({ titleSimilar: "Das passt dazu", addToCart: "Ab in den Korb" }));
  cli("tenant", "texts", "--data-dir", dataDir(), "--api-id", apiId, "--language", "de", path.join(work, "de.json"));
  // One class more than the base rule: texts.html also has the loader's /sdk/svc.css, which may come later.
  fs.writeFileSync(path.join(work, "shop.css"),
    ".svc-widget .svc-card .svc-card__cart { background-color: rgb(0, 85, 170) !important; color: rgb(255, 255, 255) !important; }\n");
  cli("tenant", "widgets", "--data-dir", dataDir(), "--api-id", apiId, "--language-rule", "fixed", "--default-language", "de",
      "--css-file", path.join(work, "shop.css"));
});

test.afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

test("the operator's German texts by a fixed rule, whatever the page says; the demo tenant stays English", async ({ page }) => {
  await page.goto(pageUrl({ apiId, lang: "en" }));
  const widget = page.getByRole("region", { name: "Das passt dazu" });
  await expect(widget).toBeVisible();
  await expect(widget).toHaveAttribute("aria-roledescription", "Karussell");
  const first = page.locator("#similar-widget li.svc-card").first();
  const name = await first.locator(".svc-card__name").textContent();
  await expect(first).toHaveAttribute("aria-label", /^1 von \d+$/);
  const button = first.getByRole("button", { name: "Ab in den Korb: " + name });
  await expect(button).toHaveText("Ab in den Korb");
  await button.click();
  await expect(first.getByRole("status")).toHaveText("Zum Warenkorb hinzugefügt");

  await page.goto(pageUrl({ lang: "en" }));
  await expect(page.getByRole("region", { name: "Similar products" })).toBeVisible();
  await expect(page.locator("#similar-widget .svc-card__cart").first()).toHaveText("Add to cart");
});

test("the html-lang rule follows the page's <html lang>", async ({ page, request }) => {
  let contentUrl = "";
  page.on("request", (sent) => { if (sent.url().includes("/content?")) contentUrl = sent.url(); });
  await page.goto(pageUrl({ lang: "de" }));  // the demo tenant: default rule html-lang
  await expect(page.locator("#similar-widget[data-svc-state=rendered]")).toHaveCount(1);
  // The SDK reports the page's language with the content request (hl, hp); until it does,
  // the server cannot apply this rule in a browser (see docs/adr/0028).
  test.skip(!/[?&]hl=/.test(contentUrl), "the SDK does not send the page's language hints yet");
  await expect(page.getByRole("region", { name: "Ähnliche Produkte" })).toBeVisible();
  await page.goto(pageUrl({ lang: "en-GB" }));
  await expect(page.getByRole("region", { name: "Similar products" })).toBeVisible();
});

async function layoutOf(page) {
  await expect(page.locator("#similar-widget[data-svc-state=rendered]")).toHaveCount(1);
  return page.evaluate(() => {
    const cards = [...document.querySelectorAll("#similar-widget li.svc-card")].slice(0, 3);
    const box = (element) => { const r = element.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
    return cards.map((card) => ({
      card: box(card),
      image: box(card.querySelector("img")),
      link: box(card.querySelector("a")),
      name: box(card.querySelector(".svc-card__name")),
      nameFontSize: parseFloat(getComputedStyle(card.querySelector(".svc-card__name")).fontSize),
      button: box(card.querySelector("button.svc-card__cart")),
      buttonBackground: getComputedStyle(card.querySelector("button.svc-card__cart")).backgroundColor,
      before: getComputedStyle(card, "::before").content,
    }));
  });
}

test("the tenant's CSS applies, and the shop's hostile CSS does not break the widget's layout", async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 900 });
  await page.goto(pageUrl({ apiId }));
  const calm = await layoutOf(page);
  await page.goto(pageUrl({ apiId, hostile: "1" }));
  const hostile = await layoutOf(page);
  expect(calm.length).toBe(3);
  for (let i = 0; i < calm.length; i++) {
    for (const layout of [calm[i], hostile[i]]) {
      expect(layout.buttonBackground).toBe("rgb(0, 85, 170)");  // the operator's CSS
      expect(layout.before).toBe("none");
      expect(layout.card.width).toBeGreaterThan(140);
      expect(layout.image.height).toBeGreaterThan(180);
      expect(layout.button.width).toBeGreaterThan(40);
      expect(layout.name.height).toBeGreaterThan(8);
    }
    // The same layout, to the pixel, with or without the shop's CSS.
    for (const part of ["card", "image", "link", "name", "button"]) {
      expect(Math.abs(hostile[i][part].width - calm[i][part].width)).toBeLessThan(2);
      expect(Math.abs(hostile[i][part].height - calm[i][part].height)).toBeLessThan(2);
      // Where it sits in its card (the shop's own page above may move under its CSS).
      expect(Math.abs((hostile[i][part].y - hostile[i].card.y) - (calm[i][part].y - calm[i].card.y))).toBeLessThan(2);
      expect(Math.abs((hostile[i][part].x - hostile[i].card.x) - (calm[i][part].x - calm[i].card.x))).toBeLessThan(2);
    }
    expect(Math.abs(hostile[i].card.y - hostile[0].card.y)).toBeLessThan(2);  // the cards stay in one row
    expect(hostile[i].nameFontSize).toBe(calm[i].nameFontSize);
  }
  expect(hostile[1].card.x).toBeGreaterThan(hostile[0].card.x + hostile[0].card.width - 1);
});

test("the lowest 30-day price shows on reduced cards where the country requires it, and only there", async ({ browser, page, request }) => {
  cli("tenant", "widgets", "--data-dir", dataDir(), "--api-id", apiId, "--country", "DE");
  // Every product's selling price drops by one euro: a reduction for all, with a history.
  const rows = parseCsv(fs.readFileSync(path.join(dataDir(), "demo", "feed.csv"), "utf8"));
  const discount = rows[0].indexOf("discount-price");
  for (const row of rows.slice(1)) row[discount] = String(Number(row[discount]) - 100);
  fs.writeFileSync(path.join(work, "reduced.csv"), toCsv(rows));
  cli("feed", "import", "--data-dir", dataDir(), "--api-id", apiId, path.join(work, "reduced.csv"));
  await settle();
  await expect.poll(async () => (await similarItems(request, apiId)).filter((item) => item.lowestPrice30Days).length,
                    { timeout: 15_000 }).toBeGreaterThan(0);
  const items = await similarItems(request, apiId);

  await page.goto(pageUrl({ apiId }));
  await expect(page.locator("#similar-widget[data-svc-state=rendered]")).toHaveCount(1);
  const cards = page.locator("#similar-widget li.svc-card");
  expect(await cards.count()).toBe(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    expect(item.retailPrice).toBeGreaterThan(item.price);  // every item is reduced now
    expect(item.lowestPrice30Days).toBe(item.price + 100);  // the price before the reduction
    await expect(cards.nth(i).locator(".svc-card__lowest")).toHaveText("Niedrigster Preis der letzten 30 Tage: " + euro(item.lowestPrice30Days));
    await expect(cards.nth(i).locator("s.svc-card__retail")).toHaveText(euro(item.retailPrice));
  }

  // Switzerland has no such rule: the same reduced items, no lowest price.
  cli("tenant", "widgets", "--data-dir", dataDir(), "--api-id", apiId, "--country", "CH");
  await settle();
  expect((await similarItems(request, apiId)).filter((item) => item.lowestPrice30Days)).toEqual([]);
  const fresh = await browser.newPage();  // a new context: the content answer is cacheable for a minute
  await fresh.goto(pageUrl({ apiId }));
  await expect(fresh.locator("#similar-widget[data-svc-state=rendered]")).toHaveCount(1);
  await expect(fresh.locator("#similar-widget .svc-card__lowest")).toHaveCount(0);
  await expect(fresh.locator("#similar-widget s.svc-card__retail")).toHaveCount(items.length);
  await fresh.close();
});

test("carousel: a labelled region of labelled slides, by keyboard, calm under reduced motion, lazy images with reserved size", async ({ page }) => {
  await page.setViewportSize({ width: 520, height: 900 });
  await page.goto(pageUrl({ lang: "en" }));
  const region = page.getByRole("region", { name: "Similar products" });
  await expect(region).toHaveAttribute("aria-roledescription", "carousel");
  const slides = region.locator("li[aria-roledescription=slide]");
  const count = await slides.count();
  expect(count).toBeGreaterThan(2);
  expect(await slides.evaluateAll((items) => items.map((item) => item.getAttribute("aria-label"))))
    .toEqual(Array.from({ length: count }, (_, i) => `${i + 1} of ${count}`));
  const images = await region.locator("img").evaluateAll((all) => all.map((image) => ({
    loading: image.getAttribute("loading"), width: image.getAttribute("width"), height: image.getAttribute("height"),
    boxHeight: image.getBoundingClientRect().height })));
  expect(images.length).toBe(count);
  for (const image of images) {
    expect(image.loading).toBe("lazy");
    expect(image.width).toMatch(/^\d+$/);
    expect(image.height).toMatch(/^\d+$/);
    expect(image.boxHeight).toBeGreaterThan(100);  // reserved, loaded or not
  }

  // Keyboard: Tab walks through the cards; the row scrolls the focused card into view.
  const list = region.locator(".svc-widget__list");
  expect(await list.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  const stops = region.locator("a, button");
  await stops.first().focus();
  for (let presses = 1; presses < await stops.count(); presses++) await page.keyboard.press("Tab");
  const last = stops.last();
  await expect(last).toBeFocused();
  await expect(region.locator("li.svc-card").last().locator("a, button").last()).toBeFocused();
  await expect.poll(() => list.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  const listBox = await list.boundingBox();
  // The focused card ends up inside the row's visible part (after the smooth scroll).
  await expect.poll(async () => { const box = await last.boundingBox(); return box.x + box.width; })
    .toBeLessThanOrEqual(listBox.x + listBox.width + 1);

  expect(await list.evaluate((element) => getComputedStyle(element).scrollBehavior)).toBe("smooth");
  await page.emulateMedia({ reducedMotion: "reduce" });
  expect(await list.evaluate((element) => getComputedStyle(element).scrollBehavior)).toBe("auto");

  // Previous / next controls, named by the texts, scroll the row: by mouse and by keyboard.
  const next = region.getByRole("button", { name: "Next products" });
  const previous = region.getByRole("button", { name: "Previous products" });
  await list.evaluate((element) => { element.scrollLeft = 0; });
  await next.click();
  await expect.poll(() => list.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  const scrolled = await list.evaluate((element) => element.scrollLeft);
  await previous.focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => list.evaluate((element) => element.scrollLeft)).toBeLessThan(scrolled);
});

test("axe-core finds no violations in rendered widgets (English and the operator's German)", async ({ page }) => {
  for (const url of [pageUrl({ lang: "en" }), pageUrl({ apiId })]) {
    await page.goto(url);
    await expect(page.locator("#similar-widget[data-svc-state=rendered]")).toHaveCount(1);
    await page.addScriptTag({ path: require.resolve("axe-core/axe.min.js") });
    const result = await page.evaluate(() => window.axe.run(document.querySelector("#similar-widget"),
                                                            { runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] }));
    const violations = result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(" ")}`);
    expect(violations).toEqual([]);
  }
});
