// The Categories page (issue 21, docs/adr/0075) in Chromium against the real server of global-setup.js: a tenant of
// its own whose jeans sit in a category no content-pool template lists; svc proposes the slot, the operator takes it,
// the preview shows the SET widget empty now and filled with the mapping (the real SDK, the tenant's catalog), and
// after saving the shop's own content answer has the set. Its own tenant: the demo tenant's content stays as it is.
const { test, expect } = require("@playwright/test");
const { signedIn, audit } = require("../support/console");

const base = () => process.env.SVC_BASE_URL;

function feed() {
  const header = "sku;main-sku;stock;name;retail-price;deeplink;image;category-path;abteilung;farbe";
  const row = (id, name, category) =>
    `${id}-M;${id};5;${name};4900;https://shop.example/${id};https://shop.example/${id}.jpg;${category};Women;Blue`;
  return [header, row("DENIM", "Skinny jeans dark", "Women > Skinny Jeans"), row("DENIM2", "Skinny jeans light", "Women > Skinny Jeans"),
          row("TEE", "Linen tee", "Women > Topwear > T-Shirts"), row("SNEAKER", "Canvas sneaker", "Women > Footwear > Sneakers"), ""].join("\n");
}

async function setSkus(request, apiId) {
  const answer = await request.get(`${base()}/${encodeURIComponent(apiId)}/content?w=SET&t=product&s=DENIM-M&i=`);
  expect(answer.status()).toBe(200);
  return (await answer.json()).widgets[0].items.map((item) => item.sku).sort();
}

test("categories: svc proposes a slot, the preview shows SET before and after, saving changes the shop's SET", async ({ page }) => {
  test.setTimeout(60_000);
  const csrf = await signedIn(page);
  const created = await page.request.post(base() + "/operator/api/tenants", { headers: { "x-csrf-token": csrf }, data: { name: "Category Shop" } });
  expect(created.status()).toBe(201);
  const apiId = (await created.json()).tenant.apiId;
  const tenantApi = base() + "/operator/api/tenants/" + encodeURIComponent(apiId);
  const upload = await page.request.post(tenantApi + "/imports", { headers: { "x-csrf-token": csrf, "content-type": "text/csv" }, data: feed() });
  expect(upload.status()).toBe(202);
  await expect.poll(async () => (await (await page.request.get(tenantApi + "/imports")).json()).imports[0].status, { timeout: 20_000 }).toBe("applied");
  expect(await setSkus(page.request, apiId)).toEqual([]);  // no template lists "Skinny Jeans"

  await page.goto(base() + "/console/categories.html?apiId=" + encodeURIComponent(apiId));
  await expect(page.locator("#tenant-name")).toHaveText("Category Shop");
  await expect(page.locator("#mapping-status")).toHaveText("3 categories, 0 mapped.");
  const skinny = page.getByRole("row", { name: /Skinny Jeans/ });
  await expect(skinny).toContainText("bottom (100%, by name)");  // proposed, not applied
  await expect(skinny.getByRole("combobox")).toHaveValue("");
  await expect(page.getByRole("row", { name: /Sneakers/ })).toContainText("shoes");  // matched today
  await audit(page, ["#preview-before", "#preview-after"]);

  // Before: the saved content has no set for the jeans.
  await page.getByLabel("Product SKU").fill("DENIM-M");
  await page.getByRole("button", { name: "Show preview" }).click();
  await expect(page.frameLocator("#preview-before").locator("#set-widget")).toHaveAttribute("data-svc-state", "empty");

  // The operator takes svc's proposals: the "after" frame shows the set from the tenant's catalog; nothing is stored yet.
  await page.getByRole("button", { name: "Take svc's proposals" }).click();
  await expect(skinny.getByRole("combobox")).toHaveValue("bottom");
  await expect(page.getByRole("row", { name: /Sneakers/ }).getByRole("combobox")).toHaveValue("");  // matched today: left alone
  const after = page.frameLocator("#preview-after").locator("#set-widget");
  await expect(after).toHaveAttribute("data-svc-state", "rendered");
  const shown = await after.locator("li.svc-card").evaluateAll((items) => items.map((item) => item.getAttribute("data-svc-sku")));
  expect(shown.sort()).toEqual(["SNEAKER-M", "TEE-M"]);
  expect(await setSkus(page.request, apiId)).toEqual([]);

  await page.getByRole("button", { name: "Save mapping" }).click();
  await expect(page.locator("#mapping-form .form-status")).toHaveText("Saved: 1 categories mapped. The tenant's content is rebuilt.");
  await expect(page.locator("#mapping-status")).toHaveText("3 categories, 1 mapped.");
  await expect.poll(() => setSkus(page.request, apiId), { timeout: 20_000 }).toEqual(["SNEAKER-M", "TEE-M"]);
  // The "before" frame now shows the saved mapping too.
  await expect(page.frameLocator("#preview-before").locator("#set-widget")).toHaveAttribute("data-svc-state", "rendered");
});
