#!/usr/bin/env bash
# The demo: start a sandbox, check the key, send requests with `ws api`, import a CSV of
# contacts (a few bad rows included) and query what arrived, watch an automation fire
# when a deal is won, then stop the sandbox.
# It uses a throw-away config directory, so your own profiles are left alone.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ws() { node "$root/bin/ws.js" "$@"; }
export WS_CONFIG_DIR="$(mktemp -d)"
trap 'ws sandbox stop >/dev/null 2>&1 || true; rm -rf "$WS_CONFIG_DIR"' EXIT

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

step automations create deal --name "'Deal won'" --on-change stage:to=won --webhook "'Deal alerts'" --wait 1d
ws api POST '/v2/webhooks/{teamId}' -f 'name=Deal alerts' -f url=https://example.com/hooks >/dev/null
ws automations create deal --name 'Deal won' --on-change stage:to=won --webhook 'Deal alerts' --wait 1d >/dev/null
ws automations get deal "Deal won" --fields name,when,then

deal="$(ws records list deals --where stage=lead --limit 1 --fields id)"
step records update deals "$deal" --set stage=won
ws records update deals "$deal" --set stage=won >/dev/null

step automations runs deal "'Deal won'" --fields automation_name,event,status,steps
ws automations runs deal 'Deal won' --fields automation_name,event,status,steps

step sandbox stop
ws sandbox stop
