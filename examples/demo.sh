#!/usr/bin/env bash
# The demo: start a sandbox, check the key, send requests with `ws api`, import a CSV of
# contacts (a few bad rows included) and query what arrived, receive a webhook delivery with
# `ws webhooks listen` and read it in the delivery log, then stop the sandbox.
# It uses a throw-away config directory, so your own profiles are left alone.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ws() { node "$root/bin/ws.js" "$@"; }
export WS_CONFIG_DIR="$(mktemp -d)"
listen_pid=""
cleanup() {
  # listen first: on SIGINT it removes the webhook it registered, then the sandbox stops.
  if [ -n "$listen_pid" ]; then kill -INT "$listen_pid" 2>/dev/null || true; wait "$listen_pid" 2>/dev/null || true; fi
  ws sandbox stop >/dev/null 2>&1 || true
  rm -rf "$WS_CONFIG_DIR"
}
trap cleanup EXIT

step() { if [ -t 1 ]; then printf "\n\033[1m$ ws %s\033[0m\n" "$*"; else printf "\n$ ws %s\n" "$*"; fi; }

step sandbox start --detach --port 0 --seed demo
ws sandbox start --detach --port 0 --seed demo

step auth status
ws auth status

step profile list
ws profile list

step api GET "'/v2/prism/{teamId}/contact/count'"
ws api GET '/v2/prism/{teamId}/contact/count'

step api GET "'/v2/prism/{teamId}/deal/count'" -i
ws api GET '/v2/prism/{teamId}/deal/count' -i

step api GET "'/v2/prism/{teamId}/planet/count'" --json "   # an error, as a script sees it"
ws api GET '/v2/prism/{teamId}/planet/count' --json || echo "(exit code $?)"

step import contacts examples/contacts.csv --map "'Full name=name'" --map "'Newsletter=subscribed'" --failed-file contacts.failed.csv
ws import contacts "$root/examples/contacts.csv" --map 'Full name=name' --map 'Newsletter=subscribed' \
  --failed-file "$WS_CONFIG_DIR/contacts.failed.csv" || echo "(exit code $?: some rows failed)"

printf "\n%s\n" "# contacts.failed.csv: the rows that failed, with their line and error first, ready to fix and import again"
cut -c1-160 "$WS_CONFIG_DIR/contacts.failed.csv"

step records query contacts --where "'status=customer'" --where "'tags~vip'" --select name,email,city,score --sort -score
ws records query contacts --where 'status=customer' --where 'tags~vip' --select name,email,city,score --sort -score

step webhooks listen --format ndjson "> listen.ndjson &   # a local receiver, registered as a webhook while it runs"
# node itself in the background (not the ws function), so that $! is the process to signal
node "$root/bin/ws.js" webhooks listen --format ndjson >"$WS_CONFIG_DIR/listen.ndjson" 2>"$WS_CONFIG_DIR/listen.log" &
listen_pid=$!
for _ in $(seq 1 100); do
  grep -q '"type":"ready"' "$WS_CONFIG_DIR/listen.ndjson" 2>/dev/null && break
  sleep 0.1
done
field() { node -e 'const l = require("fs").readFileSync(process.argv[1], "utf8").split("\n").find((x) => x.includes(process.argv[2])); console.log(JSON.parse(l)[process.argv[3]])' "$WS_CONFIG_DIR/listen.ndjson" "$@"; }
webhook=$(field '"type":"ready"' webhook_name)
head -1 "$WS_CONFIG_DIR/listen.ndjson"

step webhooks ping "$webhook" --wait
ws webhooks ping "$webhook" --wait

printf "\n%s\n" "# what listen printed for it (one JSON object per event)"
grep '"type":"delivery"' "$WS_CONFIG_DIR/listen.ndjson" | cut -c1-200

step deliveries list --webhook "$webhook"
ws deliveries list --webhook "$webhook"

delivery=$(field '"type":"delivery"' delivery_id)
step deliveries get "$delivery" --webhook "$webhook" --format table
ws deliveries get "$delivery" --webhook "$webhook" --format table

printf "\n%s\n" "# Ctrl-C (here kill -INT) stops listen: it removes the webhook it registered"
kill -INT "$listen_pid"
wait "$listen_pid" || true
listen_pid=""
tail -1 "$WS_CONFIG_DIR/listen.log"
ws webhooks list

step sandbox stop
ws sandbox stop
