// The schema the server reports through introspection is exactly docs/api/schema.graphql,
// as graphql-js (the reference implementation) reads both: GraphiQL and client code
// generators load the served schema the same way.
const fs = require("node:fs");
const path = require("node:path");
const { test, expect } = require("@playwright/test");
const { buildClientSchema, buildSchema, getIntrospectionQuery, printSchema } = require("graphql");

const introspectionQuery = getIntrospectionQuery({
  descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true,
});

async function servedSchema(headers = {}) {
  const response = await fetch(process.env.SVC_BASE_URL + "/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ query: introspectionQuery }),
  });
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body.errors).toBeUndefined();
  return buildClientSchema(body.data);
}

test("introspection serves exactly docs/api/schema.graphql", async () => {
  const documented = buildSchema(fs.readFileSync(path.join(__dirname, "..", "..", "docs", "api", "schema.graphql"), "utf8"));
  const served = await servedSchema({ "x-api-id": process.env.SVC_API_ID });
  expect(printSchema(served)).toBe(printSchema(documented));
});

test("introspection needs no API ID: the schema is public, the data is not", async () => {
  const served = await servedSchema();
  expect(served.getQueryType().name).toBe("Query");
  const response = await fetch(process.env.SVC_BASE_URL + "/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: `{ __type(name: "Product") { name } product(id: "${process.env.SVC_FIRST_SKU}") { id } }` }),
  });
  const body = await response.json();
  expect(body.data).toEqual({ __type: { name: "Product" }, product: null });
  expect(body.errors.map((error) => [error.errorType, error.path])).toEqual([["Unauthorized", ["product"]]]);
});
