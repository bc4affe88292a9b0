// The console's sets page (issue #9, "Custom sets and photo sets") in Chromium against the real
// svc-server of global-setup.js and its demo tenant: a custom set is authored by SKU search,
// ordered, tagged, given an uploaded photo, previewed by the real SDK, saved, and then shown by a
// shop page's SET-Custom widget in that order. Also a photo set, field errors next to their
// fields, the templates page, keyboard use and axe audits.
const { test, expect } = require("@playwright/test");
const { signedIn, audit } = require("../support/console");

const base = () => process.env.SVC_BASE_URL;
const apiId = () => process.env.SVC_API_ID;
const setsUrl = () => base() + "/console/sets.html?apiId=" + encodeURIComponent(apiId());
const unique = (prefix) => prefix + "-" + Date.now().toString(36) + "-" + Math.floor(Math.random() * 1e6).toString(36);
// A 1 x 1 PNG: the upload is decoded by svc and stored as a JPEG.
const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");



const mainSkuOf = (variantSku) => variantSku.replace(/-[^-]+$/, "");

async function searchAndAdd(page, query, sku) {
  await page.getByLabel("Find products by SKU or title").fill(query);
  await page.getByLabel("Find products by SKU or title").press("Enter");  // Enter searches, it does not save
  await page.getByRole("button", { name: "Add " + sku, exact: true }).click();
  await expect(page.locator("#search-status")).toHaveText(new RegExp("^" + sku + " added"));
}

test("a custom set is authored by SKU search, ordered, tagged, photographed, previewed and saved; a shop page shows it in that order", async ({ page }) => {
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await signedIn(page);
  await page.goto(setsUrl());
  await expect(page.locator("#sets-status")).not.toHaveText("Loading…");
  const setId = unique("look");

  await page.getByLabel("Set ID").fill(setId);
  await page.getByLabel("Title", { exact: true }).fill("Weekend in town");
  await page.getByLabel("Tags").fill("weekend, women");
  // By SKU prefix, then by words of the title.
  await searchAndAdd(page, "M10001", "M10001-BLACK-L");
  await page.getByLabel("Find products by SKU or title").fill("fjordline essential navy");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("button", { name: "Add M10002-NAVY-L" })).toBeVisible();
  await page.getByRole("button", { name: "Add M10002-NAVY-L" }).click();
  await searchAndAdd(page, "M10001-GREEN", "M10001-GREEN-L");
  // The last one first: two moves up with the keyboard; focus stays on the moved product's button.
  await page.getByRole("button", { name: "Move up M10001-GREEN-L" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Move up M10001-GREEN-L" })).toBeFocused();
  await page.keyboard.press("Enter");
  const order = ["M10001-GREEN-L", "M10001-BLACK-L", "M10002-NAVY-L"];
  expect(await page.locator("#chosen-products input").evaluateAll((inputs) => inputs.map((input) => input.value))).toEqual(order);

  // The model photo: uploaded, decoded and stored by svc, shown from svc's own origin.
  await page.getByLabel(/Model or mood photo/).setInputFiles({ name: "look.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Upload photo" }).click();
  await expect(page.locator("#upload-status")).toHaveText("Photo uploaded.");
  const photoUrl = await page.getByLabel("Photo address").inputValue();
  expect(photoUrl).toMatch(new RegExp("/" + apiId() + "/photos/[0-9a-f]{64}\\.jpg$"));
  await expect(page.locator("#photo-preview")).toBeVisible();
  const photo = await page.request.get(photoUrl);
  expect(photo.headers()["content-type"]).toBe("image/jpeg");
  expect(photo.headers()["cache-control"]).toContain("immutable");

  // The preview: the real SDK renders the unsaved draft, in the chosen order.
  await page.getByRole("button", { name: "Preview" }).click();
  const widget = page.frameLocator("#preview").locator("#preview-widget");
  await expect(widget).toHaveAttribute("data-svc-state", "rendered");
  const previewed = await widget.locator("li.svc-card").evaluateAll((items) => items.map((item) => item.getAttribute("data-svc-sku")));
  expect(previewed.map(mainSkuOf)).toEqual(order.map(mainSkuOf));
  const before = await page.request.get(base() + "/operator/api/tenants/" + apiId() + "/sets/custom/" + setId);
  expect(before.status()).toBe(404);  // a preview saves nothing

  await audit(page, ["#preview"]);
  await page.getByRole("button", { name: "Save set" }).click();
  await expect(page.locator(".form-status")).toHaveText("Set " + setId + " saved.");
  await expect(page.getByRole("cell", { name: setId, exact: true })).toBeVisible();
  // The saved set stays in the editor, its products named from the catalog.
  await expect(page.locator("#chosen-products .product-name").first()).toHaveText("Maison Lys Tailored T-Shirt Green");
  const saved = await (await page.request.get(base() + "/operator/api/tenants/" + apiId() + "/sets/custom/" + setId)).json();
  expect(saved.skus).toEqual(order);
  expect(saved.tags).toEqual(["weekend", "women"]);
  expect(saved.images).toEqual([photoUrl]);

  // A shop page: the demo's stories page with its SET-Custom widget pointed at the new set.
  await expect(async () => {
    const shop = await page.context().newPage();
    try {
      await shop.goto(base() + "/demo/content.html");
      await shop.locator("#story-set-widget").evaluate((element, id) => element.setAttribute("data-set-id", id), setId);
      const shopWidget = shop.locator("#story-set-widget");
      await expect(shopWidget).toHaveAttribute("data-svc-state", "rendered", { timeout: 3000 });
      await expect(shopWidget.locator("li.svc-card").first()).toHaveAttribute("data-svc-sku", /^M10001-GREEN/, { timeout: 2000 });
      const shown = await shopWidget.locator("li.svc-card").evaluateAll((items) => items.map((item) => item.getAttribute("data-svc-sku")));
      expect(shown.map(mainSkuOf)).toEqual(order.map(mainSkuOf));
    } finally {
      await shop.close();
    }
  }).toPass({ timeout: 15_000 });
  expect(errors).toEqual([]);
});

test("field errors are shown next to their fields, and a photo set is saved with an uploaded photo", async ({ page }) => {
  await signedIn(page);
  await page.goto(setsUrl());
  await expect(page.locator("#sets-status")).not.toHaveText("Loading…");
  const setId = unique("err");
  await page.getByLabel("Set ID").fill(setId);
  await page.getByRole("button", { name: "Save set" }).click();
  // The title first (the id is in the form; the server checks the title next).
  await expect(page.locator("#title-error")).toHaveText("must not be empty");
  await expect(page.getByLabel("Title", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Title", { exact: true })).toBeFocused();
  await page.getByLabel("Title", { exact: true }).fill("No products yet");
  await page.getByRole("button", { name: "Save set" }).click();
  await expect(page.locator("#sku-search-error")).toHaveText("must not be empty");
  await expect(page.getByLabel("Find products by SKU or title")).toHaveAttribute("aria-invalid", "true");
  // Not an image: refused by svc's decoder, shown at the file field.
  await page.getByLabel(/Model or mood photo/).setInputFiles({ name: "fake.jpg", mimeType: "image/jpeg", buffer: Buffer.from("<html>no</html>") });
  await page.getByRole("button", { name: "Upload photo" }).click();
  await expect(page.locator("#photo-file-error")).toContainText("not a JPEG or PNG image");
  expect((await page.request.get(base() + "/operator/api/tenants/" + apiId() + "/sets/custom/" + setId)).status()).toBe(404);

  // A photo set: the photo with its tags.
  const photoSetId = unique("mood");
  await page.getByRole("button", { name: "New set" }).click();
  await page.getByLabel("Kind").selectOption("photo");
  await expect(page.locator("#products-fieldset")).toBeHidden();
  await page.getByLabel("Set ID").fill(photoSetId);
  await page.getByLabel("Title", { exact: true }).fill("Beach mood");
  await page.getByLabel("Tags").fill("beach");
  await page.getByLabel(/Model or mood photo/).setInputFiles({ name: "mood.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Upload photo" }).click();
  await expect(page.locator("#upload-status")).toHaveText("Photo uploaded.");
  await page.getByRole("button", { name: "Save set" }).click();
  await expect(page.locator(".form-status")).toHaveText("Set " + photoSetId + " saved.");
  const saved = await (await page.request.get(base() + "/operator/api/tenants/" + apiId() + "/sets/photo/" + photoSetId)).json();
  expect(saved.tags).toEqual(["beach"]);
  expect(saved.images[0]).toMatch(/\/photos\/[0-9a-f]{64}\.jpg$/);
  await audit(page, ["#preview"]);
});

test("templates: a bad template is refused at its JSON with the path named; a good one is listed, reachable by the nav", async ({ page }) => {
  await signedIn(page);
  await page.goto(base() + "/console/tenants.html");
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Templates" }).click();
  await expect(page).toHaveURL(/templates\.html$/);
  await expect(page.locator("#templates-status")).not.toHaveText("Loading…");
  const id = unique("tpl");
  await page.getByLabel("Template ID").fill(id);
  const definition = {
    title: "E2E casual", tags: ["casual"], departments: ["Women"], occasions: [],
    slots: [{ name: "top", categories: ["T-Shirts"] }, { name: "bottom", categories: ["Jeans"], colorFamilies: ["plaid"] }],
  };
  await page.getByLabel("Definition (JSON)").fill(JSON.stringify(definition));
  await page.getByRole("button", { name: "Save template" }).click();
  await expect(page.locator("#definition-error")).toContainText("slots[1].colorFamilies[0]: not a colour family");
  await expect(page.getByLabel("Definition (JSON)")).toHaveAttribute("aria-invalid", "true");
  definition.slots[1].colorFamilies = ["blue"];
  await page.getByLabel("Definition (JSON)").fill(JSON.stringify(definition));
  await page.getByRole("button", { name: "Save template" }).click();
  await expect(page.locator(".form-status")).toHaveText("Template " + id + " saved.");
  await expect(page.getByRole("cell", { name: id, exact: true })).toBeVisible();
  await audit(page, ["#preview"]);
  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Delete " + id }).click();
  await expect(page.locator("#templates-status")).toHaveText("Template " + id + " deleted.");
});
