// The GraphQL-over-HTTP audit of the graphql-http package (the reference suite of the
// GraphQL over HTTP specification) against the real server: no MUST may fail, and at most
// three SHOULDs may warn (issue 4). Every result is printed, so a new warning is visible.
const { test, expect } = require("@playwright/test");
const { auditServer } = require("graphql-http");

test("graphql-http auditServer: no MUST failure, at most three SHOULD warnings", async () => {
  const url = process.env.SVC_BASE_URL + "/graphql";
  // The audit's own requests carry no x-api-id; with one, every query resolves for the demo shop.
  const apiId = process.env.SVC_API_ID;
  const results = await auditServer({
    url,
    fetchFn: (input, init = {}) => fetch(input, { ...init, headers: { ...(init.headers || {}), "x-api-id": apiId } }),
  });
  const failures = results.filter((result) => result.status === "error");
  const warnings = results.filter((result) => result.status === "warn");
  for (const result of [...failures, ...warnings]) {
    console.log(`${result.status} ${result.id} ${result.name}: ${result.reason}`);
  }
  console.log(`graphql-http audit: ${results.length} audits, ${failures.length} MUST failures, ${warnings.length} warnings`);
  expect(results.length).toBeGreaterThan(50);
  expect(failures.map((result) => `${result.id} ${result.name}: ${result.reason}`)).toEqual([]);
  expect(warnings.length).toBeLessThanOrEqual(3);
});
