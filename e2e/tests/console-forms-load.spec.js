// Console forms filled from the server take no input before their stored values are shown
// (docs/testing.md: the fresh-clone gate's "#css-error stayed empty"). The operator (or a spec)
// who typed into the widget settings before their GET answered had the text replaced by the
// stored values when it arrived, and "Save" then sent those. Each page's request is held here
// until the form has been seen disabled; with the old pages the field was editable meanwhile.
const { test, expect } = require("@playwright/test");
const { signedIn } = require("../support/console");

const base = () => process.env.SVC_BASE_URL;
const apiId = () => process.env.SVC_API_ID;

const pages = [
  { page: "widgets.html", held: /\/operator\/api\/tenants\/[^/]+\/widgets$/, field: "CSS of the tenant", button: "Save widget settings" },
  { page: "tenant.html", held: /\/operator\/api\/tenants\/[^/?]+$/, field: "Attribution window (days)", button: "Save settings" },
  { page: "categories.html", held: /\/operator\/api\/tenants\/[^/]+\/category-mapping$/, button: "Take svc's proposals" },
];

for (const { page: name, held, field, button } of pages) {
  test(`${name}: the form is disabled until its stored values are shown`, async ({ page }) => {
    await signedIn(page);
    let release;
    const answered = new Promise((resolve) => { release = resolve; });
    let heldCount = 0;
    await page.route(held, async (route) => {
      if (route.request().method() !== "GET") return route.continue();
      heldCount += 1;
      await answered;
      await route.continue();
    });
    await page.goto(base() + "/console/" + name + "?apiId=" + encodeURIComponent(apiId()));
    await expect.poll(() => heldCount).toBeGreaterThan(0);
    // While the stored values are on their way nothing can be typed or saved.
    if (field) await expect(page.getByLabel(field)).toBeDisabled();
    await expect(page.getByRole("button", { name: button })).toBeDisabled();
    release();
    if (field) await expect(page.getByLabel(field)).toBeEnabled();
    await expect(page.getByRole("button", { name: button })).toBeEnabled();
    await expect(page.locator("form[aria-busy]")).toHaveCount(0);
  });
}
