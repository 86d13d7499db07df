#!/usr/bin/env bash
# The demo: start a sandbox, check the key, send requests with `ws api`, stop it.
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

step sandbox stop
ws sandbox stop
