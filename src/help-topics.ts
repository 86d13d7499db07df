// `ws help TOPIC`: what holds across commands, where a command's own help cannot say it
// (the environment, output formats, exit codes, the filter language). Loaded only when a
// topic is asked for.

export const TOPICS = {
  environment: {
    summary: 'variables ws reads',
    text: `Environment variables

  WS_PROFILE        the profile to use (--profile wins), else the default profile
  WS_API_KEY        the API key: overrides the profile's (no flag takes a key)
  WS_TEAM_ID        the team id (a UUID): overrides the profile's
  WS_BASE_URL       the service's base URL: overrides the profile's
                    (the three alone are enough without any profile, as in CI)
  WS_CONFIG_DIR     where profiles and caches live (default: ~/.config/ws on Linux,
                    ~/Library/Preferences/ws on macOS, %APPDATA%\\ws\\Config on Windows)
  WS_DEBUG=1        trace requests to stderr, secrets redacted (as --debug)
  WS_NO_INPUT=1     never prompt: a missing value is a usage error (as --no-input)
  WS_NO_CACHE=1     do not read or write the property definitions cache
  WS_WEBHOOK_SECRET the signing secret for ws webhooks sign and check-signature
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY
                    send requests through a proxy (NO_PROXY: hosts to reach directly)
  NO_COLOR=1        no colour (as --no-color); FORCE_COLOR=1 colour even when piped,
                    FORCE_COLOR=0 none
`,
  },
  formatting: {
    summary: 'output formats, --fields and what goes where',
    text: `Output formats

  stdout is data; progress, warnings, prompts and errors go to stderr.

  --format table   aligned columns for people (the default on a terminal), fitted to
                   the terminal's width: the widest columns are cut first (with …), and
                   columns that still cannot fit are left out, named on stderr; the
                   name comes first and ids last, whole or left out
  --wide           tables at full width: every column, no cell cut (rows may wrap)
  --format tsv     one row per line, no header, tabs between fields (the default when
                   piped); one object is key<TAB>value lines
  --format csv     a header row of field names, then RFC 4180 rows
  --format json    one JSON document (--json is the same)
  --format ndjson  one JSON object per line
  --fields a,b     picks and orders the columns (and the keys of JSON objects); an
                   unknown field is a usage error that lists the available ones
  --jq EXPR        the JSON output through jq (jq 1.8 itself): strings printed as
                   text, other values as JSON. An expression that starts with .[]
                   runs on each page of a list as it arrives (--all is never held
                   whole); others wait for the whole list. With --format ndjson it
                   runs on each row.
  --template T     the JSON output through a Liquid template (T, or @FILE), rendered
                   once per row of a list (once for one object) with the row's fields
                   as variables: {{ id }}, {{ properties.name }}; {{ value }} for an
                   item that is not an object. Helpers:
                     {% tablerow a, b, (c | truncate: 9) %}  a row of an aligned table
                     {% tablerender %}   the rows so far (else printed at the end)
                     timeago             "3 minutes ago", "in 2 days"
                     truncate: N         at most N terminal columns, … where cut
                     color: "bold red"   chalk's styles, where colour is on
                     join: ", "          an array's items joined
                     hyperlink: "text"   a link on a terminal, "text (URL)" piped
                   {% render 'name' %} reads name.liquid beside the @FILE.

  In tsv and csv, arrays are joined with ";"; in tsv, tabs, newlines and backslashes in
  a value are written \\t, \\n and \\\\. With --json, an error is one JSON object on
  stderr: {"error":{"status","code","message","request_id","errors"}}.

  A --jq expression or --template that is not valid, or fails on the output, is a
  usage error (exit 2) quoting jq or Liquid. Both work on JSON only (not with
  --format table, csv or tsv).
`,
  },
  'exit-codes': {
    summary: 'what each exit code means',
    text: `Exit codes

  0    success
  1    other error: API 5xx, network failure, an unexpected error, a cancelled
       confirmation; ws props diff and ws automations diff: something differs
  2    usage: bad flags, arguments or input, found before sending or answered 400/422
  3    authentication: no credentials, or the API answered 401/403
  4    not found: the API answered 404, or the named profile or sandbox does not exist
  5    partial failure: some items of a bulk operation or import failed
  6    conflict: the API answered 409 or 412, or a local resource is taken (a port, a
       running sandbox)
  7    timed out waiting for a job
  130  interrupted (Ctrl-C, SIGTERM)
`,
  },
  filters: {
    summary: 'the --where language',
    text: `Filters: --where

  Each --where expression is one entry of the API's filter array; entries combine with
  AND, or with OR given --or. Quote each expression in a shell: --where 'amount>=1000'.

  name=Acme   name!=Acme   amount<10   amount>10   amount<=10   amount>=1000
  name~acme (contains)   name!~acme (not_contains)   name^=Ac (begins_with)
  email$=@acme.com (ends_with)   created_at:between=2026-01-01,2026-06-30
  stage:in=won,lost   stage:not_in=won,lost
  phone:is_null   phone:is_not_null   phone:exists   phone:not_exists

  Every operator has a long form SLUG:NAME=VALUE (eq, ne, lt, gt, lte, gte, contains,
  not_contains, begins_with, ends_with, between, in, not_in, is_null, is_not_null,
  exists, not_exists). A slug may be a dot-path through a reference:
  organization.name^=Ac. A value in double quotes is taken as written (name=" padded ",
  title="true"); in lists, write a comma inside a value as \\, or quote it. Values of
  number and date properties must be numbers and dates; select values may be option
  slugs, ids or display names. --filter-json takes the API's array as it is; --sort
  -amount,name sorts (the first first).
`,
  },
} as const;

export type Topic = keyof typeof TOPICS;

export function isTopic(word: string): word is Topic {
  return Object.hasOwn(TOPICS, word);
}
