// The console's Feeds page (issue 9) in Chromium against the real svc-server of global-setup.js:
// a tenant made in the console gets its first feed by a file uploaded on the page (progress,
// then the import's result), a pull source with a bad URL is refused next to the field and saved
// once fixed, freshness and the catalog-size table show the import; axe audits the page and
// every control is reachable by keyboard.
const { test, expect } = require("@playwright/test");
const { signedIn, audit } = require("../support/console");
const fs = require("node:fs");
const path = require("node:path");

const base = () => process.env.SVC_BASE_URL;
const consoleUrl = (page) => base() + "/console/" + page;


// No serious or critical violation of WCAG 2.x A/AA rules.

// The demo catalog's header and first three products, and a row too short to import.
function firstFeed() {
  const lines = fs.readFileSync(path.join(process.env.SVC_DATA_DIR, "demo", "feed.csv"), "utf8").split("\n");
  return [lines[0], lines[1], lines[2], lines[3], '"broken";"row"', ""].join("\n");
}

test("feeds: a new tenant's first feed is uploaded on the Feeds page; a bad pull URL is named, then saved", async ({ page }) => {
  await signedIn(page);
  await page.goto(consoleUrl("tenants.html"));
  await page.getByLabel("Shop name").fill("Upload Shop");
  await page.getByRole("button", { name: "Create tenant" }).click();
  // The element is there, empty, before the tenant is created: wait for the ID itself.
  await expect(page.locator("#secret-api-id")).not.toBeEmpty();
  const apiId = await page.locator("#secret-api-id").textContent();

  await page.goto(consoleUrl("feeds.html?apiId=" + encodeURIComponent(apiId)));
  await expect(page.locator("#tenant-name")).toHaveText("Upload Shop");
  await expect(page.locator("#freshness-status")).toHaveText(/^No feed yet/);
  // How the shop pushes: its API ID filled in, the secret only as a placeholder.
  await expect(page.locator("#push-example")).toContainText("x-api-id: " + apiId);
  await expect(page.locator("#push-example")).toContainText("x-api-secret: <API secret>");

  // The upload answer is held back a little so the progress can be seen.
  await page.route("**/operator/api/tenants/*/imports?*", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });
  await page.getByLabel("Feed file (CSV)").setInputFiles({ name: "feed.csv", mimeType: "text/csv", buffer: Buffer.from(firstFeed()) });
  await page.getByRole("button", { name: "Upload and import" }).click();
  await expect(page.getByRole("button", { name: "Uploading…" })).toBeDisabled();
  await expect(page.locator("#upload-result-status")).toHaveText(/^Import \d+ applied\.$/);
  await expect(page.locator("#upload-result-figures")).toHaveText("Rows read: 4, row errors: 1, new: 3, changed: 0, deleted: 0.");
  await expect(page.locator("#upload-result").getByRole("link", { name: /Download the 1 row errors/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Upload and import" })).toBeEnabled();

  // Freshness and the catalog's size, as text.
  const feedRow = page.locator("#freshness-table tbody tr");
  await expect(feedRow).toHaveCount(1);
  await expect(feedRow).toContainText("pushed");
  await expect(feedRow.locator(".badge")).toHaveText("fresh");
  await expect(feedRow.locator("td").nth(5)).toHaveText("2 d");
  await expect(page.locator("#size-table tbody tr")).toHaveCount(1);
  await expect(page.locator("#size-table tbody tr td").nth(3)).toHaveText("3");
  await expect(page.locator("#size-chart canvas")).toHaveCount(1);
  // The tenants list says so too.
  await page.goto(consoleUrl("tenants.html"));
  await expect(page.getByRole("link", { name: "Feeds of Upload Shop: default: fresh" })).toBeVisible();
  await page.goBack();
  await expect(page.locator("#tenant-name")).toHaveText("Upload Shop");

  // A pull source with a bad URL: the error sits next to the field, which gets the focus.
  await page.getByLabel("URL", { exact: true }).fill("gopher://shop.example/feed.csv");
  await page.getByLabel("Pull every").fill("6h");
  await page.getByRole("button", { name: "Add pull source" }).click();
  await expect(page.locator("#source-url-error")).toContainText("is not an absolute http://, https://, ftp://, sftp:// or s3:// URL");
  await expect(page.getByLabel("URL", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("URL", { exact: true })).toBeFocused();
  await page.getByLabel("URL", { exact: true }).fill("https://192.0.2.10/feed.csv");
  await page.getByLabel("Password (or S3 secret key)").fill("e2e-pull-password");
  await page.getByLabel("User (or S3 access key ID)").fill("e2e-user");
  await page.getByRole("button", { name: "Add pull source" }).click();
  await expect(page.locator("#source-form .form-status")).toHaveText("Added the pull source of feed default.");
  await expect(page.locator("#source-url-error")).toBeHidden();
  const sourceRow = page.locator("#sources-table tbody tr");
  await expect(sourceRow).toHaveCount(1);
  await expect(sourceRow).toContainText("https://192.0.2.10/feed.csv");
  await expect(sourceRow).toContainText("user, password set");
  await expect(feedRow).toContainText("pulled");
  await expect(feedRow.locator("td").nth(5)).toHaveText("12 h");  // twice the interval
  expect(await page.content()).not.toContain("e2e-pull-password");
  // The default feed describes its products (a name column): a full feed that owns them.
  await expect(feedRow.locator("td").nth(7)).toHaveText("full: owns what it lists; deletes what it drops unless another full feed lists it");

  // A stock-and-price feed of its own name: it creates nothing; the SKU no feed described is shown as unknown (ADR 0070).
  const [header, firstRow] = firstFeed().split("\n");
  const columns = header.split(";");
  const values = firstRow.split(";");
  const stockFeed = ['"sku";"stock"', values[columns.indexOf('"sku"')] + ';"0"', '"NOT-IN-ANY-FEED";"5"', ""].join("\n");
  await page.locator("#upload-feed").fill("stock");
  await page.getByLabel("Feed file (CSV)").setInputFiles({ name: "stock.csv", mimeType: "text/csv", buffer: Buffer.from(stockFeed) });
  await page.getByRole("button", { name: "Upload and import" }).click();
  await expect(page.locator("#upload-result-status")).toHaveText(/^Import \d+ applied\.$/);
  const stockRow = page.locator("#freshness-table tbody tr", { hasText: /^stock/ });
  await expect(stockRow.locator("td").nth(7)).toHaveText("stock and price: updates known products; creates and deletes none");
  await expect(stockRow.locator("td").nth(8)).toHaveText("1");
  await expect(page.locator("#upload-result-unknown")).toHaveText(
    "Unknown SKUs, not created (no feed with product descriptions lists them): 1 (CSV)");
  await expect(page.locator("#imports-table").getByRole("link", { name: /Download the 1 unknown SKUs of import/ })).toBeVisible();
  await audit(page);
});

test("feeds: every control of the page is reachable with the keyboard", async ({ page }) => {
  await signedIn(page);
  const tenant = await (await page.request.post(base() + "/operator/api/tenants", {
    headers: { "x-csrf-token": (await (await page.request.get(base() + "/operator/api/me")).json()).csrfToken},
    data: { name: "Keyboard Feed Shop" },
  })).json();
  await page.goto(consoleUrl("feeds.html?apiId=" + encodeURIComponent(tenant.tenant.apiId)));
  await expect(page.locator("#imports-status")).toHaveText("No imports yet.");
  const reached = new Set();
  for (let stop = 0; stop < 40; stop++) {
    await page.keyboard.press("Tab");
    const id = await page.evaluate(() => document.activeElement.id || document.activeElement.textContent);
    if (await page.evaluate(() => document.activeElement === document.body)) break;  // past the last stop
    reached.add(id);
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    expect(outline, "focus outline of " + id).not.toBe("none");
  }
  for (const id of ["upload-file", "upload-feed", "upload-delta", "source-url", "source-every", "source-hostKey", "source-privateKey",
                    "source-submit", "push-example"]) {
    expect([...reached]).toContain(id);
  }
  await audit(page);
});
