// GraphiQL at GET /graphql (docs/adr/0084): a browser that asks for HTML gets svc's GraphiQL page under a strict CSP
// (no inline script, every file from svc), runs a query with the API ID from the page's field, and sees the catalog.
const { test, expect } = require("@playwright/test");

test("a browser opening /graphql gets GraphiQL; a query with the API ID field runs under the strict CSP", async ({ page }, testInfo) => {
  const problems = [];
  page.on("console", (message) => { if (message.type() === "error") problems.push(message.text()); });
  page.on("pageerror", (error) => problems.push(error.message));
  const requested = [];
  page.on("request", (request) => requested.push(request.url()));
  page.on("response", (response) => { if (response.status() >= 400) problems.push(response.status() + " " + response.url()); });

  const response = await page.goto(process.env.SVC_BASE_URL + "/graphql?apiId=" + process.env.SVC_API_ID);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("text/html");
  expect(response.headers()["content-security-policy"]).toContain("script-src 'self';");
  expect(response.headers()["content-security-policy"]).not.toContain("unsafe");
  await expect(page.getByLabel(/API ID/)).toHaveValue(process.env.SVC_API_ID);

  const editor = page.locator(".graphiql-query-editor .CodeMirror").first();
  await expect(editor).toBeVisible({ timeout: 15_000 });
  const sku = process.env.SVC_FIRST_SKU;
  await editor.click();
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Delete");
  // The operation keeps the default query's name: GraphiQL reads the operation name from the editor after a short
  // delay, and a click before that sends the old name with the new text ("Unknown operation named ...").
  await page.keyboard.insertText(`query Similar { product(id: "${sku}") { id name similarProducts(first: 2) { edges { node { id } } } } }`);
  await page.getByRole("button", { name: /Execute query/ }).click();
  const result = page.locator(".graphiql-response .CodeMirror");
  await expect(result).toContainText(`"name"`, { timeout: 10_000 });
  await expect(result).not.toContainText("Unauthorized");
  await expect(result).toContainText(`"edges"`);
  await page.screenshot({ path: testInfo.outputPath("graphiql.png"), fullPage: true });

  // Every file came from svc, and nothing was refused by the CSP or failed.
  expect(requested.filter((url) => !url.startsWith(process.env.SVC_BASE_URL + "/") && !url.startsWith("data:"))).toEqual([]);
  expect(problems).toEqual([]);
});

test("a GraphQL client's GET /graphql still gets GraphQL, not the page", async () => {
  for (const accept of ["application/json", "application/graphql-response+json", "*/*", "text/html, application/json"]) {
    const response = await fetch(process.env.SVC_BASE_URL + "/graphql", { headers: { accept } });
    expect(response.status, accept).toBe(400);
    expect((await response.json()).errors[0].errorType, accept).toBe("InvalidRequest");
  }
  const page = await fetch(process.env.SVC_BASE_URL + "/graphql", { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<script src="/graphiql/graphiql-page.js"></script>');
  const unknown = await fetch(process.env.SVC_BASE_URL + "/graphiql/nope.js");
  expect(unknown.status).toBe(404);
});
