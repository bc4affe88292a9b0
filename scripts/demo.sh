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

# The operator console's first account (once): a random password kept 0600 beside the data,
# so the console can be tried at once; `svc-server operator create` makes real ones.
password_file="$DATA_DIR/demo-operator-password"
if [[ ! -f $password_file ]]; then
  password=$(node -e 'console.log(require("crypto").randomBytes(12).toString("base64url"))')
  SVC_OPERATOR_PASSWORD=$password build/bin/svc-server operator create --data-dir "$DATA_DIR" --email demo@svc.example >/dev/null
  (umask 077 && printf '%s\n' "$password" >"$password_file")
fi

echo
echo "  Demo catalog: $rows variants imported into $DATA_DIR"
echo "  Tenant API ID: $api_id"
echo "  Demo shop:     http://$LISTEN/demo/"
echo "  Product page:  http://$LISTEN/demo/product.html?sku=$first_sku"
echo "  Console:       http://$LISTEN/console/  (demo@svc.example, password in $password_file)"
echo "  GraphQL:       curl -s http://$LISTEN/graphql -H 'x-api-id: $api_id' -H 'content-type: application/json' \\"
echo "                   -d '{\"query\":\"{ product(id: \\\"$first_sku\\\") { name similarProducts(first: 3) { edges { node { id name } } } } }\"}'"
echo
exec build/bin/svc-server serve --data-dir "$DATA_DIR" --listen "$LISTEN"
