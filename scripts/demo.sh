#!/usr/bin/env bash
# Creates (once) the demo tenant, regenerates and imports the demo catalog, then
# serves the demo shop. Data stays in .demo-data/ (or $SVC_DEMO_DATA_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA_DIR=${SVC_DEMO_DATA_DIR:-.demo-data}
LISTEN=${SVC_DEMO_LISTEN:-127.0.0.1:8080}

setup=$(build/bin/svc-server demo setup --data-dir "$DATA_DIR")
read -r api_id first_sku rows < <(node -e '
  const s = JSON.parse(require("fs").readFileSync(0, "utf8"));
  console.log(s.apiId, s.firstSku, s.import.rowsRead);' <<<"$setup")

echo
echo "  Demo catalog: $rows variants imported into $DATA_DIR"
echo "  Tenant API ID: $api_id"
echo "  Demo shop:     http://$LISTEN/demo/"
echo "  Product page:  http://$LISTEN/demo/product.html?sku=$first_sku"
echo "  GraphQL:       curl -s http://$LISTEN/graphql -H 'x-api-id: $api_id' -H 'content-type: application/json' \\"
echo "                   -d '{\"query\":\"{ product(id: \\\"$first_sku\\\") { name similarProducts(first: 3) { edges { node { id name } } } } }\"}'"
echo
exec build/bin/svc-server serve --data-dir "$DATA_DIR" --listen "$LISTEN"
