// Differential test of the GraphQL engine: every request of a corpus (e2e/graphql-differential/
// corpus.js) runs against svc and against graphql-js (the reference implementation) executing
// docs/api/schema.graphql over snapshots of svc's own data, with resolvers that mirror svc's
// semantics (e2e/graphql-differential/reference.js). Both must answer the same `data` (key order
// included) and the same set of error paths and locations; a request error (syntax, validation,
// variables) must be one on both sides. The corpus covers `product` and `similarProducts` and the
// set fields (productSets, setPhoto, customSet, setCompose, matchingProductClusters with its
// clusters' products, customSets: categories "sets ..."), over the demo data of global-setup.js.
// Cases marked `knownDifference` are documented svc bugs: they must still differ in the
// documented way, so a fix is noticed (then remove the mark).
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
  // The list holds its products by id; each one's own snapshot has its url.
  const similarProducts = await Promise.all(similar.map((node) => snapshots.product(node.id)));
  const variant = similarProducts.map((node) => /[?&]sku=([^&#]+)/.exec((node && node.url) || "")).find(Boolean);

  // The sets: the demo custom sets and photo sets (`svc-server demo setup`), a product shown
  // in a custom set (C, and a variant SKU of it), and the whole lists the corpus pages
  // through (loaded now, so their cursors are known when the corpus is built).
  const customSetIds = ["demo-look-city", "demo-look-autumn"];
  const customSets = await Promise.all(customSetIds.map((id) => snapshots.load("customSet", id)));
  customSets.forEach((set, i) => expect(set, `demo custom set ${customSetIds[i]} exists in svc`).not.toBeNull());
  const custom = await snapshots.product(customSets[0].products[0].id);
  const photoSets = await snapshots.load("setPhoto", "");
  expect(photoSets.length, "the demo has at least two photo sets").toBeGreaterThanOrEqual(2);
  const [productSetsP, productSetsC, composeM, clustersM, clustersC, customSetsC] = await Promise.all([
    snapshots.load("productSets", main.id), snapshots.load("productSets", custom.id), snapshots.load("setCompose", main.id),
    snapshots.load("matchingProductClusters", main.id), snapshots.load("matchingProductClusters", custom.id), snapshots.load("customSets", custom.id),
    snapshots.similar(similar[0].id),  // its cursors, for a case that gives one to another product's list
  ]);
  expect(productSetsP.length, `${firstSku} has generated sets`).toBeGreaterThanOrEqual(3);
  expect(productSetsC[0].id, `the custom set showing ${custom.id} comes first in its productSets`).toBe(customSetIds[0]);
  expect(clustersM.length, `${main.id} has at least two clusters`).toBeGreaterThanOrEqual(2);
  expect(customSetsC.length, `${custom.id} is in a custom set`).toBeGreaterThanOrEqual(1);
  const clusterSizes = clustersM.map((cluster) => cluster.products.edges.length);

  const ctx = {
    P: firstSku,
    M: main.id,
    S: similar.slice(0, 3).map((node) => node.id),
    V: variant && decodeURIComponent(variant[1]) !== similar[0].id ? decodeURIComponent(variant[1]) : null,
    U: "NO-SUCH-SKU-00000",
    N: similar.length,
    leaves: snapshots.productLeaves,
    sets: {
      C: custom.id,
      CV: (custom.variants.edges.map((edge) => edge.node.id).find((id) => id !== custom.id)) || custom.id,
      customSetIds,
      photo: photoSets.map((set) => ({ id: set.id, tags: set.tags })),
      NP: productSetsP.length,
      NC: productSetsC.length,
      NCompose: composeM.length,
      NClusters: clustersM.length,
      NClustersC: clustersC.length,
      clusterSizes,
      clusterIds: clustersM.map((cluster) => cluster.id),
      NCustomSetsC: customSetsC.length,
      NImages: customSets[0].images.edges.length,
    },
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
    // A pagination walk: follow endCursor until hasNextPage is false. Either similarProducts of
    // a product ({ id, first, selection }) or any connection: { query, variables, path, first }
    // where the query declares $after (and $first unless first is null) and `path` leads to
    // the connection in `data`.
    const { id, first, selection } = item.walk;
    const query = item.walk.query || (first === null
      ? `query Walk($id: ID!, $after: String) { product(id: $id) { similarProducts(after: $after) { ${selection} } } }`
      : `query Walk($id: ID!, $first: Int, $after: String) { product(id: $id) { similarProducts(first: $first, after: $after) { ${selection} } } }`);
    const at = item.walk.path || ["product", "similarProducts"];
    const base = item.walk.query ? item.walk.variables || {} : { id };
    let after = null;
    for (let step = 0; step < 200; step += 1) {
      const variables = first === null ? { ...base, after } : { ...base, first, after };
      const { refBody, comparison } = await runOne(item, { query, variables }, step);
      let connection = refBody.data;
      for (const key of at) connection = connection && connection[key];
      const pageInfo = connection && connection.pageInfo;
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
  const onSets = outcomes.filter((outcome) => outcome.item.category.startsWith("sets")).length;
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
  console.log(`graphql differential: ${outcomes.length} queries (${onSets} on set fields), ${identical} identical, ${known} known differences`);
  expect(outcomes.length).toBeGreaterThanOrEqual(200);
  expect(onSets, "queries on the set fields").toBeGreaterThanOrEqual(60);
  expect(problems).toEqual([]);
});

// The differential test reads the set lists from svc itself; this one checks that they agree
// with each other as docs/adr/0017 says (the reference's snapshots, no new machinery):
// - productSets of a product: first its custom sets (Product.customSets: id, title, tags,
//   the photo as imageLink, the products), then generated sets `<main SKU>#generated#<n>`
//   (title null, the anchor's image as imageLink) where set n is the anchor and each
//   position's (matchingProductClusters') n-th product, or its last when shorter; a set
//   only while some position still has an n-th product, none with fewer than two positions;
// - setCompose set n: `<main SKU>#generated#<n>`, one item per position that has an n-th
//   product (that product), its alternatives from the same position.
test("graphql sets: productSets and setCompose are built from the product's clusters and custom sets", async () => {
  const baseUrl = process.env.SVC_BASE_URL;
  const apiId = process.env.SVC_API_ID;
  const svc = async (request) => (await svcRequest(baseUrl, apiId, request)).body;
  const { snapshots } = buildReference((query, variables) => svc({ query, variables }));
  const first = await snapshots.product(process.env.SVC_FIRST_SKU);
  const similar = await snapshots.similar(first.id);
  const customSets = await Promise.all(["demo-look-city", "demo-look-autumn"].map((id) => snapshots.load("customSet", id)));
  const anchors = [...new Set([first.id, ...similar.slice(0, 4).map((node) => node.id),
    ...customSets.filter(Boolean).flatMap((set) => set.products.map((product) => product.id))])];
  const ids = (products) => products.map((product) => product.id);
  const problems = [];
  for (const id of anchors) {
    const product = await snapshots.product(id);
    const [sets, custom, clusters, compose] = await Promise.all(
      ["productSets", "customSets", "matchingProductClusters", "setCompose"].map((kind) => snapshots.load(kind, id)));
    const positions = clusters.map((cluster) => ids(cluster.products.edges.map((edge) => edge.node)));
    // One line per anchor and check: how often it failed, and the first failure.
    const found = new Map();
    const say = (text, area = text.split(/[[ ]/)[0]) => {
      if (!found.has(area)) found.set(area, { count: 0, first: text });
      found.get(area).count += 1;
    };
    custom.forEach((set, i) => {
      const expected = { id: set.id, title: set.title, tags: set.tags, imageLink: set.images.edges.length ? set.images.edges[0].node.url : null, products: ids(set.products) };
      const actual = sets[i] && { id: sets[i].id, title: sets[i].title, tags: sets[i].tags, imageLink: sets[i].imageLink, products: ids(sets[i].products) };
      if (JSON.stringify(actual) !== JSON.stringify(expected)) say(`productSets[${i}] ${JSON.stringify(actual)}, custom set ${JSON.stringify(expected)}`);
    });
    const image = product.images.edges.length ? product.images.edges[0].node.url : null;
    const expected = [];
    for (let n = 0; positions.length >= 2 && positions.some((list) => n < list.length); n += 1) {
      expected.push([id, ...positions.map((list) => list[Math.min(n, list.length - 1)])]);
    }
    sets.slice(custom.length).forEach((set, n) => {
      const want = { id: `${id}#generated#${n + 1}`, title: null, imageLink: image, products: expected[n] || "(no such set)" };
      const got = { id: set.id, title: set.title, imageLink: set.imageLink, products: ids(set.products) };
      if (JSON.stringify(got) !== JSON.stringify(want)) say(`productSets[${custom.length + n}] ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
    });
    if (positions.length >= 2 && sets.length === custom.length) say("no generated sets");
    compose.forEach((set, n) => {
      const items = positions.filter((list) => n < list.length);
      const got = { id: set.id, products: set.items.map((item) => item.product.id) };
      const want = { id: `${id}#generated#${n + 1}`, products: items.map((list) => list[n]) };
      if (JSON.stringify(got) !== JSON.stringify(want)) say(`setCompose[${n}] ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
      set.items.forEach((item, k) => {
        const list = items[k] || [];
        const stray = ids(item.alternatives).filter((alternative) => alternative === item.product.id || !list.includes(alternative));
        if (stray.length) say(`setCompose[${n}] item ${k}: alternatives ${stray.join(", ")} are not other products of its position`, "setCompose alternatives");
      });
    });
    for (const [area, { count, first: example }] of found) {
      problems.push(`${id} (positions ${clusters.map((c, i) => `${c.name}:${positions[i].length}`).join(", ")}): ${area}: ${count} failures, first: ${example}`);
    }
  }
  for (const problem of problems) console.log(problem);
  console.log(`graphql sets: ${anchors.length} anchors checked, ${problems.length} problems`);
  expect(problems).toEqual([]);
});
