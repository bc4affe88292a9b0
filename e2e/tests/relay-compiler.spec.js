// relay-compiler (Relay's own, from npm) accepts the served schema with a small query set that pages the way a Relay
// app does: usePaginationFragment's @connection and @refetchable on Query (svc has no Node interface: docs/adr/0085).
const { test, expect } = require("@playwright/test");
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { buildClientSchema, getIntrospectionQuery, printSchema } = require("graphql");

const relayCompiler = path.join(__dirname, "..", "api-tools", "node_modules", ".bin", "relay-compiler");

const sources = {
  "Similar.js": `
    import { graphql } from "react-relay";
    export const page = graphql\`
      query SimilarQuery($id: ID!) { ...Similar_query @arguments(id: $id) }
    \`;
    export const list = graphql\`
      fragment Similar_query on Query @refetchable(queryName: "SimilarPaginationQuery")
        @argumentDefinitions(id: {type: "ID!"}, count: {type: "Int", defaultValue: 12}, cursor: {type: "String"}) {
        product(id: $id) {
          id
          similarProducts(first: $count, after: $cursor) @connection(key: "Similar_similarProducts") {
            edges { node { id name brand images(first: 1) { edges { node { url thumbnailUrl } } } } }
          }
        }
      }
    \`;`,
  "ProductSets.js": `
    import { graphql } from "react-relay";
    export const page = graphql\`
      query ProductSetsQuery($sku: String!) { ...ProductSets_query @arguments(sku: $sku) }
    \`;
    export const list = graphql\`
      fragment ProductSets_query on Query @refetchable(queryName: "ProductSetsPaginationQuery")
        @argumentDefinitions(sku: {type: "String!"}, count: {type: "Int", defaultValue: 10}, cursor: {type: "String"}) {
        productSets(input: {queryType: SKU, value: $sku}, first: $count, after: $cursor) @connection(key: "ProductSets_productSets") {
          edges { node { id title products { id name } } }
        }
      }
    \`;`,
};

test("relay-compiler accepts the served schema: @connection and @refetchable pagination compile", async () => {
  test.skip(!fs.existsSync(relayCompiler), "e2e/api-tools is not installed (scripts/install-deps.sh)");
  const response = await fetch(process.env.SVC_BASE_URL + "/graphql", {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: getIntrospectionQuery({ descriptions: true }) }),
  });
  const schema = printSchema(buildClientSchema((await response.json()).data));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-relay-"));
  try {
    fs.mkdirSync(path.join(dir, "src", "__generated__"), { recursive: true });
    fs.writeFileSync(path.join(dir, "schema.graphql"), schema);
    for (const [name, text] of Object.entries(sources)) fs.writeFileSync(path.join(dir, "src", name), text);
    fs.writeFileSync(path.join(dir, "relay.config.json"),
                     JSON.stringify({ src: "./src", schema: "./schema.graphql", language: "javascript", artifactDirectory: "./src/__generated__" }));
    const run = spawnSync(relayCompiler, [], { cwd: dir, encoding: "utf8" });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const generated = fs.readdirSync(path.join(dir, "src", "__generated__")).sort();
    expect(generated).toEqual(["ProductSetsPaginationQuery.graphql.js", "ProductSetsQuery.graphql.js", "ProductSets_query.graphql.js",
                               "SimilarPaginationQuery.graphql.js", "SimilarQuery.graphql.js", "Similar_query.graphql.js"]);
    // Forward pagination: the query Relay generated asks for the cursor and the flag it pages with.
    const pagination = fs.readFileSync(path.join(dir, "src", "__generated__", "SimilarPaginationQuery.graphql.js"), "utf8");
    expect(pagination).toContain("pageInfo {\\n        endCursor\\n        hasNextPage\\n      }");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
