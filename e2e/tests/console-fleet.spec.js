// The console's fleet view (docs/adr/0066) in Chromium against global-setup's real server: tenants
// made to need attention (a failing feed, widget errors) come first with their badges, the search
// box and the pager go through the server's search and pages, tenant names are shown as text,
// and the page passes the axe audit. Its tenants are named "Zz Fleet <run>" so that they sort after
// every other spec's tenants.
const { test, expect } = require("@playwright/test");
const { signedIn, audit } = require("../support/console");

test.describe.configure({ mode: "serial" });

const base = () => process.env.SVC_BASE_URL;
const run = Date.now().toString(36);
const prefix = "Zz Fleet " + run;
const hostile = prefix + " <img src=x onerror=\"window.fleetXss=1\">";

async function createTenant(page, csrf, name) {
  const response = await page.request.post(base() + "/operator/api/tenants", { headers: { "x-csrf-token": csrf }, data: { name } });
  expect(response.status()).toBe(201);
  return (await response.json()).tenant;
}

test("fleet view: attention first with badges, search, pages; tenant text stays text", async ({ page }) => {
  const csrf = await signedIn(page);
  const failing = await createTenant(page, csrf, prefix + " Failing");
  const erring = await createTenant(page, csrf, prefix + " Erring");
  await createTenant(page, csrf, hostile);
  for (let i = 0; i < 50; i++) await createTenant(page, csrf, prefix + " Bulk " + String(i).padStart(2, "0"));

  // A feed file without the identifier column: the import fails.
  const upload = await page.request.post(base() + "/operator/api/tenants/" + failing.apiId + "/imports",
    { headers: { "x-csrf-token": csrf, "content-type": "text/csv" }, data: "name;price\nShirt;1000\n" });
  expect(upload.status()).toBe(202);
  await expect.poll(async () => {
    const { imports } = await (await page.request.get(base() + "/operator/api/tenants/" + failing.apiId + "/imports")).json();
    return imports[0] && imports[0].status;
  }).toBe("failed");
  // The SDK's content request with a malformed widget list.
  expect((await page.request.get(base() + "/" + erring.apiId + "/content?w=SIMILAR")).status()).toBe(400);

  await page.goto(base() + "/console/tenants.html");
  const search = page.getByLabel("Search by name, API ID or shop domain");
  await search.fill(prefix.toUpperCase());
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.locator("#list-status")).toHaveText("53 tenants of " + (await totalTenants(page)) + " match “" + prefix.toUpperCase() + "”.");
  await expect(page).toHaveURL(new RegExp("\\?q=" + encodeURIComponent(prefix.toUpperCase()).replace(/%20/g, "\\+")));

  const rows = page.locator("#tenant-table tbody tr");
  await expect(rows).toHaveCount(50);
  // Attention first: the failing feed (40 points), then the widget errors (10), then by name.
  await expect(rows.nth(0).locator("td").first()).toHaveText(prefix + " Failing");
  await expect(rows.nth(0).locator('[data-kind="feed-failing"]')).toHaveText("feed failing: default");
  await expect(rows.nth(0)).toContainText("default: failing");
  await expect(rows.nth(1).locator("td").first()).toHaveText(prefix + " Erring");
  await expect(rows.nth(1).locator('[data-kind="widget-errors"]')).toHaveText("widget errors: 1 in 24 h");
  // Then by name: "<" sorts before "B".
  await expect(rows.nth(2).locator("td").first()).toHaveText(hostile);
  await expect(rows.nth(3).locator("td").first()).toHaveText(prefix + " Bulk 00");

  // The hostile name is text: no element made of it, no script run.
  await expect(page.getByRole("link", { name: hostile, exact: true })).toBeVisible();
  expect(await page.locator("#tenant-table img").count()).toBe(0);
  expect(await page.evaluate(() => window.fleetXss)).toBeUndefined();

  // Fifty a page: the pager shows the rest.
  await expect(page.locator("#page-status")).toHaveText("Page 1 of 2");
  await page.getByRole("button", { name: "Next page" }).click();
  await expect(page.locator("#page-status")).toHaveText("Page 2 of 2");
  await expect(rows).toHaveCount(3);
  await expect(page.getByRole("button", { name: "Next page" })).toBeDisabled();
  await expect(page).toHaveURL(/page=2/);
  await expect(rows.nth(2).locator("td").first()).toHaveText(prefix + " Bulk 49");

  // A narrower search from the box, the order from the select.
  await search.fill(erring.apiId);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(prefix + " Erring");
  await expect(page.locator("#pager")).toBeHidden();
  await search.fill(prefix);
  await page.getByLabel("Order").selectOption("name");
  await expect(page.locator("#page-status")).toHaveText("Page 1 of 2");
  await expect(rows.nth(0).locator("td").first()).toHaveText(hostile);
  await expect(rows.nth(1).locator("td").first()).toHaveText(prefix + " Bulk 00");
  await audit(page);
});

async function totalTenants(page) {
  return (await (await page.request.get(base() + "/operator/api/tenants?limit=1")).json()).total;
}

// The gate saw it (session 33): the page's first list answer arrived after the operator's search
// had been answered and replaced it with the whole fleet. The first request is held here until
// the search's answer is shown.
test("fleet view: a search answered before the page's first list keeps showing the search", async ({ page }) => {
  await signedIn(page);
  let releaseFirst;
  const firstHeld = new Promise((resolve) => { releaseFirst = resolve; });
  let seen = 0;
  await page.route(/\/operator\/api\/tenants\?/, async (route) => {
    seen += 1;
    if (seen === 1) await firstHeld;
    await route.continue();
  });
  await page.goto(base() + "/console/tenants.html");
  await expect.poll(() => seen).toBe(1);
  await page.getByLabel("Search by name, API ID or shop domain").fill(prefix.toUpperCase());
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const searched = page.locator("#list-status");
  await expect(searched).toContainText("match “" + prefix.toUpperCase() + "”");
  releaseFirst();
  await page.waitForLoadState("networkidle");
  await expect(searched).toContainText("match “" + prefix.toUpperCase() + "”");
  await expect(page.locator("#tenant-table tbody tr").first()).toContainText(prefix);
});
