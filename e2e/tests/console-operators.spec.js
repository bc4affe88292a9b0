// The console's Operators page (issue #9, docs/adr/0050) in Chromium against the real server of
// global-setup.js. The tests make operators of their own: global-setup's operator, whose
// password other tests use, is only the one who adds and removes them.
const { test, expect } = require("@playwright/test");
const { signedIn, audit } = require("../support/console");

test.describe.configure({ mode: "serial" });

const base = () => process.env.SVC_BASE_URL;
const consoleUrl = (page) => base() + "/console/" + page;
const unique = (name) => name + "-" + Date.now() + "-" + Math.floor(Math.random() * 1e6) + "@example.com";



async function signInStatus(request, email, password) {
  return (await request.post(base() + "/operator/api/session", { data: { email, password } })).status();
}

// Presses Tab until `selector` has the focus: the page is usable without a mouse.
async function tabTo(page, selector) {
  for (let i = 0; i < 60; i++) {
    if (await page.locator(selector).evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("Tab never reached " + selector);
}

const row = (page, email) => page.locator("#operator-table tbody tr", { hasText: email });

test("add an operator (errors next to the fields), who signs in, changes their password, and is removed", async ({ page, browser }) => {
  const newEmail = unique("new-operator");
  const initial = "initial password 1";
  const changed = "changed password 22";
  await signedIn(page);
  await page.goto(consoleUrl("operators.html"));
  await expect(row(page, process.env.SVC_OPERATOR_EMAIL)).toContainText("(you)");
  await audit(page);

  // Every problem at once, each next to its field, the first focused.
  await page.getByLabel("E-mail address").fill("not-an-address");
  await page.getByLabel("Initial password").fill("short");
  await page.getByRole("button", { name: "Add operator" }).click();
  await expect(page.locator("#email-error")).toContainText("is not an e-mail address");
  await expect(page.locator("#password-error")).toHaveText("at least 12 characters");
  await expect(page.getByLabel("E-mail address")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("E-mail address")).toBeFocused();
  await audit(page);
  await page.getByLabel("E-mail address").fill(process.env.SVC_OPERATOR_EMAIL);
  await page.getByLabel("Initial password").fill(initial);
  await page.getByRole("button", { name: "Add operator" }).click();
  await expect(page.locator("#email-error")).toContainText("exists");

  await page.getByLabel("E-mail address").fill(newEmail);
  await page.getByRole("button", { name: "Add operator" }).click();
  await expect(page.getByText("Added " + newEmail + ".")).toBeVisible();
  await expect(row(page, newEmail)).toContainText("never");

  // The new operator, in a browser of their own.
  const theirs = await browser.newContext();
  const them = await theirs.newPage();
  await them.goto(consoleUrl(""));
  await them.getByLabel("E-mail address").fill(newEmail);
  await them.getByLabel("Password").fill(initial);
  await them.getByRole("button", { name: "Sign in" }).click();
  await expect(them).toHaveURL(/tenants\.html$/);
  await them.goto(consoleUrl("operators.html"));
  await expect(row(them, newEmail)).toContainText("(you)");

  await them.getByLabel("Current password").fill("not my password");
  await them.getByLabel("New password", { exact: true }).fill(changed);
  await them.getByLabel("New password again").fill(changed);
  await them.getByRole("button", { name: "Change password" }).click();
  await expect(them.locator("#currentPassword-error")).toHaveText("not your current password");
  await expect(them.getByLabel("Current password")).toBeFocused();
  await them.getByLabel("Current password").fill(initial);
  await them.getByLabel("New password again").fill(changed + "x");
  await them.getByRole("button", { name: "Change password" }).click();
  await expect(them.locator("#newPasswordAgain-error")).toHaveText("does not match the new password");
  await them.getByLabel("New password again").fill(changed);
  await them.getByRole("button", { name: "Change password" }).click();
  await expect(them.getByText("Password changed. Your other sessions have ended.")).toBeVisible();
  await audit(them);
  expect(await signInStatus(page.request, newEmail, initial)).toBe(401);  // the old password is refused
  await them.reload();  // the session that changed it goes on
  await expect(row(them, newEmail)).toContainText("(you)");

  // Removed by the first operator: signed out at once.
  await page.reload();
  await expect(row(page, newEmail)).not.toContainText("never");  // they signed in
  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Remove " + newEmail }).click();
  await expect(row(page, newEmail)).toHaveCount(0);
  await expect(page.locator("#list-status")).toContainText("Removed " + newEmail);
  await them.reload();
  await expect(them).toHaveURL(/\/console\/\?next=operators\.html$/);
  expect(await signInStatus(page.request, newEmail, changed)).toBe(401);
  await theirs.close();
});

test("keyboard only: add an operator and remove them", async ({ page }) => {
  const newEmail = unique("keyboard-operator");
  await signedIn(page);
  await page.goto(consoleUrl("operators.html"));
  await expect(page.locator("#operator-table")).toBeVisible();
  await tabTo(page, "#email");
  await page.keyboard.type(newEmail);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Initial password")).toBeFocused();
  await page.keyboard.type("keyboard password 1");
  await page.keyboard.press("Enter");
  await expect(row(page, newEmail)).toBeVisible();

  page.once("dialog", (dialog) => dialog.accept());
  await page.locator("body").focus();
  await tabTo(page, `button[aria-label="Remove ${newEmail}"]`);
  await page.keyboard.press("Enter");
  await expect(row(page, newEmail)).toHaveCount(0);
  await expect(page.locator("#list-status")).toBeFocused();
});
