// The differential corpus: GraphQL requests run against svc and graphql-js alike.
//
// buildCorpus(ctx) returns cases { category, name, query, variables?, operationName?,
// expect: "data" | "request-error", knownDifference?, walk? }.
//   expect          what graphql-js must do with the case (a check on the corpus itself):
//                   "data" = it executes, "request-error" = syntax/validation/variable error.
//   knownDifference a documented svc difference, "bug: ..." (a specification rule svc breaks) or
//                   "location: ..." (svc points a validation error elsewhere than graphql-js):
//                   the case must still differ, and one of its differences must start with
//                   `differs` (so a fix, or a change of the failure, is noticed).
//   unordered       response paths ("a.b") of lists whose order the specification leaves open;
//                   compared as sets.
//   walk            a pagination walk, run page by page following endCursor until hasNextPage is
//                   false; every page counts as one query. { id, first, selection } walks
//                   product(id).similarProducts; { query, variables, path, first } any connection
//                   (the query declares $after, and $first unless first is null; `path` leads
//                   to the connection in `data`).
// ctx: { P: a variant SKU, M: its main SKU (Product.id), S: main SKUs of P's similar list,
//        V: a variant SKU of S[0] (or null), U: an unknown ID, N: length of P's similar list,
//        leaves: the scalar leaves of Product generated from the SDL, sets: see setCases() }.
const { encodeCursor, cursorOf, filterScope } = require("./reference");

function buildCorpus(ctx) {
  const { P, M, S, V, U, N } = ctx;
  // Cursors are bound to their list (docs/adr/0053): sim(i) is a cursor of M's (P's) similar
  // products, as svc issued it; simForm(x) the unsigned form of an index svc never issued.
  const sim = (index) => cursorOf(index, "similarProducts", `Product ${M}`);
  const simForm = (index) => encodeCursor(index, "similarProducts", `Product ${M}`);
  const cases = [];
  const add = (category, name, query, extra = {}) => cases.push({ category, name, query, expect: "data", ...extra });
  const bad = (category, name, query, extra = {}) => cases.push({ category, name, query, expect: "request-error", ...extra });
  const j = JSON.stringify;
  const scalars = "id name brand modelId url";
  const page = "edges { cursor node { id name } } pageInfo { startCursor endCursor hasPreviousPage hasNextPage }";

  // ---- basics: every ID kind, every scalar, the generated leaf selection -----------------
  for (const [label, id] of [["variant SKU", P], ["main SKU", M], ["similar main SKU 1", S[0]], ["similar main SKU 2", S[1]],
    ["similar main SKU 3", S[2]], ["unknown ID", U], ["empty ID", ""], ["lower-cased SKU", P.toLowerCase()]]) {
    add("basic", `scalars of ${label}`, `{ product(id: ${j(id)}) { ${scalars} } }`);
  }
  if (V) add("basic", "variant SKU of a similar product", `{ product(id: ${j(V)}) { id name url } }`);
  add("basic", "all SDL leaves of Product (generated)", `{ product(id: ${j(P)}) { ${ctx.leaves} } }`);
  add("basic", "generated leaves on similar nodes", `{ product(id: ${j(M)}) { similarProducts(first: 5) { edges { node { ${ctx.leaves} } } } } }`);
  add("basic", "id only", `{ product(id: ${j(P)}) { id } }`);
  add("basic", "query keyword, no name", `query { product(id: ${j(P)}) { name } }`);
  add("basic", "integer literal ID (coerced to a string)", `{ product(id: 10001) { id } }`);
  add("basic", "default first (12)", `{ product(id: ${j(P)}) { similarProducts { ${page} } } }`);
  add("basic", "block string ID", `{ product(id: """${P}""") { id } }`);
  add("basic", "escaped string ID", `{ product(id: "${P.replace(/-/g, "\\u002D")}") { id } }`);
  add("basic", "commas and comments are ignored", `# leading comment\n{ product(id: ${j(P)}) ,{ id, name, # trailing\n brand } }`);
  add("basic", "unicode escape in an unknown ID", `{ product(id: "\\u00e9\\u4e2d") { id } }`);
  add("basic", "unknown ID with nested selection", `{ product(id: ${j(U)}) { id similarProducts(first: 3) { ${page} } } }`);

  // ---- aliases -----------------------------------------------------------------------------
  add("aliases", "alias on a root field", `{ p: product(id: ${j(P)}) { id } }`);
  add("aliases", "two products under aliases", `{ a: product(id: ${j(P)}) { id } b: product(id: ${j(S[0])}) { id name } }`);
  add("aliases", "known and unknown product", `{ known: product(id: ${j(P)}) { id } unknown: product(id: ${j(U)}) { id } }`);
  add("aliases", "alias on scalars", `{ product(id: ${j(P)}) { sku: id title: name maker: brand link: url } }`);
  add("aliases", "alias equal to another field's name", `{ product(id: ${j(P)}) { name: name id: id } }`);
  add("aliases", "same scalar twice under two aliases", `{ product(id: ${j(P)}) { a: name b: name id } }`);
  add("aliases", "same field twice, different first", `{ product(id: ${j(P)}) { two: similarProducts(first: 2) { ${page} } five: similarProducts(first: 5) { ${page} } } }`);
  add("aliases", "same field twice, different after", `{ product(id: ${j(P)}) { p1: similarProducts(first: 3) { ${page} } p2: similarProducts(first: 3, after: ${j(sim(2))}) { ${page} } } }`);
  add("aliases", "same product under many aliases", `{ ${["a", "b", "c", "d"].map((k, i) => `${k}: product(id: ${j([P, M, S[0], U][i])}) { id }`).join(" ")} }`);
  add("aliases", "aliased edges and pageInfo", `{ product(id: ${j(P)}) { similarProducts(first: 2) { list: edges { at: cursor item: node { key: id } } info: pageInfo { more: hasNextPage last: endCursor } } } }`);
  add("aliases", "unaliased and aliased same field (merged)", `{ product(id: ${j(P)}) { id id name } }`);
  add("aliases", "identical fields merged, sub-selections joined", `{ product(id: ${j(P)}) { similarProducts(first: 2) { edges { cursor } } similarProducts(first: 2) { pageInfo { hasNextPage } } } }`);
  add("aliases", "merged subselections at depth", `{ product(id: ${j(P)}) { similarProducts(first: 2) { edges { node { id } } edges { node { name } cursor } } } }`);
  add("aliases", "aliases differing by args at two levels", `{ product(id: ${j(M)}) { s: similarProducts(first: 1) { edges { node { a: similarProducts(first: 1) { edges { cursor } } b: similarProducts(first: 2) { edges { cursor } } } } } } }`);
  add("aliases", "alias on __typename", `{ t: __typename product(id: ${j(P)}) { kind: __typename } }`);

  // ---- fragments ---------------------------------------------------------------------------
  add("fragments", "named fragment on Product", `{ product(id: ${j(P)}) { ...F } } fragment F on Product { id name }`);
  add("fragments", "fragment defined before the operation", `fragment F on Product { id brand } { product(id: ${j(P)}) { ...F } }`);
  add("fragments", "nested named fragments", `{ product(id: ${j(P)}) { ...A } } fragment A on Product { id similarProducts(first: 2) { ...C } } fragment C on ProductConnection { edges { ...E } pageInfo { ...I } } fragment E on ProductEdge { cursor node { ...B } } fragment B on Product { name } fragment I on PageInfo { hasNextPage endCursor }`);
  add("fragments", "fragment on Query", `{ ...Q } fragment Q on Query { product(id: ${j(P)}) { id } }`);
  add("fragments", "the same fragment spread twice", `{ product(id: ${j(P)}) { ...F ...F } } fragment F on Product { id }`);
  add("fragments", "same fragment at two levels", `{ product(id: ${j(M)}) { ...F similarProducts(first: 2) { edges { node { ...F } } } } } fragment F on Product { id name }`);
  add("fragments", "fragment and field overlapping", `{ product(id: ${j(P)}) { name ...F id } } fragment F on Product { id name url }`);
  add("fragments", "fragment order decides key order", `{ product(id: ${j(P)}) { ...F id } } fragment F on Product { url name }`);
  add("fragments", "inline fragment with type", `{ product(id: ${j(P)}) { ... on Product { id name } } }`);
  add("fragments", "inline fragment without type", `{ product(id: ${j(P)}) { ... { id } } }`);
  add("fragments", "inline fragment on Query", `{ ... on Query { product(id: ${j(P)}) { id } } }`);
  add("fragments", "nested inline fragments", `{ product(id: ${j(P)}) { ... on Product { ... { ... on Product { id } } } } }`);
  add("fragments", "inline fragments on connection types", `{ product(id: ${j(P)}) { similarProducts(first: 2) { ... on ProductConnection { edges { ... on ProductEdge { cursor } } } } } }`);
  add("fragments", "fragment with aliases inside", `{ product(id: ${j(P)}) { ...F } } fragment F on Product { key: id first: similarProducts(first: 1) { edges { cursor } } }`);
  add("fragments", "fragment merging with a field of the same name", `{ product(id: ${j(P)}) { similarProducts(first: 2) { edges { cursor } } ...F } } fragment F on Product { similarProducts(first: 2) { edges { node { id } } pageInfo { hasNextPage } } }`);
  add("fragments", "fragments on unknown product", `{ product(id: ${j(U)}) { ...F } } fragment F on Product { id }`);
  add("fragments", "inline fragment with __typename", `{ product(id: ${j(P)}) { ... on Product { __typename } } }`);
  add("fragments", "fragment spread inside inline fragment", `{ product(id: ${j(P)}) { ... on Product { ...F } } } fragment F on Product { brand }`);
  add("fragments", "inline fragment inside named fragment", `{ product(id: ${j(P)}) { ...F } } fragment F on Product { ... on Product { modelId } }`);
  bad("fragments", "named fragment on the wrong type", `{ product(id: ${j(P)}) { ...F } } fragment F on PageInfo { hasNextPage }`);
  bad("fragments", "inline fragment on the wrong type", `{ product(id: ${j(P)}) { ... on PageInfo { hasNextPage } } }`);
  bad("fragments", "fragment on the wrong type at the root", `{ ...F } fragment F on Product { id }`);

  // ---- variables ---------------------------------------------------------------------------
  add("variables", "ID variable", `query ($id: ID!) { product(id: $id) { id } }`, { variables: { id: P } });
  add("variables", "ID variable, unknown value", `query ($id: ID!) { product(id: $id) { id } }`, { variables: { id: U } });
  add("variables", "ID variable given as an integer", `query ($id: ID!) { product(id: $id) { id } }`, { variables: { id: 10001 } });
  add("variables", "ID variable with default, not given", `query ($id: ID! = ${j(P)}) { product(id: $id) { id } }`);
  add("variables", "ID variable with default, given", `query ($id: ID! = ${j(P)}) { product(id: $id) { id } }`, { variables: { id: S[0] } });
  add("variables", "nullable ID variable with default", `query ($id: ID = ${j(M)}) { product(id: $id) { id } }`);
  add("variables", "first variable", `query ($id: ID!, $n: Int) { product(id: $id) { similarProducts(first: $n) { ${page} } } }`, { variables: { id: P, n: 3 } });
  add("variables", "first variable not given (field default 12)", `query ($id: ID!, $n: Int) { product(id: $id) { similarProducts(first: $n) { ${page} } } }`, { variables: { id: P } });
  add("variables", "first variable null (resolver default)", `query ($id: ID!, $n: Int) { product(id: $id) { similarProducts(first: $n) { pageInfo { endCursor hasNextPage } } } }`, { variables: { id: P, n: null } });
  add("variables", "first variable with default", `query ($n: Int = 4) { product(id: ${j(P)}) { similarProducts(first: $n) { ${page} } } }`);
  add("variables", "first variable with default, given", `query ($n: Int = 4) { product(id: ${j(P)}) { similarProducts(first: $n) { ${page} } } }`, { variables: { n: 1 } });
  add("variables", "first variable with default, given null", `query ($n: Int = 4) { product(id: ${j(P)}) { similarProducts(first: $n) { pageInfo { endCursor hasNextPage } } } }`, { variables: { n: null } });
  add("variables", "first variable non-null", `query ($n: Int!) { product(id: ${j(P)}) { similarProducts(first: $n) { ${page} } } }`, { variables: { n: 2 } });
  add("variables", "after variable", `query ($after: String) { product(id: ${j(P)}) { similarProducts(first: 2, after: $after) { ${page} } } }`, { variables: { after: sim(5) } });
  add("variables", "after variable null", `query ($after: String) { product(id: ${j(P)}) { similarProducts(first: 2, after: $after) { ${page} } } }`, { variables: { after: null } });
  add("variables", "after variable not given", `query ($after: String) { product(id: ${j(P)}) { similarProducts(first: 2, after: $after) { ${page} } } }`);
  add("variables", "the same variable used twice", `query ($id: ID!) { a: product(id: $id) { id } b: product(id: $id) { name } }`, { variables: { id: P } });
  add("variables", "variable used in a fragment", `query ($n: Int) { product(id: ${j(P)}) { ...F } } fragment F on Product { similarProducts(first: $n) { edges { cursor } } }`, { variables: { n: 3 } });
  add("variables", "extra variables are ignored", `query ($id: ID!) { product(id: $id) { id } }`, { variables: { id: P, other: 1 } });
  add("variables", "variables for an operation without definitions", `{ product(id: ${j(P)}) { id } }`, { variables: { id: U } });
  add("variables", "variable first out of range", `query ($n: Int) { product(id: ${j(P)}) { id similarProducts(first: $n) { edges { cursor } } } }`, { variables: { n: 101 } });
  add("variables", "variable after not a cursor", `query ($a: String) { product(id: ${j(P)}) { similarProducts(after: $a) { edges { cursor } } } }`, { variables: { a: "nope" } });
  bad("variables", "required variable missing", `query ($id: ID!) { product(id: $id) { id } }`);
  bad("variables", "required variable null", `query ($id: ID!) { product(id: $id) { id } }`, { variables: { id: null } });
  bad("variables", "ID variable of the wrong type (boolean)", `query ($id: ID!) { product(id: $id) { id } }`, { variables: { id: true } });
  bad("variables", "ID variable of the wrong type (float)", `query ($id: ID!) { product(id: $id) { id } }`, { variables: { id: 1.5 } });
  bad("variables", "ID variable of the wrong type (object)", `query ($id: ID!) { product(id: $id) { id } }`, { variables: { id: { a: 1 } } });
  bad("variables", "Int variable given a string", `query ($n: Int) { product(id: ${j(P)}) { similarProducts(first: $n) { edges { cursor } } } }`, { variables: { n: "3" } });
  bad("variables", "Int variable given a float", `query ($n: Int) { product(id: ${j(P)}) { similarProducts(first: $n) { edges { cursor } } } }`, { variables: { n: 2.5 } });
  bad("variables", "Int variable beyond 32 bits", `query ($n: Int) { product(id: ${j(P)}) { similarProducts(first: $n) { edges { cursor } } } }`, { variables: { n: 2 ** 31 } });
  bad("variables", "String variable given a number", `query ($a: String) { product(id: ${j(P)}) { similarProducts(after: $a) { edges { cursor } } } }`, { variables: { a: 5 } });
  bad("variables", "Int variable given 1e40", `query ($n: Int) { product(id: ${j(P)}) { similarProducts(first: $n) { edges { cursor } } } }`, { variables: { n: 1e40 } });
  bad("variables", "Int! variable missing", `query ($n: Int!) { product(id: ${j(P)}) { similarProducts(first: $n) { edges { cursor } } } }`);
  bad("variables", "Boolean! variable given a string", `query ($b: Boolean!) { product(id: ${j(P)}) { id @include(if: $b) } }`, { variables: { b: "true" } });
  bad("variables", "unused variable", `query ($id: ID!) { product(id: ${j(P)}) { id } }`, { variables: { id: P } });
  bad("variables", "undefined variable", `{ product(id: $id) { id } }`, { variables: { id: P } });
  bad("variables", "undefined variable in a fragment", `query Q { product(id: ${j(P)}) { ...F } } fragment F on Product { similarProducts(first: $n) { edges { cursor } } }`);
  bad("variables", "variable of an object type", `query ($p: Product) { product(id: ${j(P)}) { id } }`);
  bad("variables", "variable of an unknown type", `query ($p: Nope) { product(id: $p) { id } }`);
  bad("variables", "invalid default value", `query ($n: Int = "four") { product(id: ${j(P)}) { similarProducts(first: $n) { edges { cursor } } } }`);
  bad("variables", "invalid default value, variable given", `query ($n: Int = "four") { product(id: ${j(P)}) { similarProducts(first: $n) { edges { cursor } } } }`,
    { variables: { n: 2 } });
  bad("variables", "duplicate variable names", `query ($n: Int, $n: Int) { product(id: ${j(P)}) { similarProducts(first: $n) { edges { cursor } } } }`);
  bad("variables", "String variable in an Int position", `query ($n: String) { product(id: ${j(P)}) { similarProducts(first: $n) { edges { cursor } } } }`, { variables: { n: "3" } });
  bad("variables", "nullable variable in a non-null position", `query ($id: ID) { product(id: $id) { id } }`, { variables: { id: P } });
  bad("variables", "String variable in an ID! position", `query ($id: String!) { product(id: $id) { id } }`, { variables: { id: P } });

  // ---- directives --------------------------------------------------------------------------
  for (const [directive, value, label] of [["include", "true", "kept"], ["include", "false", "dropped"], ["skip", "true", "dropped"], ["skip", "false", "kept"]]) {
    add("directives", `@${directive}(if: ${value}) on a scalar (${label})`, `{ product(id: ${j(P)}) { id name @${directive}(if: ${value}) } }`);
    add("directives", `@${directive}(if: ${value}) on a root field (${label})`, `{ product(id: ${j(P)}) @${directive}(if: ${value}) { id } }`);
    add("directives", `@${directive}(if: ${value}) on a fragment spread (${label})`, `{ product(id: ${j(P)}) { id ...F @${directive}(if: ${value}) } } fragment F on Product { name }`);
    add("directives", `@${directive}(if: ${value}) on an inline fragment (${label})`, `{ product(id: ${j(P)}) { id ... @${directive}(if: ${value}) { brand } } }`);
  }
  for (const b of [true, false]) {
    add("directives", `@include(if: $b) with b=${b}`, `query ($b: Boolean!) { product(id: ${j(P)}) { id url @include(if: $b) } }`, { variables: { b } });
    add("directives", `@skip(if: $b) with b=${b}`, `query ($b: Boolean!) { product(id: ${j(P)}) { id url @skip(if: $b) } }`, { variables: { b } });
    add("directives", `@skip and @include together, b=${b}`, `query ($b: Boolean!) { product(id: ${j(P)}) { id name @skip(if: $b) @include(if: true) brand @skip(if: false) @include(if: $b) } }`, { variables: { b } });
    add("directives", `directive on a connection field, b=${b}`, `query ($b: Boolean!) { product(id: ${j(P)}) { id similarProducts(first: 101) @include(if: $b) { edges { cursor } } } }`, { variables: { b } });
  }
  add("directives", "Boolean variable with default true", `query ($b: Boolean! = true) { product(id: ${j(P)}) { id name @include(if: $b) } }`);
  add("directives", "Boolean variable with default false, given true", `query ($b: Boolean! = false) { product(id: ${j(P)}) { id name @include(if: $b) } }`, { variables: { b: true } });
  add("directives", "skipped and kept copies of one field", `{ product(id: ${j(P)}) { name @skip(if: true) name } }`);
  add("directives", "all fields skipped", `{ product(id: ${j(P)}) { id @skip(if: true) } }`);
  add("directives", "root field skipped", `{ product(id: ${j(P)}) @skip(if: true) { id } __typename }`);
  add("directives", "directive on a nested edge field", `{ product(id: ${j(P)}) { similarProducts(first: 2) { edges { cursor @skip(if: true) node { id } } pageInfo @include(if: false) { hasNextPage } } } }`);
  add("directives", "skipped field that would fail", `{ product(id: ${j(P)}) { id similarProducts(first: -1) @skip(if: true) { edges { cursor } } } }`);
  bad("directives", "unknown directive", `{ product(id: ${j(P)}) { id @nope } }`);
  bad("directives", "@include without if", `{ product(id: ${j(P)}) { id @include } }`);
  bad("directives", "@skip with an unknown argument", `{ product(id: ${j(P)}) { id @skip(if: true, unless: false) } }`);
  bad("directives", "@include with a String literal", `{ product(id: ${j(P)}) { id @include(if: "yes") } }`);
  bad("directives", "@skip repeated at one location", `{ product(id: ${j(P)}) { id @skip(if: false) @skip(if: true) } }`);
  bad("directives", "@deprecated in a query", `{ product(id: ${j(P)}) { id @deprecated } }`);
  bad("directives", "directive on an operation", `query @skip(if: true) { product(id: ${j(P)}) { id } }`);

  // ---- __typename --------------------------------------------------------------------------
  add("typename", "__typename on Query", `{ __typename }`);
  add("typename", "__typename at every level", `{ __typename product(id: ${j(P)}) { __typename similarProducts(first: 2) { __typename edges { __typename node { __typename id } } pageInfo { __typename hasNextPage } } } }`);
  add("typename", "__typename on an unknown product", `{ product(id: ${j(U)}) { __typename } }`);
  add("typename", "__typename twice under aliases", `{ a: __typename b: __typename }`);
  add("typename", "__typename in fragments", `{ ...Q } fragment Q on Query { __typename product(id: ${j(P)}) { ... on Product { __typename } } }`);
  add("typename", "__typename next to a failing field", `{ product(id: ${j(P)}) { __typename similarProducts(first: -1) { __typename } } }`);
  add("typename", "__typename only in a connection", `{ product(id: ${j(P)}) { similarProducts(first: 0) { __typename } } }`);
  add("typename", "__typename with variables and directives", `query ($b: Boolean!) { __typename @include(if: $b) product(id: ${j(P)}) { __typename @skip(if: $b) id } }`, { variables: { b: true } });
  bad("typename", "selection on __typename", `{ __typename { name } }`);

  // ---- operations / operationName ----------------------------------------------------------
  const two = `query A { product(id: ${j(P)}) { id } } query B { product(id: ${j(S[0])}) { name } }`;
  add("operations", "two operations, A selected", two, { operationName: "A" });
  add("operations", "two operations, B selected", two, { operationName: "B" });
  add("operations", "named single operation, name given", `query Only { product(id: ${j(P)}) { id } }`, { operationName: "Only" });
  add("operations", "named single operation, no name given", `query Only { product(id: ${j(P)}) { id } }`);
  add("operations", "operations sharing a fragment", `query A { product(id: ${j(P)}) { ...F } } query B { product(id: ${j(M)}) { ...F } } fragment F on Product { id name }`, { operationName: "B" });
  add("operations", "operations with different variables", `query A($id: ID!) { product(id: $id) { id } } query B($n: Int) { product(id: ${j(P)}) { similarProducts(first: $n) { edges { cursor } } } }`, { operationName: "B", variables: { n: 1 } });
  add("operations", "unselected operation's variables are not coerced", `query A($id: ID!) { product(id: $id) { id } } query B { __typename }`, { operationName: "B" });
  add("operations", "three operations", `query A { __typename } query B { product(id: ${j(U)}) { id } } query C { product(id: ${j(P)}) { brand } }`, { operationName: "C" });
  bad("operations", "two operations, no name given", two);
  bad("operations", "two operations, unknown name", two, { operationName: "C" });
  bad("operations", "single operation, wrong name", `query Only { product(id: ${j(P)}) { id } }`, { operationName: "Other" });
  bad("operations", "duplicate operation names", `query A { __typename } query A { product(id: ${j(P)}) { id } }`, { operationName: "A" });
  bad("operations", "anonymous operation with another", `{ __typename } query B { __typename }`, { operationName: "B" });
  bad("operations", "operationName for an anonymous operation", `{ __typename }`, { operationName: "X" });
  bad("operations", "two anonymous operations", `{ __typename } { product(id: ${j(P)}) { id } }`);
  add("operations", "mutation (not in the schema)", `mutation { __typename }`, { expect: "request-error" });
  add("operations", "subscription (not in the schema)", `subscription S { product(id: ${j(P)}) { id } }`, { expect: "request-error" });

  // ---- pagination --------------------------------------------------------------------------
  for (const first of [1, 5, 7, 12, Math.max(1, N - 1), N, N + 1, 100]) {
    cases.push({ category: "pagination", name: `walk ${P} with first: ${first}`, walk: { id: P, first, selection: page }, expect: "data" });
  }
  cases.push({ category: "pagination", name: `walk ${S[0]} with first: 10`, walk: { id: S[0], first: 10, selection: `edges { cursor node { ${ctx.leaves} } } pageInfo { endCursor hasNextPage }` }, expect: "data" });
  cases.push({ category: "pagination", name: `walk ${S[1]} with default first`, walk: { id: S[1], first: null, selection: page }, expect: "data" });
  add("pagination", "first: 0", `{ product(id: ${j(P)}) { similarProducts(first: 0) { ${page} } } }`);
  add("pagination", "first: 0 after a cursor", `{ product(id: ${j(P)}) { similarProducts(first: 0, after: ${j(sim(3))}) { ${page} } } }`);
  add("pagination", "first: 100", `{ product(id: ${j(P)}) { similarProducts(first: 100) { ${page} } } }`);
  add("pagination", "first: null literal (resolver default)", `{ product(id: ${j(P)}) { similarProducts(first: null) { pageInfo { endCursor hasNextPage } } } }`);
  add("pagination", "after: null literal", `{ product(id: ${j(P)}) { similarProducts(first: 2, after: null) { ${page} } } }`);
  add("pagination", "first: 101 (field error, propagates to product)", `{ product(id: ${j(P)}) { id similarProducts(first: 101) { ${page} } } }`);
  add("pagination", "first: -1 (field error)", `{ product(id: ${j(P)}) { id similarProducts(first: -1) { ${page} } } }`);
  add("pagination", "first: 2147483647 (field error)", `{ product(id: ${j(P)}) { similarProducts(first: 2147483647) { ${page} } } }`);
  add("pagination", "after the last cursor", `{ product(id: ${j(P)}) { similarProducts(first: 5, after: ${j(sim(N - 1))}) { ${page} } } }`);
  add("pagination", "after the second-to-last cursor", `{ product(id: ${j(P)}) { similarProducts(first: 5, after: ${j(sim(N - 2))}) { ${page} } } }`);
  add("pagination", "after a cursor beyond the list (never issued: refused)", `{ product(id: ${j(P)}) { similarProducts(first: 5, after: ${j(simForm(N + 50))}) { ${page} } } }`);
  add("pagination", "after a cursor with a huge index (never issued: refused)", `{ product(id: ${j(P)}) { similarProducts(first: 5, after: ${j(simForm("9223372036854775806"))}) { ${page} } } }`);
  add("pagination", "window ending exactly at the end", `{ product(id: ${j(P)}) { similarProducts(first: 4, after: ${j(sim(N - 5))}) { ${page} } } }`);
  add("pagination", "cursor with a '+' sign (never issued: refused)", `{ product(id: ${j(P)}) { similarProducts(first: 2, after: ${j(simForm("+3"))}) { ${page} } } }`);
  add("pagination", "cursor with leading zeros", `{ product(id: ${j(P)}) { similarProducts(first: 2, after: ${j(simForm("007"))}) { ${page} } } }`);
  for (const [label, after] of [["garbage", "not-a-cursor!"], ["empty", ""], ["other list", encodeCursor(3, "otherList")],
    ["negative index", simForm(-1)], ["no index", simForm("")], ["letters as index", simForm("x1")],
    ["padded base64", sim(3) + "="], ["'/' (standard base64 alphabet)", sim(3).slice(0, -1) + "/"], ["'+' (standard base64 alphabet)", "+" + sim(3).slice(1)],
    ["valid cursor with a trailing space", sim(3) + " "],
    ["index beyond int64", simForm("9223372036854775808")], ["length 4n+1", sim(3) + "A".repeat((4 - ((sim(3).length + 1) % 4)) % 4 + 1)],
    ["prefix without colon", Buffer.from("similarProducts3").toString("base64url")]]) {
    add("pagination", `invalid after: ${label}`, `{ product(id: ${j(P)}) { id similarProducts(first: 2, after: ${j(after)}) { ${page} } } }`);
  }
  add("pagination", "hasNextPage only", `{ product(id: ${j(P)}) { similarProducts(first: ${N}) { pageInfo { hasNextPage } } } }`);
  add("pagination", "endCursor of an empty page", `{ product(id: ${j(P)}) { similarProducts(first: 0) { pageInfo { endCursor } } } }`);
  add("pagination", "Relay's pageInfo of an empty page", `{ product(id: ${j(P)}) { similarProducts(first: 0) { pageInfo { startCursor endCursor hasPreviousPage hasNextPage } } } }`);
  add("pagination", "pages of two products side by side", `{ a: product(id: ${j(P)}) { similarProducts(first: 3) { ${page} } } b: product(id: ${j(S[2])}) { similarProducts(first: 3) { ${page} } } }`);
  add("pagination", "second level pagination with the first level's cursor (another product's list: refused)", `{ product(id: ${j(M)}) { similarProducts(first: 3) { edges { node { id similarProducts(first: 2, after: ${j(sim(0))}) { ${page} } } } } } }`);
  add("pagination", "a similar product's cursor on the anchor's list (another product's list: refused)", `{ product(id: ${j(P)}) { similarProducts(first: 2, after: ${j(cursorOf(0, "similarProducts", `Product ${S[0]}`))}) { ${page} } } }`);
  add("pagination", "second level first: 100", `{ product(id: ${j(M)}) { similarProducts(first: 2) { edges { node { similarProducts(first: 100) { pageInfo { endCursor hasNextPage } } } } } } }`);

  // ---- errors and null propagation ---------------------------------------------------------
  add("errors", "failing field next to a succeeding sibling product", `{ bad: product(id: ${j(P)}) { id similarProducts(first: -1) { edges { cursor } } } good: product(id: ${j(P)}) { id } }`);
  add("errors", "failing field after a succeeding one in the same object", `{ product(id: ${j(P)}) { id name similarProducts(first: 101) { edges { cursor } } } }`);
  add("errors", "failing field before succeeding ones", `{ product(id: ${j(P)}) { similarProducts(first: 101) { edges { cursor } } id name } }`);
  add("errors", "two failing roots", `{ a: product(id: ${j(P)}) { similarProducts(first: -1) { edges { cursor } } } b: product(id: ${j(M)}) { similarProducts(after: "x") { edges { cursor } } } }`);
  add("errors", "nested failure nulls the outer product", `{ product(id: ${j(M)}) { id similarProducts(first: 2) { edges { node { id similarProducts(first: 101) { edges { cursor } } } } } } }`);
  add("errors", "nested failure next to a succeeding root", `{ a: product(id: ${j(M)}) { similarProducts(first: 2) { edges { node { similarProducts(first: -5) { edges { cursor } } } } } } b: product(id: ${j(S[0])}) { name } }`);
  add("errors", "failure at depth three", `{ product(id: ${j(M)}) { similarProducts(first: 1) { edges { node { similarProducts(first: 1) { edges { node { similarProducts(after: "bad") { edges { cursor } } } } } } } } } }`);
  add("errors", "failure inside a fragment", `{ product(id: ${j(P)}) { id ...F } } fragment F on Product { similarProducts(first: 500) { edges { cursor } } }`);
  add("errors", "failure inside an inline fragment", `{ ok: product(id: ${j(S[0])}) { id } product(id: ${j(P)}) { ... on Product { similarProducts(first: -2) { pageInfo { hasNextPage } } } } }`);
  add("errors", "failure on an unknown product is not reached", `{ product(id: ${j(U)}) { similarProducts(first: 101) { edges { cursor } } } }`);
  add("errors", "failure under an alias", `{ p: product(id: ${j(P)}) { ok: similarProducts(first: 1) { edges { cursor } } ko: similarProducts(first: 101) { edges { cursor } } } }`);
  add("errors", "failing field with __typename siblings", `{ __typename product(id: ${j(P)}) { __typename similarProducts(first: 101) { __typename } } }`);
  add("errors", "failing field through a variable", `query ($n: Int) { product(id: ${j(P)}) { id similarProducts(first: $n) { edges { cursor } } } }`, { variables: { n: -3 } });
  add("errors", "failure in a second page request", `{ p1: product(id: ${j(P)}) { similarProducts(first: 2) { pageInfo { endCursor } } } p2: product(id: ${j(P)}) { similarProducts(first: 2, after: "c2ltaWxhclByb2R1Y3Rz") { pageInfo { endCursor } } } }`);
  add("errors", "failure in one of several nested nodes only once per field", `{ product(id: ${j(M)}) { similarProducts(first: 3) { edges { cursor node { id similarProducts(first: -1) { edges { cursor } } } } } } }`);
  add("errors", "two failing non-null siblings: the first one nulls the parent", `{ product(id: ${j(P)}) { a: similarProducts(first: -1) { edges { cursor } } b: similarProducts(first: 101) { edges { cursor } } } }`);
  add("errors", "failing nullable-parent chains in two aliases of one nested list", `{ x: product(id: ${j(M)}) { similarProducts(first: 2) { edges { node { id } } } } y: product(id: ${j(M)}) { similarProducts(first: 2) { edges { node { similarProducts(first: 101) { edges { cursor } } } } } } }`);
  add("errors", "error location on a multi-line document", `{\n  product(id: ${j(P)}) {\n    id\n      similarProducts(\n        first: 101\n      ) {\n      edges { cursor }\n    }\n  }\n}`);

  // ---- invalid documents -------------------------------------------------------------------
  const syntax = [
    ["empty document", ""], ["only whitespace", "   \n  "], ["only a comment", "# nothing"], ["empty selection set", "{}"],
    ["unclosed selection set", `{ product(id: ${j(P)}) { id }`], ["unclosed string", `{ product(id: "abc) { id } }`],
    ["missing argument value", `{ product(id: ) { id } }`], ["missing colon", `{ product(id ${j(P)}) { id } }`],
    ["stray closing brace", `{ __typename } }`], ["invalid character", `{ product(id: ${j(P)}) { id ? } }`],
    ["number as a field name", `{ 123 }`], ["fragment without type condition", `{ ...F } fragment F { id }`],
    ["fragment named on", `{ product(id: ${j(P)}) { ...on } } fragment on on Product { id }`],
    ["variable without type", `query ($id) { product(id: $id) { id } }`], ["unterminated block string", `{ product(id: """abc) { id } }`],
    ["bad escape", `{ product(id: "\\q") { id } }`], ["leading zero number", `{ product(id: ${j(P)}) { similarProducts(first: 01) { edges { cursor } } } }`],
    ["type definition in a query document", `type Foo { a: Int }`], ["schema extension in a query document", `extend type Query { x: Int }`],
    ["spread of nothing", `{ ... }`], ["operation keyword only", `query`], ["variables in a fragment definition", `{ __typename } fragment F($a: Int) on Query { __typename }`],
  ];
  for (const [name, query, extra] of syntax) bad("invalid", `syntax: ${name}`, query, extra);
  const invalid = [
    ["unknown root field", `{ nope }`], ["unknown field on Product", `{ product(id: ${j(P)}) { id nope } }`],
    ["unknown field on PageInfo", `{ product(id: ${j(P)}) { similarProducts { pageInfo { previousCursor } } } }`],
    ["unknown field in a fragment", `{ product(id: ${j(P)}) { ...F } } fragment F on Product { price }`],
    ["unknown argument", `{ product(id: ${j(P)}, locale: "de") { id } }`], ["unknown argument on a nested field", `{ product(id: ${j(P)}) { similarProducts(last: 2) { edges { cursor } } } }`],
    ["missing required argument", `{ product { id } }`], ["duplicate argument", `{ product(id: ${j(P)}, id: ${j(M)}) { id } }`],
    ["selection on a leaf", `{ product(id: ${j(P)}) { id { x } } }`], ["missing selection on an object", `{ product(id: ${j(P)}) }`],
    ["missing selection on a connection", `{ product(id: ${j(P)}) { similarProducts } }`], ["missing selection on a list of objects", `{ product(id: ${j(P)}) { similarProducts { edges } } }`],
    ["unknown fragment", `{ product(id: ${j(P)}) { ...Nope } }`], ["unused fragment", `{ __typename } fragment F on Product { id }`],
    ["fragment on an unknown type", `{ product(id: ${j(P)}) { ...F } } fragment F on Nope { id }`], ["inline fragment on an unknown type", `{ product(id: ${j(P)}) { ... on Nope { id } } }`],
    ["fragment on a scalar", `{ product(id: ${j(P)}) { ...F } } fragment F on String { length }`],
    ["fragment cycle", `{ product(id: ${j(P)}) { ...A } } fragment A on Product { ...B } fragment B on Product { ...A }`],
    ["fragment spreading itself", `{ product(id: ${j(P)}) { ...A } } fragment A on Product { id ...A }`],
    ["duplicate fragment names", `{ product(id: ${j(P)}) { ...A } } fragment A on Product { id } fragment A on Product { name }`],
    ["__schema below the root", `{ product(id: ${j(P)}) { __schema { queryType { name } } } }`],
    ["__type without name", `{ __type { name } }`],
  ];
  for (const [name, query, extra] of invalid) bad("invalid", name, query, extra);
  bad("invalid", "fragment on a scalar with only __typename", `{ product(id: ${j(P)}) { ...F } } fragment F on String { __typename }`);
  bad("invalid", "wrong argument type: Boolean for ID", `{ product(id: true) { id } }`);
  bad("invalid", "wrong argument type: String for Int", `{ product(id: ${j(P)}) { similarProducts(first: "3") { edges { cursor } } } }`);
  bad("invalid", "wrong argument type: Float for Int", `{ product(id: ${j(P)}) { similarProducts(first: 1.5) { edges { cursor } } } }`);
  bad("invalid", "wrong argument type: Int beyond 32 bits", `{ product(id: ${j(P)}) { similarProducts(first: 3000000000) { edges { cursor } } } }`);
  bad("invalid", "wrong argument type: Int for String", `{ product(id: ${j(P)}) { similarProducts(after: 5) { edges { cursor } } } }`);
  bad("invalid", "null for a non-null argument", `{ product(id: null) { id } }`);
  bad("invalid", "list for a scalar argument", `{ product(id: [${j(P)}]) { id } }`);
  bad("invalid", "conflicting arguments under one response key", `{ product(id: ${j(P)}) { s: similarProducts(first: 1) { edges { cursor } } s: similarProducts(first: 2) { edges { cursor } } } }`);
  bad("invalid", "two fields under one alias", `{ product(id: ${j(P)}) { name: brand name } }`);
  bad("invalid", "two products under one alias", `{ p: product(id: ${j(P)}) { id } p: product(id: ${j(M)}) { id } }`);

  // ---- introspection -----------------------------------------------------------------------
  add("introspection", "Product's field names", `{ __type(name: "Product") { fields { name } } }`);
  add("introspection", "query type name", `{ __schema { queryType { name } } }`);
  add("introspection", "mutation and subscription types", `{ __schema { mutationType { name } subscriptionType { name } } }`);
  add("introspection", "Product fields with types", `{ __type(name: "Product") { name kind fields { name type { kind name ofType { kind name ofType { kind name } } } } } }`);
  add("introspection", "similarProducts arguments", `{ __type(name: "Product") { fields { name args { name defaultValue type { kind name } } } } }`);
  add("introspection", "unknown type", `{ __type(name: "Nope") { name } }`);
  add("introspection", "connection types", `{ c: __type(name: "ProductConnection") { fields { name } } e: __type(name: "ProductEdge") { fields { name } } p: __type(name: "PageInfo") { fields { name } } }`);
  add("introspection", "scalar type", `{ __type(name: "ID") { kind name fields { name } } }`);
  add("introspection", "__typename of introspection types", `{ __schema { __typename queryType { __typename } } __type(name: "Query") { __typename } }`);
  add("introspection", "introspection next to data", `{ __type(name: "PageInfo") { name } product(id: ${j(P)}) { id } }`);
  add("introspection", "directive names", `{ __schema { directives { name locations args { name } } } }`);
  add("introspection", "type names (a set: the specification leaves the order open)", `{ __schema { types { name } } }`,
    { unordered: ["__schema.types"] });
  add("introspection", "unreferenced built-in scalar Float", `{ __type(name: "Float") { name kind } }`);
  add("introspection", "referenced built-in scalars", `{ i: __type(name: "Int") { name } s: __type(name: "String") { name } b: __type(name: "Boolean") { name } d: __type(name: "ID") { kind } }`);
  add("introspection", "Query fields", `{ __schema { queryType { fields { name args { name type { kind ofType { name } } } } } } }`);
  add("introspection", "introspection in a fragment", `{ ...I } fragment I on Query { __type(name: "Product") { name } }`);
  add("introspection", "deprecated fields included", `{ __type(name: "Product") { fields(includeDeprecated: true) { name isDeprecated } } }`);
  add("introspection", "__type with a variable", `query ($t: String!) { __type(name: $t) { name kind } }`, { variables: { t: "ProductEdge" } });

  if (ctx.sets) setCases(ctx, { add, bad, cases });
  return cases;
}

// ---- the set fields (categories "sets ...") -------------------------------------------------
// ctx.sets: { C: the main SKU of a product shown in a custom set, CV: a variant SKU of it,
//   customSetIds: the demo custom sets (the first shows C), photo: [{id, tags}] every photo set
//   in svc's order, NP / NC: lengths of productSets of P / C, NCompose: of setCompose of M,
//   NClusters / NClustersC: of M's / C's matchingProductClusters, clusterSizes: products per
//   cluster of M, NCustomSetsC: C's customSets, NImages: images of the first custom set }.
function setCases(ctx, { add, bad, cases }) {
  const { P, M, S, U } = ctx;
  const { C, CV, customSetIds, photo, NP, NC, NCompose, NClusters, clusterSizes, clusterIds, NCustomSetsC, NImages } = ctx.sets;
  const j = JSON.stringify;
  // A cursor svc issued for index `index` of list `list` of `scope` (cursors are bound to
  // their list, docs/adr/0053); for a list of P, C or M: "Product <main SKU>".
  const cur = (index, list, scope) => cursorOf(index, list, scope);
  const of = (id) => `Product ${id}`;
  const sku = (value) => `{queryType: SKU, value: ${j(value)}}`;
  const tagsInput = (filter) => `{queryType: TAGS, value: ${filter}}`;
  const pageInfo = "pageInfo { endCursor hasNextPage }";
  const psPage = `edges { cursor node { id title tags imageLink products { id } } } ${pageInfo}`;
  const photoPage = `edges { cursor node { id title tags } } ${pageInfo}`;
  const composePage = `edges { cursor node { id items { product { id } alternatives { id } } } } ${pageInfo}`;
  const clusterPage = (products = "products") => `edges { cursor node { id name ${products} { edges { cursor node { id } } ${pageInfo} } } } ${pageInfo}`;
  const customPage = `edges { cursor node { id title description tags images { edges { cursor node { url thumbnailUrl } } ${pageInfo} } products { id name } } } ${pageInfo}`;
  const walk = (category, name, query, path, first, variables = {}) =>
    cases.push({ category, name, walk: { query, path, first, variables }, expect: "data" });
  const [A, B] = photo;
  const upper = (text) => text.toUpperCase();
  const mixed = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  const longest = clusterSizes.indexOf(Math.max(...clusterSizes));
  const shortest = Math.min(...clusterSizes);

  // ---- productSets ---------------------------------------------------------------------------
  for (const first of [1, 3, NC - 1, NC, NC + 1]) {
    walk("sets productSets", `walk productSets of ${C} with first: ${first}`,
      `query Walk($value: String!, $first: Int, $after: String) { productSets(input: {queryType: SKU, value: $value}, first: $first, after: $after) { ${psPage} } }`,
      ["productSets"], first, { value: C });
  }
  walk("sets productSets", `walk productSets of ${P} with the default first (10)`,
    `query Walk($value: String!, $after: String) { productSets(input: {queryType: SKU, value: $value}, after: $after) { ${psPage} } }`,
    ["productSets"], null, { value: P });
  add("sets productSets", "first: 0", `{ productSets(input: ${sku(P)}, first: 0) { ${psPage} } }`);
  add("sets productSets", "first: 0 after a cursor", `{ productSets(input: ${sku(P)}, first: 0, after: ${j(cur(1, "productSets", of(M)))}) { ${psPage} } }`);
  add("sets productSets", "first: 100 (beyond the end)", `{ productSets(input: ${sku(C)}, first: 100) { ${psPage} } }`);
  add("sets productSets", "first exactly the length: hasNextPage false", `{ productSets(input: ${sku(P)}, first: ${NP}) { ${pageInfo} } }`);
  add("sets productSets", "first one less than the length: hasNextPage true", `{ productSets(input: ${sku(P)}, first: ${NP - 1}) { ${pageInfo} } }`);
  add("sets productSets", "after the last cursor", `{ productSets(input: ${sku(P)}, first: 5, after: ${j(cur(NP - 1, "productSets", of(M)))}) { ${psPage} } }`);
  add("sets productSets", "window ending exactly at the end", `{ productSets(input: ${sku(C)}, first: 2, after: ${j(cur(NC - 3, "productSets", of(C)))}) { ${psPage} } }`);
  add("sets productSets", "unknown SKU: edges []", `{ productSets(input: ${sku(U)}) { ${psPage} } }`);
  add("sets productSets", "empty SKU: edges []", `{ productSets(input: ${sku("")}, first: 3) { ${psPage} } }`);
  add("sets productSets", "unknown SKU with another product's cursor (refused)", `{ productSets(input: ${sku(U)}, first: 2, after: ${j(cur(0, "productSets", of(M)))}) { ${psPage} } }`);
  add("sets productSets", "unknown SKU with a bad cursor (checked first: data null)", `{ productSets(input: ${sku(U)}, after: "nope") { ${psPage} } }`);
  add("sets productSets", "variant SKU and main SKU under aliases", `{ v: productSets(input: ${sku(CV)}, first: 2) { ${psPage} } m: productSets(input: ${sku(C)}, first: 2) { ${psPage} } }`);
  add("sets productSets", "lower-cased SKU", `{ productSets(input: ${sku(C.toLowerCase())}, first: 2) { ${psPage} } }`);
  add("sets productSets", "the same field under aliases, different first and after",
    `{ a: productSets(input: ${sku(P)}, first: 2) { ${psPage} } b: productSets(input: ${sku(P)}, first: 3, after: ${j(cur(1, "productSets", of(M)))}) { ${psPage} } c: productSets(input: ${sku(P)}, first: 0) { ${pageInfo} } }`);
  add("sets productSets", "generated leaves of the sets' products", `{ productSets(input: ${sku(C)}, first: 2) { edges { node { id products { ${ctx.leaves} } } } } }`);
  add("sets productSets", "similar products of a set's products", `{ productSets(input: ${sku(P)}, first: 1) { edges { node { products { id similarProducts(first: 2, after: ${j(cur(0, "similarProducts", of(M)))}) { edges { cursor node { id } } ${pageInfo} } } } } } }`);
  add("sets productSets", "named fragments on ProductSet and its connection",
    `{ productSets(input: ${sku(C)}, first: 3) { ...Conn } } fragment Conn on ProductSetConnection { edges { ...Edge } pageInfo { hasNextPage } } fragment Edge on ProductSetEdge { cursor node { ...Set } } fragment Set on ProductSet { id title imageLink products { ...Prod } } fragment Prod on Product { id name }`);
  add("sets productSets", "inline fragments and __typename", `{ productSets(input: ${sku(P)}, first: 2) { __typename edges { __typename node { ... on ProductSet { __typename id } ... { tags } } } } }`);
  add("sets productSets", "input object as a variable", `query ($input: ProductSetsQueryInput!) { productSets(input: $input, first: 2) { ${psPage} } }`, { variables: { input: { queryType: "SKU", value: C } } });
  add("sets productSets", "variable inside the input object literal", `query ($v: String!, $n: Int) { productSets(input: {queryType: SKU, value: $v}, first: $n) { ${psPage} } }`, { variables: { v: P, n: 1 } });
  add("sets productSets", "input variable with a default", `query ($input: ProductSetsQueryInput! = {queryType: SKU, value: ${j(C)}}) { productSets(input: $input, first: 1) { ${psPage} } }`);
  add("sets productSets", "after as a variable", `query ($after: String) { productSets(input: ${sku(C)}, first: 2, after: $after) { ${psPage} } }`, { variables: { after: cur(2, "productSets", of(C)) } });
  walk("sets productSets", `walk productSets of ${C} with the default first (10)`,
    `query Walk($value: String!, $after: String) { productSets(input: {queryType: SKU, value: $value}, after: $after) { ${psPage} } }`,
    ["productSets"], null, { value: C });
  add("sets productSets", "first variable not given (the field default, 10)", `query ($n: Int) { productSets(input: ${sku(C)}, first: $n) { ${pageInfo} edges { cursor } } }`);
  add("sets productSets", "first variable with a default", `query ($n: Int = 4) { productSets(input: ${sku(C)}, first: $n) { ${pageInfo} edges { cursor } } }`);
  add("sets productSets", "first variable null (the list's default, 10)", `query ($n: Int) { productSets(input: ${sku(C)}, first: $n) { ${pageInfo} edges { cursor } } }`, { variables: { n: null } });
  add("sets productSets", "first: null literal (the list's default, 10)", `{ productSets(input: ${sku(C)}, first: null) { ${pageInfo} edges { cursor } } }`);
  add("sets productSets", "first: 101 (root field non-null: data null)", `{ product(id: ${j(P)}) { id } productSets(input: ${sku(P)}, first: 101) { ${psPage} } }`);
  add("sets productSets", "first: -1", `{ productSets(input: ${sku(P)}, first: -1) { ${pageInfo} } }`);
  add("sets productSets", "after a similarProducts cursor (other list: refused)", `{ productSets(input: ${sku(P)}, first: 2, after: ${j(cur(1, "similarProducts", of(M)))}) { ${psPage} } }`);
  add("sets productSets", "after a forged cursor", `{ productSets(input: ${sku(P)}, first: 2, after: ${j(Buffer.from("productSets:1:0000000000000000").toString("base64url"))}) { ${psPage} } }`);
  add("sets productSets", "@include(if: false) on the failing root field", `{ productSets(input: ${sku(P)}, first: -1) @include(if: false) { ${pageInfo} } product(id: ${j(P)}) { id } }`);
  for (const b of [true, false]) {
    add("sets productSets", `@include(if: $b) on productSets, @skip(if: $b) on products, b=${b}`,
      `query ($b: Boolean!) { productSets(input: ${sku(C)}, first: 2) @include(if: $b) { edges { node { id products @skip(if: $b) { id } } } } __typename }`, { variables: { b } });
  }
  bad("sets productSets", "queryType TAGS (not a ProductSetsQueryType)", `{ productSets(input: {queryType: TAGS, value: ${j(P)}}) { ${pageInfo} } }`);
  bad("sets productSets", "queryType as a string", `{ productSets(input: {queryType: "SKU", value: ${j(P)}}) { ${pageInfo} } }`);
  bad("sets productSets", "input without value", `{ productSets(input: {queryType: SKU}) { ${pageInfo} } }`);
  bad("sets productSets", "input without queryType", `{ productSets(input: {value: ${j(P)}}) { ${pageInfo} } }`);
  bad("sets productSets", "no input", `{ productSets(first: 2) { ${pageInfo} } }`);
  bad("sets productSets", "input null", `{ productSets(input: null) { ${pageInfo} } }`);
  bad("sets productSets", "value null", `{ productSets(input: {queryType: SKU, value: null}) { ${pageInfo} } }`);
  bad("sets productSets", "value an Int (String! takes no Int)", `{ productSets(input: {queryType: SKU, value: 10001}) { ${pageInfo} } }`);
  bad("sets productSets", "unknown input field", `{ productSets(input: {queryType: SKU, value: ${j(P)}, locale: "de"}) { ${pageInfo} } }`);
  bad("sets productSets", "invalid enum value in an input variable's default", `query ($input: ProductSetsQueryInput! = {queryType: TAGS, value: ${j(P)}}) { productSets(input: $input) { ${pageInfo} } }`);
  add("sets productSets", "enum as a variable inside the input literal", `query ($qt: ProductSetsQueryType! = SKU, $v: String!) { productSets(input: {queryType: $qt, value: $v}, first: 1) { ${psPage} } }`, { variables: { v: C } });
  bad("sets productSets", "enum variable of the other query type", `query ($qt: SetComposeQueryType!) { productSets(input: {queryType: $qt, value: ${j(P)}}) { ${pageInfo} } }`, { variables: { qt: "SKU" } });
  bad("sets productSets", "enum value in lower case", `{ productSets(input: {queryType: sku, value: ${j(P)}}) { ${pageInfo} } }`);
  bad("sets productSets", "variable in an input variable's default (not constant)", `query ($v: String!, $input: ProductSetsQueryInput! = {queryType: SKU, value: $v}) { productSets(input: $input) { ${pageInfo} } }`, { variables: { v: P } });
  bad("sets productSets", "variable: value a number", `query ($input: ProductSetsQueryInput!) { productSets(input: $input) { ${pageInfo} } }`, { variables: { input: { queryType: "SKU", value: 10001 } } });
  bad("sets productSets", "input field given twice", `{ productSets(input: {queryType: SKU, value: ${j(P)}, value: ${j(C)}}) { ${pageInfo} } }`);
  bad("sets productSets", "the other query's input type", `query ($input: SetComposeQueryInput!) { productSets(input: $input) { ${pageInfo} } }`, { variables: { input: { queryType: "SKU", value: P } } });
  bad("sets productSets", "nullable input variable in the non-null position", `query ($input: ProductSetsQueryInput) { productSets(input: $input) { ${pageInfo} } }`, { variables: { input: { queryType: "SKU", value: P } } });
  bad("sets productSets", "variable: queryType TAGS", `query ($input: ProductSetsQueryInput!) { productSets(input: $input) { ${pageInfo} } }`, { variables: { input: { queryType: "TAGS", value: P } } });
  bad("sets productSets", "variable: value missing", `query ($input: ProductSetsQueryInput!) { productSets(input: $input) { ${pageInfo} } }`, { variables: { input: { queryType: "SKU" } } });
  bad("sets productSets", "variable: unknown input field", `query ($input: ProductSetsQueryInput!) { productSets(input: $input) { ${pageInfo} } }`, { variables: { input: { queryType: "SKU", value: P, extra: 1 } } });
  bad("sets productSets", "variable: input a string", `query ($input: ProductSetsQueryInput!) { productSets(input: $input) { ${pageInfo} } }`, { variables: { input: P } });
  bad("sets productSets", "selection on a ProductSet leaf", `{ productSets(input: ${sku(P)}) { edges { node { tags { x } } } } }`);
  bad("sets productSets", "field of CustomSet on ProductSet", `{ productSets(input: ${sku(P)}) { edges { node { description } } } }`);
  bad("sets productSets", "products of a ProductSet without a selection", `{ productSets(input: ${sku(P)}) { edges { node { products } } } }`);
  bad("sets productSets", "arguments on ProductSet.products", `{ productSets(input: ${sku(P)}) { edges { node { products(first: 2) { id } } } } }`);

  // ---- setPhoto ------------------------------------------------------------------------------
  const photoQuery = (filter, args = "", selection = photoPage) => `{ setPhoto(input: ${tagsInput(filter)}${args}) { ${selection} } }`;
  walk("sets setPhoto", "walk every photo set with first: 1",
    `query Walk($first: Int, $after: String) { setPhoto(input: {queryType: TAGS, value: {}}, first: $first, after: $after) { ${photoPage} } }`, ["setPhoto"], 1);
  walk("sets setPhoto", "walk the sets without A's first tag with first: 1",
    `query Walk($f: TagFilterInput!, $first: Int, $after: String) { setPhoto(input: {queryType: TAGS, value: $f}, first: $first, after: $after) { ${photoPage} } }`,
    ["setPhoto"], 1, { f: { exclude: [A.tags[0]] } });
  const filters = [
    ["no filter", "{}"],
    ["include one tag", `{include: [${j(A.tags[0])}]}`],
    ["include one tag, upper case", `{include: [${j(upper(A.tags[0]))}]}`],
    ["include two tags of one set, mixed case", `{include: [${j(mixed(A.tags[0]))}, ${j(upper(A.tags[1] || A.tags[0]))}]}`],
    ["include every tag of a set", `{include: ${j(A.tags)}}`],
    ["include tags of two different sets (none has both)", `{include: [${j(A.tags[0])}, ${j(B.tags[0])}]}`],
    ["exclude one tag", `{exclude: [${j(A.tags[0])}]}`],
    ["exclude one tag, upper case", `{exclude: [${j(upper(B.tags[0]))}]}`],
    ["include and exclude the same set's tags", `{include: [${j(A.tags[0])}], exclude: [${j(mixed(A.tags[A.tags.length - 1]))}]}`],
    ["include one set's tag, exclude another's", `{include: [${j(B.tags[0])}], exclude: [${j(upper(A.tags[0]))}]}`],
    ["include and exclude one tag (nothing)", `{include: [${j(A.tags[0])}], exclude: [${j(upper(A.tags[0]))}]}`],
    ["exclude every set's first tag", `{exclude: ${j(photo.map((set) => set.tags[0]))}}`],
    ["include and exclude empty lists", "{include: [], exclude: []}"],
    ["include null", `{include: null, exclude: [${j(B.tags[0])}]}`],
    ["include a single string (coerced to a list)", `{include: ${j(upper(A.tags[0]))}}`],
    ["exclude a single string (coerced to a list)", `{exclude: ${j(mixed(A.tags[0]))}}`],
    ["include an unknown tag", `{include: ["no-such-tag"]}`],
    ["include the empty tag", `{include: [""]}`],
    ["include a tag with a space", `{include: [${j(" " + A.tags[0])}]}`],
    ["include a tag twice", `{include: [${j(A.tags[0])}, ${j(upper(A.tags[0]))}]}`],
  ];
  for (const [name, filter] of filters) add("sets setPhoto", `filter: ${name}`, photoQuery(filter, ", first: 10"));
  add("sets setPhoto", "default first (10)", photoQuery("{}"));
  add("sets setPhoto", "first: 0", photoQuery("{}", ", first: 0"));
  add("sets setPhoto", "first exactly the length: hasNextPage false", photoQuery("{}", `, first: ${photo.length}`, pageInfo));
  add("sets setPhoto", "first one less than the length: hasNextPage true", photoQuery("{}", `, first: ${photo.length - 1}`, pageInfo));
  add("sets setPhoto", "the unfiltered list's first cursor, filtered (another list: refused)", photoQuery(`{exclude: [${j(A.tags[0])}]}`, `, first: 5, after: ${j(cur(0, "setPhoto", filterScope({})))}`));
  add("sets setPhoto", "after the last cursor", photoQuery("{}", `, after: ${j(cur(photo.length - 1, "setPhoto", filterScope({})))}`));
  add("sets setPhoto", "after a productSets cursor (refused)", photoQuery("{}", `, after: ${j(cur(0, "productSets", of(M)))}`));
  add("sets setPhoto", "images of every set after the first set's cursor (the others' lists refuse it)", photoQuery("{}", "", `edges { node { id images(first: 2, after: ${j(cur(0, "images", `SetPhoto ${A.id}`))}) { edges { cursor node { url thumbnailUrl } } ${pageInfo} } } }`));
  add("sets setPhoto", "images first: 0 and default", photoQuery("{}", "", `edges { node { none: images(first: 0) { ${pageInfo} } all: images { edges { cursor node { url } } ${pageInfo} } } }`));
  add("sets setPhoto", "images first: 101 (propagates to data null)", `{ product(id: ${j(P)}) { id } setPhoto(input: ${tagsInput("{}")}) { edges { node { id images(first: 101) { ${pageInfo} } } } } }`);
  add("sets setPhoto", "aliases with different filters", `{ a: setPhoto(input: ${tagsInput(`{include: [${j(A.tags[0])}]}`)}) { edges { node { id } } } b: setPhoto(input: ${tagsInput(`{include: [${j(B.tags[0])}]}`)}) { edges { node { id } } } c: setPhoto(input: ${tagsInput("{}")}, first: 1) { ${photoPage} } }`);
  add("sets setPhoto", "filter as a variable", `query ($f: TagFilterInput!) { setPhoto(input: {queryType: TAGS, value: $f}) { ${photoPage} } }`, { variables: { f: { include: [mixed(A.tags[0])], exclude: ["NO-SUCH-TAG"] } } });
  add("sets setPhoto", "input as a variable, include a single string", `query ($input: SetPhotoQueryInput!) { setPhoto(input: $input) { ${photoPage} } }`, { variables: { input: { queryType: "TAGS", value: { include: upper(B.tags[0]) } } } });
  add("sets setPhoto", "include list as a variable, null", `query ($inc: [String!]) { setPhoto(input: {queryType: TAGS, value: {include: $inc}}) { ${photoPage} } }`, { variables: { inc: null } });
  add("sets setPhoto", "include list as a variable, not given", `query ($inc: [String!]) { setPhoto(input: {queryType: TAGS, value: {include: $inc}}) { ${photoPage} } }`);
  add("sets setPhoto", "a list item as a variable", `query ($t: String!) { setPhoto(input: {queryType: TAGS, value: {include: [$t]}}) { ${photoPage} } }`, { variables: { t: upper(A.tags[0]) } });
  add("sets setPhoto", "fragment on SetPhoto", `{ setPhoto(input: ${tagsInput("{}")}) { edges { node { ...Photo } } } } fragment Photo on SetPhoto { __typename id tags images(first: 1) { edges { node { url } } } }`);
  bad("sets setPhoto", "queryType SKU (not a SetPhotoQueryType)", `{ setPhoto(input: {queryType: SKU, value: {}}) { ${pageInfo} } }`);
  bad("sets setPhoto", "value a string", `{ setPhoto(input: {queryType: TAGS, value: "women"}) { ${pageInfo} } }`);
  bad("sets setPhoto", "value missing", `{ setPhoto(input: {queryType: TAGS}) { ${pageInfo} } }`);
  bad("sets setPhoto", "null in the include list", `{ setPhoto(input: {queryType: TAGS, value: {include: [null]}}) { ${pageInfo} } }`);
  bad("sets setPhoto", "an Int in the include list", `{ setPhoto(input: {queryType: TAGS, value: {include: [1]}}) { ${pageInfo} } }`);
  bad("sets setPhoto", "unknown filter field", `{ setPhoto(input: {queryType: TAGS, value: {only: ["x"]}}) { ${pageInfo} } }`);
  bad("sets setPhoto", "variable: null list item", `query ($f: TagFilterInput!) { setPhoto(input: {queryType: TAGS, value: $f}) { ${pageInfo} } }`, { variables: { f: { include: [null] } } });
  bad("sets setPhoto", "variable: queryType SKU", `query ($input: SetPhotoQueryInput!) { setPhoto(input: $input) { ${pageInfo} } }`, { variables: { input: { queryType: "SKU", value: {} } } });
  bad("sets setPhoto", "nullable String variable as a list item", `query ($t: String) { setPhoto(input: {queryType: TAGS, value: {include: [$t]}}) { ${pageInfo} } }`, { variables: { t: "x" } });
  bad("sets setPhoto", "variable: an Int in the include list", `query ($f: TagFilterInput!) { setPhoto(input: {queryType: TAGS, value: $f}) { ${pageInfo} } }`, { variables: { f: { include: ["x", 1] } } });
  bad("sets setPhoto", "[String] variable in a [String!] position", `query ($inc: [String]) { setPhoto(input: {queryType: TAGS, value: {include: $inc}}) { ${pageInfo} } }`, { variables: { inc: ["x"] } });
  bad("sets setPhoto", "products on SetPhoto", `{ setPhoto(input: ${tagsInput("{}")}) { edges { node { products { id } } } } }`);

  // ---- customSet -----------------------------------------------------------------------------
  const customFields = `id title description tags images { edges { cursor node { url thumbnailUrl } } ${pageInfo} } products { ${ctx.leaves} }`;
  for (const id of customSetIds) add("sets customSet", `custom set ${id}, every field`, `{ customSet(id: ${j(id)}) { ${customFields} } }`);
  add("sets customSet", "unknown id: null", `{ customSet(id: "no-such-set") { id title } }`);
  add("sets customSet", "a photo set's id", `{ customSet(id: ${j(photo[0].id)}) { id } }`);
  add("sets customSet", "a SKU of the set's product as the id", `{ customSet(id: ${j(C)}) { id } }`);
  add("sets customSet", "the id in upper case", `{ customSet(id: ${j(upper(customSetIds[0]))}) { id } }`);
  add("sets customSet", "integer id literal", `{ customSet(id: 10001) { id } }`);
  add("sets customSet", "known and unknown under aliases", `{ a: customSet(id: ${j(customSetIds[0])}) { id title } b: customSet(id: ${j(U)}) { id } c: customSet(id: ${j(customSetIds[1])}) { title tags } }`);
  add("sets customSet", "id as a variable", `query ($id: ID!) { customSet(id: $id) { id description } }`, { variables: { id: customSetIds[1] } });
  walk("sets customSet", `walk the images of ${customSetIds[0]} with first: 1`,
    `query Walk($id: ID!, $first: Int, $after: String) { customSet(id: $id) { id images(first: $first, after: $after) { edges { cursor node { url } } ${pageInfo} } } }`,
    ["customSet", "images"], 1, { id: customSetIds[0] });
  add("sets customSet", "images first exactly the count", `{ customSet(id: ${j(customSetIds[0])}) { images(first: ${NImages}) { ${pageInfo} } } }`);
  add("sets customSet", "images after a bad cursor (the set is null)", `{ customSet(id: ${j(customSetIds[0])}) { id images(after: "bad") { ${pageInfo} } } other: customSet(id: ${j(customSetIds[1])}) { id } }`);
  add("sets customSet", "images after a clusterProducts cursor (refused)", `{ customSet(id: ${j(customSetIds[0])}) { id images(first: 1, after: ${j(cur(0, "clusterProducts", `ProductCluster ${clusterIds[0]}`))}) { ${pageInfo} } } }`);
  add("sets customSet", "products' similar products after M's cursor (refused but for M)", `{ customSet(id: ${j(customSetIds[0])}) { products { id similarProducts(first: 2, after: ${j(cur(1, "similarProducts", of(M)))}) { edges { cursor node { id } } ${pageInfo} } } } }`);
  add("sets customSet", "a failing field in a product nulls the set", `{ customSet(id: ${j(customSetIds[0])}) { id products { id similarProducts(first: -1) { ${pageInfo} } } } }`);
  add("sets customSet", "fragments on CustomSet", `{ customSet(id: ${j(customSetIds[0])}) { ...Set ... on CustomSet { __typename } } } fragment Set on CustomSet { id title products { ...P } } fragment P on Product { id name }`);
  add("sets customSet", "@skip on customSet and on its products", `query ($b: Boolean! = true) { customSet(id: ${j(customSetIds[0])}) { id products @skip(if: $b) { id } } skipped: customSet(id: ${j(customSetIds[1])}) @skip(if: $b) { id } }`);
  bad("sets customSet", "no id", `{ customSet { id } }`);
  bad("sets customSet", "customSet without a selection", `{ customSet(id: ${j(customSetIds[0])}) }`);
  bad("sets customSet", "fragment on ProductSet spread in a CustomSet", `{ customSet(id: ${j(customSetIds[0])}) { ...F } } fragment F on ProductSet { id }`);

  // ---- setCompose ----------------------------------------------------------------------------
  walk("sets setCompose", `walk setCompose of ${M} with first: 2`,
    `query Walk($value: String!, $first: Int, $after: String) { setCompose(input: {queryType: SKU, value: $value}, first: $first, after: $after) { ${composePage} } }`,
    ["setCompose"], 2, { value: M });
  walk("sets setCompose", `walk setCompose of ${P} with the default first (5)`,
    `query Walk($value: String!, $after: String) { setCompose(input: {queryType: SKU, value: $value}, after: $after) { ${composePage} } }`,
    ["setCompose"], null, { value: P });
  add("sets setCompose", "first: 0", `{ setCompose(input: ${sku(M)}, first: 0) { ${composePage} } }`);
  add("sets setCompose", "first exactly the length", `{ setCompose(input: ${sku(M)}, first: ${NCompose}) { ${pageInfo} } }`);
  add("sets setCompose", "first: null literal (the list's default, 5)", `{ setCompose(input: ${sku(M)}, first: null) { ${pageInfo} edges { cursor } } }`);
  add("sets setCompose", "unknown SKU: edges []", `{ setCompose(input: ${sku(U)}) { ${composePage} } }`);
  add("sets setCompose", "after a bad cursor", `{ setCompose(input: ${sku(M)}, after: "bad") { ${pageInfo} } }`);
  add("sets setCompose", "items' products with generated leaves", `{ setCompose(input: ${sku(P)}, first: 1) { edges { node { items { product { ${ctx.leaves} } alternatives { id url } } } } } }`);
  add("sets setCompose", "input as a variable and alias", `query ($input: SetComposeQueryInput!) { compose: setCompose(input: $input, first: 1, after: ${j(cur(0, "setCompose", of(M)))}) { ${composePage} } }`, { variables: { input: { queryType: "SKU", value: M } } });
  add("sets setCompose", "another product's cursor (refused)", `{ setCompose(input: ${sku(S[0])}, first: 1, after: ${j(cur(0, "setCompose", of(M)))}) { ${composePage} } }`);
  bad("sets setCompose", "queryType TAGS", `{ setCompose(input: {queryType: TAGS, value: ${j(M)}}) { ${pageInfo} } }`);
  bad("sets setCompose", "the productSets input type", `query ($input: ProductSetsQueryInput!) { setCompose(input: $input) { ${pageInfo} } }`, { variables: { input: { queryType: "SKU", value: M } } });
  bad("sets setCompose", "items without a selection", `{ setCompose(input: ${sku(M)}) { edges { node { items } } } }`);

  // ---- Product.matchingProductClusters and ProductCluster.products ----------------------------
  walk("sets clusters", `walk ${M}'s clusters with first: 1`,
    `query Walk($id: ID!, $first: Int, $after: String) { product(id: $id) { matchingProductClusters(first: $first, after: $after) { ${clusterPage()} } } }`,
    ["product", "matchingProductClusters"], 1, { id: M });
  walk("sets clusters", `walk the products of ${M}'s longest cluster with first: 25`,
    `query Walk($id: ID!, $after0: String, $first: Int, $after: String) { product(id: $id) { matchingProductClusters(first: 1, after: $after0) { edges { node { id products(first: $first, after: $after) { edges { cursor node { id name } } ${pageInfo} } } } } } }`,
    ["product", "matchingProductClusters", "edges", 0, "node", "products"], 25, { id: M, after0: longest === 0 ? null : cur(longest - 1, "matchingProductClusters", of(M)) });
  add("sets clusters", "default first (5 clusters, 12 products)", `{ product(id: ${j(M)}) { matchingProductClusters { ${clusterPage()} } } }`);
  add("sets clusters", "by variant SKU", `{ product(id: ${j(P)}) { matchingProductClusters(first: 2) { ${clusterPage()} } } }`);
  add("sets clusters", "first: 0", `{ product(id: ${j(M)}) { matchingProductClusters(first: 0) { ${clusterPage()} } } }`);
  add("sets clusters", "first exactly the count", `{ product(id: ${j(M)}) { matchingProductClusters(first: ${NClusters}) { ${pageInfo} } } }`);
  add("sets clusters", "after the first cluster", `{ product(id: ${j(M)}) { matchingProductClusters(first: 1, after: ${j(cur(0, "matchingProductClusters", of(M)))}) { ${clusterPage()} } } }`);
  add("sets clusters", "after the last cluster", `{ product(id: ${j(M)}) { matchingProductClusters(after: ${j(cur(NClusters - 1, "matchingProductClusters", of(M)))}) { ${clusterPage()} } } }`);
  add("sets clusters", "products after the longest cluster's cursor (the other clusters' lists refuse it)",
    `{ product(id: ${j(M)}) { matchingProductClusters { edges { node { name products(first: 3, after: ${j(cur(shortest - 1, "clusterProducts", `ProductCluster ${clusterIds[longest]}`))}) { edges { cursor node { id } } ${pageInfo} } } } } } }`);
  add("sets clusters", "products first: 100 in every cluster", `{ product(id: ${j(M)}) { matchingProductClusters { edges { node { products(first: 100) { ${pageInfo} } } } } } }`);
  add("sets clusters", "products first: 0 and first: 1 under aliases", `{ product(id: ${j(M)}) { matchingProductClusters(first: 2) { edges { node { none: products(first: 0) { ${pageInfo} } one: products(first: 1) { edges { node { id } } ${pageInfo} } } } } } }`);
  add("sets clusters", "a bad after in a nested cluster's products (nulls the product)",
    `{ other: product(id: ${j(S[0])}) { id } product(id: ${j(M)}) { id matchingProductClusters(first: 2) { edges { node { id products(after: "bad") { ${pageInfo} } } } } } }`);
  add("sets clusters", "a matchingProductClusters cursor as a cluster's after (refused)",
    `{ product(id: ${j(M)}) { matchingProductClusters(first: 1) { edges { node { products(first: 2, after: ${j(cur(0, "matchingProductClusters", of(M)))}) { ${pageInfo} } } } } } }`);
  add("sets clusters", "a clusterProducts cursor as the clusters' after (refused)",
    `{ product(id: ${j(M)}) { matchingProductClusters(first: 1, after: ${j(cur(0, "clusterProducts", `ProductCluster ${clusterIds[0]}`))}) { ${pageInfo} } } }`);
  add("sets clusters", "products first: 101 in a nested cluster", `{ product(id: ${j(M)}) { matchingProductClusters(first: 1) { edges { node { products(first: 101) { ${pageInfo} } } } } } }`);
  add("sets clusters", "fragments on ProductCluster", `{ product(id: ${j(M)}) { matchingProductClusters(first: 2) { edges { node { ...Cluster } } } } } fragment Cluster on ProductCluster { __typename id name products(first: 2) { ...Conn } } fragment Conn on ProductConnection { edges { node { id } } pageInfo { hasNextPage } }`);
  add("sets clusters", "clusters of similar products (second level)", `{ product(id: ${j(M)}) { similarProducts(first: 3) { edges { node { id matchingProductClusters(first: 2) { edges { node { name products(first: 2) { edges { node { id } } } } } } } } } } }`);
  add("sets clusters", "similar products of a cluster's products", `{ product(id: ${j(M)}) { matchingProductClusters(first: 1) { edges { node { products(first: 2) { edges { node { id similarProducts(first: 1) { edges { cursor node { id } } } } } } } } } } }`);
  add("sets clusters", "clusters through variables", `query ($id: ID!, $n: Int, $m: Int, $after: String) { product(id: $id) { matchingProductClusters(first: $n) { edges { node { products(first: $m, after: $after) { edges { cursor node { id } } ${pageInfo} } } } } } }`,
    { variables: { id: P, n: 2, m: 3, after: cur(3, "clusterProducts", `ProductCluster ${clusterIds[longest]}`) } });
  add("sets clusters", "@include(if: false) on a failing cluster field", `{ product(id: ${j(M)}) { id matchingProductClusters(first: -1) @include(if: false) { ${pageInfo} } } }`);
  bad("sets clusters", "conflicting first under one response key", `{ product(id: ${j(M)}) { matchingProductClusters(first: 1) { ${pageInfo} } matchingProductClusters(first: 2) { ${pageInfo} } } }`);
  bad("sets clusters", "unknown argument on cluster products", `{ product(id: ${j(M)}) { matchingProductClusters { edges { node { products(last: 2) { ${pageInfo} } } } } } }`);

  // ---- Product.customSets --------------------------------------------------------------------
  for (const first of [1, NCustomSetsC + 1]) {
    walk("sets customSets", `walk ${C}'s custom sets with first: ${first}`,
      `query Walk($id: ID!, $first: Int, $after: String) { product(id: $id) { customSets(first: $first, after: $after) { ${customPage} } } }`,
      ["product", "customSets"], first, { id: C });
  }
  add("sets customSets", "default first (1)", `{ product(id: ${j(C)}) { customSets { ${customPage} } } }`);
  add("sets customSets", "by variant SKU", `{ product(id: ${j(CV)}) { customSets(first: 5) { ${customPage} } } }`);
  add("sets customSets", "a product in no custom set: edges []", `{ product(id: ${j(P)}) { customSets(first: 5) { ${customPage} } } }`);
  add("sets customSets", "first: 0", `{ product(id: ${j(C)}) { customSets(first: 0) { ${customPage} } } }`);
  add("sets customSets", "after the last custom set", `{ product(id: ${j(C)}) { customSets(first: 3, after: ${j(cur(NCustomSetsC - 1, "customSets", of(C)))}) { ${customPage} } } }`);
  add("sets customSets", "after a productSets cursor (refused)", `{ product(id: ${j(C)}) { id customSets(after: ${j(cur(0, "productSets", of(M)))}) { ${pageInfo} } } }`);
  add("sets customSets", "custom sets' images, paged", `{ product(id: ${j(C)}) { customSets { edges { node { id images(first: 2, after: ${j(cur(1, "images", `CustomSet ${customSetIds[0]}`))}) { edges { cursor node { url } } ${pageInfo} } } } } } }`);
  add("sets customSets", "custom sets' products' custom sets", `{ product(id: ${j(C)}) { customSets { edges { node { products { id customSets(first: 2) { edges { node { id } } ${pageInfo} } } } } } } }`);
  add("sets customSets", "customSets next to productSets and customSet", `{ product(id: ${j(C)}) { customSets { edges { node { id title } } } } productSets(input: ${sku(C)}, first: 1) { edges { node { id title imageLink } } } customSet(id: ${j(customSetIds[0])}) { id title } }`);
  add("sets customSets", "a failing image page in a custom set", `{ product(id: ${j(C)}) { id customSets { edges { node { id images(first: -1) { ${pageInfo} } } } } } ok: product(id: ${j(P)}) { id } }`);

  // ---- introspection of the set types --------------------------------------------------------
  add("sets introspection", "input types", `{ a: __type(name: "ProductSetsQueryInput") { kind inputFields { name defaultValue type { kind name ofType { name } } } } b: __type(name: "TagFilterInput") { inputFields { name type { kind ofType { kind ofType { name } } } } } }`);
  add("sets introspection", "query type enums", `{ a: __type(name: "ProductSetsQueryType") { kind enumValues { name } } b: __type(name: "SetPhotoQueryType") { enumValues { name } } c: __type(name: "SetComposeQueryType") { enumValues { name } } }`);
  add("sets introspection", "deprecated set fields", `{ q: __type(name: "Query") { fields(includeDeprecated: true) { name isDeprecated deprecationReason args { name defaultValue } } } p: __type(name: "Product") { fields(includeDeprecated: false) { name } } }`);
}

module.exports = { buildCorpus };
