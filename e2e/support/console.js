// What every console spec needs: the global-setup operator signed in through the API, and the
// accessibility audit the issue asks for (axe-core: no serious or critical WCAG 2.x A/AA violation).
const { expect } = require("@playwright/test");
const AxeBuilder = require("@axe-core/playwright").default;

// Signs the page's browser context in; returns the session's CSRF token for API calls.
async function signedIn(page) {
  const response = await page.request.post(process.env.SVC_BASE_URL + "/operator/api/session",
    { data: { email: process.env.SVC_OPERATOR_EMAIL, password: process.env.SVC_OPERATOR_PASSWORD } });
  expect(response.status()).toBe(200);
  return (await response.json()).csrfToken;
}

// `exclude`: selectors left out, e.g. a preview frame showing the shop's widgets, not the console.
async function audit(page, exclude = []) {
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  for (const selector of exclude) builder = builder.exclude(selector);
  const results = await builder.analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", "))).toEqual([]);
}

module.exports = { signedIn, audit };
