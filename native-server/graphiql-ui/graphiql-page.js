// GraphiQL at GET /graphql (docs/adr/0084): served by svc itself under a strict CSP (no inline script), React and
// GraphiQL copied from npm at build time. The API ID field becomes the x-api-id header of every request; ?apiId=
// fills it in.
(function () {
  "use strict";
  var field = document.getElementById("svc-api-id");
  var given = new URLSearchParams(window.location.search).get("apiId");
  if (given) field.value = given;

  function fetcher(params, options) {
    var headers = { "content-type": "application/json", accept: "application/graphql-response+json, application/json;q=0.9" };
    var extra = (options && options.headers) || {};
    Object.keys(extra).forEach(function (name) { headers[name] = extra[name]; });
    if (field.value.trim()) headers["x-api-id"] = field.value.trim();
    return fetch("/graphql", { method: "POST", headers: headers, body: JSON.stringify(params) }).then(function (response) {
      return response.json();
    });
  }

  var defaultQuery = "# svc's content API: the schema is public, the catalog needs the shop's API ID (the field above).\n" +
                     "query Similar($id: ID!) {\n  product(id: $id) {\n    id\n    name\n    similarProducts(first: 4) {\n" +
                     "      edges { node { id name brand } }\n      pageInfo { endCursor hasNextPage }\n    }\n  }\n}\n";
  ReactDOM.createRoot(document.getElementById("graphiql")).render(
    React.createElement(GraphiQL, { fetcher: fetcher, defaultQuery: defaultQuery, defaultVariableEditorOpen: true }));
})();
