#!/usr/bin/env bash
# The demo: start a sandbox, check the key, send requests with `ws api`, import a CSV of
# contacts (a few bad rows included) and query what arrived, then the webhooks example of
# docs/webhooks.md: `ws webhooks listen` forwarding to a handler, an automation on deals that calls it, a
# deal moved to won, the automation's run, the delivery in listen and in the delivery log; then
# stop the sandbox.
# It uses a throw-away config directory, so your own profiles are left alone.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ws() { node "$root/bin/ws.js" "$@"; }
export WS_CONFIG_DIR="$(mktemp -d)"
listen_pid=""
handler_pid=""
cleanup() {
  # listen first: on SIGINT it removes the webhook it registered, then the sandbox stops.
  if [ -n "$listen_pid" ]; then kill -INT "$listen_pid" 2>/dev/null || true; wait "$listen_pid" 2>/dev/null || true; fi
  if [ -n "$handler_pid" ]; then kill "$handler_pid" 2>/dev/null || true; wait "$handler_pid" 2>/dev/null || true; fi
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

printf "\n%s\n" "# examples/contacts.csv holds 8 bad rows on purpose: the import reports them and exits 5"
step import contacts examples/contacts.csv --map "'Full name=name'" --map "'Newsletter=subscribed'" --failed-file "$WS_CONFIG_DIR/contacts.failed.csv"
ws import contacts "$root/examples/contacts.csv" --map 'Full name=name' --map 'Newsletter=subscribed' \
  --failed-file "$WS_CONFIG_DIR/contacts.failed.csv" || echo "(exit code $?: some rows failed)"

printf "\n%s\n" "# $WS_CONFIG_DIR/contacts.failed.csv (a throw-away directory, not the checkout): the rows that failed, with their line and error first, ready to fix and import again"
cut -c1-160 "$WS_CONFIG_DIR/contacts.failed.csv"

step records query contacts --where "'status=customer'" --where "'tags~vip'" --select name,email,city,score --sort -score
ws records query contacts --where 'status=customer' --where 'tags~vip' --select name,email,city,score --sort -score

printf "\n%s\n" "# a handler of your own (here one that prints the event it gets), on a free port"
node -e 'const s = require("http").createServer((q, r) => { let b = ""; q.on("data", (c) => (b += c)); q.on("end", () => { console.log(q.headers["x-service-event"], b.slice(0, 120)); r.end("ok"); }); }); s.listen(0, "127.0.0.1", () => console.error(s.address().port))' \
  >"$WS_CONFIG_DIR/handler.log" 2>"$WS_CONFIG_DIR/handler.port" &
handler_pid=$!
for _ in $(seq 1 100); do [ -s "$WS_CONFIG_DIR/handler.port" ] && break; sleep 0.1; done
handler="http://127.0.0.1:$(cat "$WS_CONFIG_DIR/handler.port")/hooks"

step webhooks listen --forward-to "$handler" --format ndjson "> listen.ndjson &   # registered as a webhook while it runs"
# node itself in the background (not the ws function), so that $! is the process to signal
node "$root/bin/ws.js" webhooks listen --forward-to "$handler" --format ndjson \
  >"$WS_CONFIG_DIR/listen.ndjson" 2>"$WS_CONFIG_DIR/listen.log" &
listen_pid=$!
for _ in $(seq 1 100); do
  grep -q '"type":"ready"' "$WS_CONFIG_DIR/listen.ndjson" 2>/dev/null && break
  sleep 0.1
done
head -1 "$WS_CONFIG_DIR/listen.ndjson"

step webhooks list --fields id,name
ws webhooks list --fields id,name
hook=$(ws webhooks list --fields id,name | grep ws-listen- | cut -f1)

step automations create deal --name "'Deal won'" --on-change stage:to=won --webhook '"$hook"'
ws automations create deal --name 'Deal won' --on-change stage:to=won --webhook "$hook" >/dev/null
ws automations get deal 'Deal won'

step records create deal --set name=Acme --set stage=lead --fields id
deal=$(ws records create deal --set name=Acme --set stage=lead --fields id)
echo "$deal"
step records update deal "$deal" --set stage=won "   # the automation fires: listen gets deal.updated"
ws records update deal "$deal" --set stage=won
for _ in $(seq 1 100); do
  grep -q '"type":"delivery"' "$WS_CONFIG_DIR/listen.ndjson" && break
  sleep 0.1
done

step automations runs deal "'Deal won'" --fields automation_name,event,status,steps
ws automations runs deal 'Deal won' --fields automation_name,event,status,steps

printf "\n%s\n" "# what listen printed for it (one JSON object per event), and what the handler got"
grep '"type":"delivery"' "$WS_CONFIG_DIR/listen.ndjson" | cut -c1-200
cat "$WS_CONFIG_DIR/handler.log"

step deliveries list --webhook "$hook"
ws deliveries list --webhook "$hook"

delivery=$(ws deliveries list --webhook "$hook" --type delivery --limit 1 --fields delivery_id)
step deliveries get "$delivery" --webhook "$hook" --format table
ws deliveries get "$delivery" --webhook "$hook" --format table

printf "\n%s\n" "# Ctrl-C (here kill -INT) stops listen: it removes the webhook it registered"
kill -INT "$listen_pid"
wait "$listen_pid" || true
listen_pid=""
tail -1 "$WS_CONFIG_DIR/listen.log"
ws webhooks list

step sandbox stop
ws sandbox stop
