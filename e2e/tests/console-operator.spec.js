// The operator console (issue #9) in Chromium against the real svc-server of global-setup.js,
// whose first operator was made by `svc-server operator create`. Every step goes through the
// pages as an operator would; checks read what the page shows. axe-core audits every page.
const { test, expect } = require("@playwright/test");
const { signedIn, audit } = require("../support/console");
const { execFileSync } = require("node:child_process");
const path = require("node:path");

test.describe.configure({ mode: "serial" });

const repoRoot = path.resolve(__dirname, "..", "..");
const serverBinary = process.env.SVC_SERVER || path.join(repoRoot, "build", "bin", "svc-server");
const base = () => process.env.SVC_BASE_URL;
const email = () => process.env.SVC_OPERATOR_EMAIL;
const password = () => process.env.SVC_OPERATOR_PASSWORD;
const consoleUrl = (page) => base() + "/console/" + page;


// No serious or critical violation of WCAG 2.x A/AA rules.

async function createTenant(page, name) {
  await page.goto(consoleUrl("tenants.html"));
  await page.getByLabel("Shop name").fill(name);
  await page.getByRole("button", { name: "Create tenant" }).click();
  await expect(page.locator("#secret-box")).toBeVisible();
  // The element is there, empty, before the tenant is created: wait for the ID itself.
  await expect(page.locator("#secret-api-id")).not.toBeEmpty();
  return { apiId: await page.locator("#secret-api-id").textContent(), secret: await page.locator("#secret-value").textContent() };
}

test("sign-in: a wrong password is shown next to the field; the right one opens the tenants page", async ({ page }) => {
  await page.goto(consoleUrl(""));
  await audit(page);
  await page.getByLabel("E-mail address").fill(email());
  await page.getByLabel("Password").fill("not the password at all");
  await page.getByRole("button", { name: "Sign in" }).click();
  const error = page.locator("#password-error");
  await expect(error).toHaveText("email or password is not valid");
  await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Password")).toBeFocused();

  await page.getByLabel("Password").fill(password());
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/console\/tenants\.html$/);
  await expect(page.getByRole("heading", { name: "Tenants", level: 1 })).toBeVisible();
  await expect(page.locator("#operator-email")).toHaveText(email());
  // The session cookie is out of reach of scripts.
  expect(await page.evaluate(() => document.cookie)).not.toContain("svc_operator_session");
});

test("keyboard only: sign in and create a tenant; its secret is shown once and works", async ({ page }) => {
  await page.goto(consoleUrl(""));
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("E-mail address")).toBeFocused();
  await page.keyboard.type(email());
  await page.keyboard.press("Tab");
  await page.keyboard.type(password());
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/tenants\.html$/);
  await expect(page.locator("#list-status")).not.toHaveText("Loading…");

  // Tab through the page until the name field: every stop has a visible focus.
  for (let stop = 0; stop < 10; stop++) {
    await page.keyboard.press("Tab");
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    expect(outline).not.toBe("none");
    if (await page.getByLabel("Shop name").evaluate((input) => input === document.activeElement)) break;
  }
  await expect(page.getByLabel("Shop name")).toBeFocused();
  await page.keyboard.type("Keyboard Shop");
  await page.keyboard.press("Enter");
  const box = page.locator("#secret-box");
  await expect(box).toBeVisible();
  await expect(box).toBeFocused();
  // The element is there, empty, before the tenant is created: wait for the ID itself.
  await expect(page.locator("#secret-api-id")).not.toBeEmpty();
  const apiId = await page.locator("#secret-api-id").textContent();
  const secret = await page.locator("#secret-value").textContent();
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole("row").filter({ hasText: "Keyboard Shop" })).toContainText(apiId);

  const feeds = await page.request.get(base() + "/feeds/imports", { headers: { "x-api-id": apiId, "x-api-secret": secret } });
  expect(feeds.status()).toBe(200);

  await page.keyboard.press("Tab");  // to "I have stored the secret"
  await page.keyboard.press("Enter");
  await expect(box).toBeHidden();
  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: "Keyboard Shop" })).toBeVisible();
  expect(await page.content()).not.toContain(secret);
});

test("tenants page: audit and screenshot", async ({ page }) => {
  await signedIn(page);
  await page.goto(consoleUrl("tenants.html"));
  await expect(page.getByRole("row").filter({ hasText: "Demo Shop" })).toBeVisible();
  await audit(page);
  await page.screenshot({ path: test.info().outputPath("tenants.png"), fullPage: true });
  await test.info().attach("tenants page", { path: test.info().outputPath("tenants.png"), contentType: "image/png" });
});

test("tenant settings: a bad currency is named next to its field, then fixed and saved; rotate and disable", async ({ page }) => {
  await signedIn(page);
  const { apiId, secret } = await createTenant(page, "Settings Shop");
  await page.getByRole("link", { name: "Settings Shop" }).click();
  await expect(page.getByRole("heading", { name: "Settings Shop", level: 1 })).toBeVisible();
  // Up to where recommendations learned from orders (ADR 0074): a new shop, none yet.
  await expect(page.locator("#tenant-learning")).toHaveText("Recommendations have learned from no orders yet.");
  await audit(page);

  await page.getByLabel("Currency").fill("€");
  await page.getByLabel("Attribution window (days)").fill("14");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.locator("#currency-error")).toHaveText("'€' is not a currency svc serves: EUR, PLN or USD");
  await expect(page.getByLabel("Currency")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#attributionWindowDays-error")).toBeHidden();

  await page.getByLabel("Currency").fill("PLN");
  await page.getByLabel("Country").fill("pl");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await expect(page.locator("#currency-error")).toBeHidden();
  await page.reload();
  await expect(page.getByLabel("Currency")).toHaveValue("PLN");
  await expect(page.getByLabel("Country")).toHaveValue("PL");
  await expect(page.getByLabel("Attribution window (days)")).toHaveValue("14");

  page.on("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Rotate API secret" }).click();
  // The secret box appears only once the server has answered with the new secret.
  await expect(page.locator("#secret-box")).toBeVisible();
  await expect(page.locator("#secret-value")).toHaveText(/^[A-Za-z0-9_-]{43}$/);
  const rotated = await page.locator("#secret-value").textContent();
  expect(rotated).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const feeds = (key) => page.request.get(base() + "/feeds/imports", { headers: { "x-api-id": apiId, "x-api-secret": key } });
  expect((await feeds(secret)).status()).toBe(401);
  expect((await feeds(rotated)).status()).toBe(200);

  await page.getByRole("button", { name: "Disable tenant" }).click();
  await expect(page.locator("#tenant-state")).toHaveText("disabled");
  expect((await feeds(rotated)).status()).toBe(403);
  expect((await page.request.get(base() + "/" + apiId + "/loader.js")).status()).toBe(404);
  await page.getByRole("button", { name: "Enable tenant" }).click();
  await expect(page.locator("#tenant-state")).toHaveText("active");
});

test("widgets: texts and CSS edited, a text error named at its field, the preview shows the change", async ({ page }) => {
  await signedIn(page);
  const { apiId } = await createTenant(page, "Preview Shop");
  execFileSync(serverBinary, ["feed", "import", "--data-dir", process.env.SVC_DATA_DIR, "--api-id", apiId,
                              path.join(process.env.SVC_DATA_DIR, "demo", "feed.csv")]);
  await page.goto(consoleUrl("widgets.html?apiId=" + encodeURIComponent(apiId)));
  await expect(page.locator("#tenant-name")).toHaveText("Preview Shop");
  await audit(page);

  await page.getByLabel("Product SKU").fill(process.env.SVC_FIRST_SKU);
  await page.getByLabel("Page language").fill("de");
  await page.getByRole("button", { name: "Show preview" }).click();
  const frame = page.frameLocator("#preview");
  const cart = frame.locator("#similar-widget .svc-card__cart").first();
  await expect(cart).toHaveText("In den Warenkorb");  // built-in German: the page says lang=de

  // CSS shows in the preview as it is typed, before saving.
  await page.getByLabel("CSS of the tenant").fill(".svc-widget .svc-card .svc-card__cart { background-color: rgb(0, 128, 0) !important; }");
  await expect(cart).toHaveCSS("background-color", "rgb(0, 128, 0)");

  await page.getByLabel("Language of the texts").selectOption("de");
  await page.getByLabel("addToCart", { exact: true }).fill("Jetzt mitnehmen");
  await page.getByLabel("titleSimilar", { exact: true }).fill("Passt zu {name}");  // not a placeholder of this text
  await page.getByRole("button", { name: "Save widget settings" }).click();
  await expect(page.locator("#text-titleSimilar-error")).toContainText("placeholder {name} is not allowed");
  await expect(page.getByLabel("titleSimilar", { exact: true })).toBeFocused();

  await page.getByLabel("titleSimilar", { exact: true }).fill("Passt dazu");
  await page.getByRole("button", { name: "Save widget settings" }).click();
  await expect(page.getByText("Widget settings saved.")).toBeVisible();
  await expect(frame.locator("#similar-widget .svc-card__cart").first()).toHaveText("Jetzt mitnehmen");
  await expect(frame.getByRole("region", { name: "Passt dazu" })).toBeVisible();
  await expect(frame.locator("#similar-widget .svc-card__cart").first()).toHaveCSS("background-color", "rgb(0, 128, 0)");
  await page.screenshot({ path: test.info().outputPath("widgets.png"), fullPage: true });
  await test.info().attach("widgets page", { path: test.info().outputPath("widgets.png"), contentType: "image/png" });
});

test("feeds: the import history with row errors as CSV; a held truncated feed is confirmed", async ({ page }) => {
  await signedIn(page);
  const { apiId } = await createTenant(page, "Feed Shop");
  const dataDir = process.env.SVC_DATA_DIR;
  const demoFeed = path.join(dataDir, "demo", "feed.csv");
  execFileSync(serverBinary, ["feed", "import", "--data-dir", dataDir, "--api-id", apiId, demoFeed]);
  // A full feed of two products and a broken row: it would delete nearly the whole catalog, so it is held.
  const lines = require("node:fs").readFileSync(demoFeed, "utf8").split("\n");
  const cut = path.join(dataDir, "cut-" + apiId + ".csv");
  require("node:fs").writeFileSync(cut, [lines[0], lines[1], lines[2], '"broken";"row"', ""].join("\n"));
  let exitCode = 0;
  try {
    execFileSync(serverBinary, ["feed", "import", "--data-dir", dataDir, "--api-id", apiId, cut], { stdio: "pipe" });
  } catch (error) {
    exitCode = error.status;
  }
  expect(exitCode).toBe(3);  // held for confirmation

  await page.goto(consoleUrl("tenant.html?apiId=" + encodeURIComponent(apiId)));
  await page.getByRole("link", { name: "Feeds" }).click();
  await expect(page.locator("#tenant-name")).toHaveText("Feed Shop");
  const heldRow = page.getByRole("row").filter({ hasText: "held" });
  await expect(heldRow).toHaveCount(1);
  await audit(page);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    heldRow.getByRole("link", { name: /Download the 1 row errors/ }).click(),
  ]);
  const csv = require("node:fs").readFileSync(await download.path(), "utf8");
  expect(csv.split("\r\n")[0]).toBe("line,column,kind,message");
  expect(csv).toContain('"too_few_fields"');

  await heldRow.getByRole("button", { name: /^Confirm import/ }).click();
  await expect(page.locator("#imports-status")).toHaveText(/^Import \d+ is applied\.$/);
  await expect(page.getByRole("row").filter({ hasText: "held" })).toHaveCount(0);
});

test("shops: a plugin's registration shows with its endpoints, last contact and the result of svc's pull, as text", async ({ page }) => {
  await signedIn(page);
  const { apiId } = await createTenant(page, "Plugin Registered Shop");
  const tenant = await (await page.request.get(base() + "/operator/api/tenants/" + apiId)).json();
  // What a shop plugin sends (spec endpoint 6); its software name tries to smuggle markup in.
  const record = {
    api: { attributes: "https://192.0.2.11/svc/attributes", products: "https://192.0.2.11/svc/products",
           variantDimensions: "https://192.0.2.11/svc/variant-dimensions" },
    plugin: { version: "1.4.0" },
    shop: { software: "<b>Shopware</b>", url: "https://192.0.2.11", version: "6.5" },
  };
  const registered = await page.request.put(base() + "/shops/" + apiId + "/" + tenant.feedId,
    { headers: { "svc-com-tid": apiId, "svc-com-fid": tenant.feedId }, data: record });
  expect(registered.status()).toBe(200);

  await page.goto(consoleUrl("shops.html"));
  const row = page.locator("#shop-table tbody tr").filter({ hasText: "Plugin Registered Shop" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("https://192.0.2.11/svc/products");
  await expect(row).toContainText("<b>Shopware</b> 6.5, plugin 1.4.0");  // shown as text
  expect(await row.locator("b").count()).toBe(0);
  await expect(row.locator("td").nth(4)).toHaveText("never");  // the plugin never answered svc
  // svc's prompt pull cannot reach the made-up host: its failure is what the operator sees.
  await expect.poll(async () => {
    await page.reload();
    return (await page.locator("#shop-table tbody tr").filter({ hasText: "Plugin Registered Shop" }).locator(".badge").textContent()) || "";
  }, { timeout: 20000 }).toMatch(/^failed: /);
  expect(await page.content()).not.toContain(tenant.feedId);
  await audit(page);
});
