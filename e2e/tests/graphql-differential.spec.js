// Differential test of the GraphQL engine: every request of a corpus (e2e/graphql-differential/
// corpus.js) runs against svc and against graphql-js (the reference implementation) executing
// docs/api/schema.graphql over snapshots of svc's own data, with resolvers that mirror svc's
// semantics (e2e/graphql-differential/reference.js). Both must answer the same `data` (key order
// included) and the same set of error paths and locations; a request error (syntax, validation,
// variables) must be one on both sides. Cases marked `knownDifference` are documented svc bugs:
// they must still differ in the documented way, so a fix is noticed (then remove the mark).
const { test, expect } = require("@playwright/test");
const { buildReference } = require("../graphql-differential/reference");
const { buildCorpus } = require("../graphql-differential/corpus");
const { svcRequest, referenceRequest, compareBodies, isRequestError } = require("../graphql-differential/compare");

const CONCURRENCY = 8;

async function pool(items, size, work) {
  let next = 0;
  const runners = Array.from({ length: size }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index], index);
    }
  });
  await Promise.all(runners);
}

test("graphql differential: svc answers as graphql-js does", async () => {
  const baseUrl = process.env.SVC_BASE_URL;
  const apiId = process.env.SVC_API_ID;
  const firstSku = process.env.SVC_FIRST_SKU;
  const svc = async (request) => (await svcRequest(baseUrl, apiId, request)).body;

  const reference = buildReference((query, variables) => svc({ query, variables }));
  const { snapshots } = reference;

  // The IDs: the first SKU, its main SKU, its similar products, a variant SKU of one of them
  // (read from its url), and an ID the catalog does not have.
  const main = await snapshots.product(firstSku);
  expect(main, `product ${firstSku} exists in svc`).not.toBeNull();
  const similar = await snapshots.similar(main.id);
  expect(similar.length, "the first SKU has at least three similar products").toBeGreaterThanOrEqual(3);
  const variant = similar.map((node) => /[?&]sku=([^&#]+)/.exec(node.url || "")).find(Boolean);
  const ctx = {
    P: firstSku,
    M: main.id,
    S: similar.slice(0, 3).map((node) => node.id),
    V: variant && decodeURIComponent(variant[1]) !== similar[0].id ? decodeURIComponent(variant[1]) : null,
    U: "NO-SUCH-SKU-00000",
    N: similar.length,
    leaves: snapshots.productLeaves,
  };

  const corpus = buildCorpus(ctx);
  const outcomes = [];  // { item, step, same, differences, kind }
  const problems = [];

  async function runOne(item, request, step) {
    const [svcBody, refBody] = await Promise.all([svc(request), referenceRequest(reference, request)]);
    const comparison = compareBodies(svcBody, refBody, item.unordered);
    const refKind = isRequestError(refBody) ? "request-error" : "data";
    if (refKind !== item.expect) {
      problems.push(`corpus: "${item.name}" expects ${item.expect} but graphql-js answered ${JSON.stringify(refBody)}`);
    }
    outcomes.push({ item, step, ...comparison, svcBody, refBody, request });
    return { svcBody, refBody, comparison };
  }

  await pool(corpus, CONCURRENCY, async (item) => {
    if (!item.walk) {
      await runOne(item, { query: item.query, variables: item.variables, operationName: item.operationName });
      return;
    }
    // A pagination walk: follow endCursor until hasNextPage is false.
    const { id, first, selection } = item.walk;
    const query = first === null
      ? `query Walk($id: ID!, $after: String) { product(id: $id) { similarProducts(after: $after) { ${selection} } } }`
      : `query Walk($id: ID!, $first: Int, $after: String) { product(id: $id) { similarProducts(first: $first, after: $after) { ${selection} } } }`;
    let after = null;
    for (let step = 0; step < 200; step += 1) {
      const variables = first === null ? { id, after } : { id, first, after };
      const { refBody, comparison } = await runOne(item, { query, variables }, step);
      const pageInfo = refBody.data && refBody.data.product && refBody.data.product.similarProducts.pageInfo;
      if (!comparison.same || !pageInfo || !pageInfo.hasNextPage) return;
      after = pageInfo.endCursor;
    }
    problems.push(`corpus: walk "${item.name}" did not end within 200 pages`);
  });

  let identical = 0;
  let known = 0;
  for (const outcome of outcomes) {
    const label = `[${outcome.item.category}] ${outcome.item.name}${outcome.step === undefined ? "" : ` (page ${outcome.step + 1})`}`;
    if (outcome.item.knownDifference) {
      known += 1;
      if (outcome.same) {
        problems.push(`${label}: known difference "${outcome.item.knownDifference}" is gone: svc now answers as graphql-js; remove the mark`);
      } else if (outcome.item.differs && !outcome.differences.some((text) => text.startsWith(outcome.item.differs))) {
        problems.push(`${label}: known difference "${outcome.item.knownDifference}" changed: expected "${outcome.item.differs}...", ` +
          `got ${outcome.differences.join("; ")}`);
      }
    } else if (outcome.same) {
      identical += 1;
    } else {
      problems.push(`${label}: ${outcome.differences.join("; ")}\n    request: ${JSON.stringify(outcome.request)}\n` +
        `    svc:        ${JSON.stringify(outcome.svcBody)}\n    graphql-js: ${JSON.stringify(outcome.refBody)}`);
    }
  }
  if (process.env.GRAPHQL_DIFF_VERBOSE) {
    for (const outcome of outcomes.filter((o) => o.item.knownDifference)) {
      console.log(`known: [${outcome.item.category}] ${outcome.item.name}: ${outcome.differences.join("; ")}`);
    }
    const byCategory = {};
    for (const outcome of outcomes) byCategory[outcome.item.category] = (byCategory[outcome.item.category] || 0) + 1;
    console.log("queries by category: " + JSON.stringify(byCategory));
  }
  if (process.env.GRAPHQL_DIFF_DUMP) {
    // Every request with both answers, for looking into a difference.
    require("node:fs").writeFileSync(process.env.GRAPHQL_DIFF_DUMP, JSON.stringify(outcomes.map((o) => ({
      category: o.item.category, name: o.item.name, step: o.step, knownDifference: o.item.knownDifference,
      same: o.same, differences: o.differences, request: o.request, svc: o.svcBody, reference: o.refBody,
    })), null, 1));
  }
  for (const problem of problems) console.log(problem);
  console.log(`graphql differential: ${outcomes.length} queries, ${identical} identical, ${known} known differences`);
  expect(outcomes.length).toBeGreaterThanOrEqual(200);
  expect(problems).toEqual([]);
});
