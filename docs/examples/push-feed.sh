#!/usr/bin/env bash
# Pushes a feed file to svc (spec endpoints 1 and 2) and waits until it is imported; prints
# the import's history entry and exits 0 when it was applied. Needs curl and jq.
#   SVC_URL=https://svc.example.com API_ID=... API_SECRET=... ./push-feed.sh feed.csv [delta] [feed]
# delta: false (default, a full feed) or true; feed: which of the shop's feeds (default, stock, ...).
set -euo pipefail
file=$1
delta=${2:-false}
feed=${3:-default}
credentials=(-H "x-api-id: $API_ID" -H "x-api-secret: $API_SECRET")

# 1. A pre-signed upload URL and the headers to send with the file.
upload=$(curl -sS --fail-with-body "$SVC_URL/feeds/uploads" "${credentials[@]}" -H 'content-type: application/json' \
  -d "{\"identifier\":\"sku\",\"format\":{\"type\":\"csv\",\"options\":{\"delimiter\":\";\"}},\"delta\":$delta,\"feed\":\"$feed\"}")
headers=()
while IFS= read -r header; do headers+=(-H "$header"); done < <(jq -r '.headers | to_entries[] | "\(.key): \(.value)"' <<<"$upload")

# 2. The file, with every returned header unchanged. The answer names this import: its id is the
#    shop's own (ids count across all shops of an svc, so never assume 1).
put=$(curl -sS --fail-with-body -X "$(jq -r .method <<<"$upload")" "$(jq -r .url <<<"$upload")" "${headers[@]}" --data-binary @"$file")
import_id=$(jq -r .importId <<<"$put")

# 3. The import's result: applied, failed (with the reason) or held (a full feed that would delete too much).
while true; do
  record=$(curl -sS --fail-with-body "$SVC_URL/feeds/imports/$import_id" "${credentials[@]}")
  status=$(jq -r .status <<<"$record")
  [ "$status" = queued ] || [ "$status" = running ] || break
  sleep 1
done
printf '%s\n' "$record"
[ "$status" = applied ]
