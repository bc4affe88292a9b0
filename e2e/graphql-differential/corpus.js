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
//   walk            a pagination walk: { id, first, selection } run page by page, following
//                   endCursor until hasNextPage is false; every page counts as one query.
// ctx: { P: a variant SKU, M: its main SKU (Product.id), S: main SKUs of P's similar list,
//        V: a variant SKU of S[0] (or null), U: an unknown ID, N: length of P's similar list,
//        leaves: the scalar leaves of Product generated from the SDL }.
const { encodeCursor } = require("./reference");

function buildCorpus(ctx) {
  const { P, M, S, V, U, N } = ctx;
  const cases = [];
  const add = (category, name, query, extra = {}) => cases.push({ category, name, query, expect: "data", ...extra });
  const bad = (category, name, query, extra = {}) => cases.push({ category, name, query, expect: "request-error", ...extra });
  const j = JSON.stringify;
  const scalars = "id name brand modelId url";
  const page = "edges { cursor node { id name } } pageInfo { endCursor hasNextPage }";

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
  add("aliases", "same field twice, different after", `{ product(id: ${j(P)}) { p1: similarProducts(first: 3) { ${page} } p2: similarProducts(first: 3, after: ${j(encodeCursor(2))}) { ${page} } } }`);
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
  add("variables", "after variable", `query ($after: String) { product(id: ${j(P)}) { similarProducts(first: 2, after: $after) { ${page} } } }`, { variables: { after: encodeCursor(5) } });
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
  add("pagination", "first: 0 after a cursor", `{ product(id: ${j(P)}) { similarProducts(first: 0, after: ${j(encodeCursor(3))}) { ${page} } } }`);
  add("pagination", "first: 100", `{ product(id: ${j(P)}) { similarProducts(first: 100) { ${page} } } }`);
  add("pagination", "first: null literal (resolver default)", `{ product(id: ${j(P)}) { similarProducts(first: null) { pageInfo { endCursor hasNextPage } } } }`);
  add("pagination", "after: null literal", `{ product(id: ${j(P)}) { similarProducts(first: 2, after: null) { ${page} } } }`);
  add("pagination", "first: 101 (field error, propagates to product)", `{ product(id: ${j(P)}) { id similarProducts(first: 101) { ${page} } } }`);
  add("pagination", "first: -1 (field error)", `{ product(id: ${j(P)}) { id similarProducts(first: -1) { ${page} } } }`);
  add("pagination", "first: 2147483647 (field error)", `{ product(id: ${j(P)}) { similarProducts(first: 2147483647) { ${page} } } }`);
  add("pagination", "after the last cursor", `{ product(id: ${j(P)}) { similarProducts(first: 5, after: ${j(encodeCursor(N - 1))}) { ${page} } } }`);
  add("pagination", "after the second-to-last cursor", `{ product(id: ${j(P)}) { similarProducts(first: 5, after: ${j(encodeCursor(N - 2))}) { ${page} } } }`);
  add("pagination", "after a cursor beyond the list (never issued: refused)", `{ product(id: ${j(P)}) { similarProducts(first: 5, after: ${j(encodeCursor(N + 50))}) { ${page} } } }`);
  add("pagination", "after a cursor with a huge index (never issued: refused)", `{ product(id: ${j(P)}) { similarProducts(first: 5, after: ${j(encodeCursor("9223372036854775806"))}) { ${page} } } }`);
  add("pagination", "window ending exactly at the end", `{ product(id: ${j(P)}) { similarProducts(first: 4, after: ${j(encodeCursor(N - 5))}) { ${page} } } }`);
  add("pagination", "cursor with a '+' sign (never issued: refused)", `{ product(id: ${j(P)}) { similarProducts(first: 2, after: ${j(encodeCursor("+3"))}) { ${page} } } }`);
  add("pagination", "cursor with leading zeros", `{ product(id: ${j(P)}) { similarProducts(first: 2, after: ${j(encodeCursor("007"))}) { ${page} } } }`);
  for (const [label, after] of [["garbage", "not-a-cursor!"], ["empty", ""], ["other list", encodeCursor(3, "otherList")],
    ["negative index", encodeCursor(-1)], ["no index", encodeCursor("")], ["letters as index", encodeCursor("x1")],
    ["padded base64", encodeCursor(3) + "="], ["'/' (standard base64 alphabet)", encodeCursor(3).slice(0, -1) + "/"], ["'+' (standard base64 alphabet)", "+" + encodeCursor(3).slice(1)],
    ["valid cursor with a trailing space", encodeCursor(3) + " "],
    ["index beyond int64", encodeCursor("9223372036854775808")], ["length 4n+1", encodeCursor(3) + "A".repeat((4 - ((encodeCursor(3).length + 1) % 4)) % 4 + 1)],
    ["prefix without colon", Buffer.from("similarProducts3").toString("base64url")]]) {
    add("pagination", `invalid after: ${label}`, `{ product(id: ${j(P)}) { id similarProducts(first: 2, after: ${j(after)}) { ${page} } } }`);
  }
  add("pagination", "hasNextPage only", `{ product(id: ${j(P)}) { similarProducts(first: ${N}) { pageInfo { hasNextPage } } } }`);
  add("pagination", "endCursor of an empty page", `{ product(id: ${j(P)}) { similarProducts(first: 0) { pageInfo { endCursor } } } }`);
  add("pagination", "pages of two products side by side", `{ a: product(id: ${j(P)}) { similarProducts(first: 3) { ${page} } } b: product(id: ${j(S[2])}) { similarProducts(first: 3) { ${page} } } }`);
  add("pagination", "second level pagination", `{ product(id: ${j(M)}) { similarProducts(first: 3) { edges { node { id similarProducts(first: 2, after: ${j(encodeCursor(0))}) { ${page} } } } } } }`);
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
    ["unknown field on PageInfo", `{ product(id: ${j(P)}) { similarProducts { pageInfo { startCursor } } } }`],
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

  return cases;
}

module.exports = { buildCorpus };
