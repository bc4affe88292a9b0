// Automatic persisted queries with Apollo Client itself (npm @apollo/client and its persisted-queries link) against
// the real server (docs/adr/0084): the first request sends only the hash, svc answers PersistedQueryNotFound, Apollo
// sends the text once; from then on a hash is enough, over a GET that caches may keep.
const { test, expect } = require("@playwright/test");
const crypto = require("node:crypto");
const path = require("node:path");
const { createRequire } = require("node:module");

const tools = createRequire(path.join(__dirname, "..", "api-tools", "package.json"));
const { ApolloClient, InMemoryCache, HttpLink, gql } = tools("@apollo/client/core");
const { createPersistedQueryLink } = tools("@apollo/client/link/persisted-queries");

const sha256 = (text) => crypto.createHash("sha256").update(text).digest("hex");
const query = gql`
  query SimilarForApq($id: ID!) {
    product(id: $id) { id name similarProducts(first: 3) { edges { node { id name } } pageInfo { endCursor hasNextPage } } }
  }
`;

// An Apollo client whose requests are recorded as the server saw them.
function client(apiId) {
  const sent = [];
  const recordingFetch = async (url, init) => {
    const response = await fetch(url, init);
    const copy = response.clone();
    const body = await copy.text();
    sent.push({ method: init.method, url: String(url), body: init.body ? JSON.parse(init.body) : null, status: response.status,
                cacheControl: response.headers.get("cache-control"), etag: response.headers.get("etag"), answer: JSON.parse(body) });
    return response;
  };
  const http = new HttpLink({ uri: process.env.SVC_BASE_URL + "/graphql", headers: apiId ? { "x-api-id": apiId } : {}, fetch: recordingFetch });
  const link = createPersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(http);
  return { apollo: new ApolloClient({ link, cache: new InMemoryCache() }), sent };
}

test("Apollo Client's persisted queries: hash, PersistedQueryNotFound, the text once, then the hash alone over a cacheable GET", async () => {
  const variables = { id: process.env.SVC_FIRST_SKU };
  const first = client(process.env.SVC_API_ID);
  const result = await first.apollo.query({ query, variables, fetchPolicy: "network-only" });
  expect(result.data.product.similarProducts.edges.length).toBe(3);

  // Apollo's two requests: the hash alone (GET), refused; then the text with its hash (POST).
  expect(first.sent.map((r) => [r.method, r.status])).toEqual([["GET", 200], ["POST", 200]]);
  const [hashOnly, withText] = first.sent;
  const url = new URL(hashOnly.url);
  expect(url.searchParams.has("query")).toBe(false);
  const hash = JSON.parse(url.searchParams.get("extensions")).persistedQuery.sha256Hash;
  expect(hash).toMatch(/^[0-9a-f]{64}$/);
  expect(hashOnly.answer.errors.map((e) => [e.message, e.extensions.code])).toEqual([["PersistedQueryNotFound", "PERSISTED_QUERY_NOT_FOUND"]]);
  expect(hashOnly.cacheControl).toBe("no-store");
  expect(withText.body.extensions.persistedQuery.sha256Hash).toBe(hash);
  expect(sha256(withText.body.query)).toBe(hash);

  // Another client (another page, another visitor): one GET with the hash, answered from the registered text.
  const second = client(process.env.SVC_API_ID);
  const again = await second.apollo.query({ query, variables, fetchPolicy: "network-only" });
  expect(again.data).toEqual(result.data);
  expect(second.sent.map((r) => [r.method, r.status])).toEqual([["GET", 200]]);
  expect(new URL(second.sent[0].url).searchParams.has("query")).toBe(false);
  expect(second.sent[0].cacheControl).toBe("public, max-age=60");
  expect(second.sent[0].etag).toMatch(/^"[0-9a-f]{32}"$/);

  // A cache revalidating what it kept: 304 while the answer is the same.
  const revalidated = await fetch(second.sent[0].url, { headers: { "x-api-id": process.env.SVC_API_ID, "if-none-match": second.sent[0].etag } });
  expect(revalidated.status).toBe(304);

  // The text was registered for this tenant: without its API ID the hash is unknown (another partition).
  const anonymous = await fetch(second.sent[0].url);
  expect((await anonymous.json()).errors[0].message).toBe("PersistedQueryNotFound");
});

test("a hash that is not the text's SHA-256 is refused with 400 naming the member", async () => {
  const response = await fetch(process.env.SVC_BASE_URL + "/graphql", {
    method: "POST", headers: { "content-type": "application/json", "x-api-id": process.env.SVC_API_ID },
    body: JSON.stringify({ query: "{ __typename }", extensions: { persistedQuery: { version: 1, sha256Hash: sha256("{ other }") } } }),
  });
  expect(response.status).toBe(400);
  expect((await response.json()).errors[0].message).toBe("extensions.persistedQuery.sha256Hash: is not the SHA-256 of query");
});
