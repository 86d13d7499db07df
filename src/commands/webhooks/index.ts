// `ws webhooks …`: the flags of each verb, read into its options.
import { type Command, type CommandContext, Option, settleVerbs } from '../../command.ts';
import { UsageError } from '../../errors.ts';
import { collect, type Flags } from '../common/flags.ts';
import { nounOf } from '../common/verb-spec.ts';

const verbs = () => import('./verbs.ts');

const WEBHOOK_ARG = 'WEBHOOK is a webhook id, or its name (looked up with the listing).';
const SECRET_HELP =
  'The secret (whsec_…) comes from --secret-file F (the file `ws webhooks create --secret-file F` wrote)\nor the WS_WEBHOOK_SECRET environment variable.';

/** --wait / --no-wait: whether to wait for the handshake (default: on a terminal). */
function waitFlags(cmd: Command, what: string): Command {
  return cmd
    .option('--wait', `wait for ${what} (the default on a terminal)`)
    .option('--no-wait', `do not wait for ${what}`);
}

/** --events a,b: event names, each a name or a prefix ending in *. */
export function eventList(f: Flags): string[] {
  const given = f.list('--events').flatMap((v) => v.split(','));
  const events = given.map((e) => e.trim()).filter((e) => e !== '');
  for (const e of events) {
    if (!/^[A-Za-z0-9_.:-]*\*?$/.test(e) || e === '') {
      throw new UsageError(
        `--events: "${e}" is not an event name.`,
        'Give names such as webhook.test, or a prefix ending in *, e.g. --events "record.*".',
      );
    }
  }
  return events;
}

/** A whole number of seconds, 1 to 3600. */
function seconds(f: Flags, flag: string): number | undefined {
  return f.integer(flag, 1, 3600);
}

export function register(program: Command, ctx: CommandContext): void {
  const { noun: webhooks, define } = nounOf(program, ctx, verbs, ['webhooks', 'webhook'], {
    description: 'Webhook endpoints: register, verify and test receivers, listen locally',
    examples: [
      'ws webhooks create --name orders --url https://hooks.example.com/ws --secret-file whsec.txt',
      'ws webhooks listen --forward-to http://localhost:3000/hooks --secret-file .whsec',
      'ws webhooks doctor http://localhost:3000/hooks --secret-file whsec.txt',
    ],
  });

  define(['list', 'ls'], {
    description: 'List the webhooks of the team',
    help: '\nColumns: id, name, url, enabled, verified; --fields adds verified_at, description,\nverification_token, created_at, updated_at.',
    examples: ['ws webhooks list', 'ws webhooks list --fields id,name,verified_at --json'],
    run: 'listVerb',
  });

  define(['get <webhook>'], {
    description: 'Show a webhook',
    help: `\n${WEBHOOK_ARG}`,
    examples: ['ws webhooks get orders', 'ws webhooks get orders --json'],
    run: 'getVerb',
    options: ([webhook]) => ({ webhook }),
  });

  define(['create'], {
    description: 'Register a receiver; its signing secret is shown this once',
    flags: (cmd) =>
      waitFlags(
        cmd
          .option('--name <name>', 'name of the webhook, 1 to 255 characters (asked on a terminal)')
          .option(
            '--url <url>',
            'where events are sent: an absolute http(s) URL (asked on a terminal)',
          )
          .option('--description <text>', 'what it is for, up to 1000 characters')
          .option('--disabled', 'create it disabled: no event is delivered until it is enabled')
          .option(
            '--secret-file <file>',
            'write the signing secret to FILE (mode 0600) instead of printing it',
          ),
        'the handshake',
      ),
    help: `
The service answers with the webhook's signing secret (whsec_…) once, never again: on a
terminal it is printed with a warning; --secret-file F writes it to F, readable by you
only, and leaves it out of the output; --json carries it (as "secret") for scripts.
The service then runs the handshake with the URL; on a terminal ws waits for it.`,
    examples: [
      'ws webhooks create --name orders --url https://hooks.example.com/ws --secret-file whsec.txt',
      'ws webhooks create --name local --url http://127.0.0.1:3000/hooks --json | jq -r .secret',
    ],
    run: 'createVerb',
    options: (_, f) => ({
      name: f.string('--name'),
      url: f.string('--url'),
      description: f.string('--description'),
      disabled: f.boolean('--disabled'),
      secretFile: f.string('--secret-file'),
      wait: f.toggle('--wait'),
    }),
  });

  define(['update <webhook>'], {
    description: 'Change a webhook; a new --url runs the handshake again',
    flags: (cmd) =>
      waitFlags(
        cmd
          .option('--name <name>', 'new name')
          .option('--url <url>', 'new URL (the webhook is unverified until its handshake passes)')
          .option('--description <text>', 'new description')
          .option('--enable', 'deliver events to it')
          .option('--disable', 'deliver no event to it'),
        'the handshake of a new URL',
      ),
    help: `\n${WEBHOOK_ARG}`,
    examples: [
      'ws webhooks update orders --url https://hooks.example.com/v2 --description "v2 receiver"',
    ],
    run: 'updateVerb',
    options: ([webhook], f) => ({
      webhook,
      name: f.string('--name'),
      url: f.string('--url'),
      description: f.string('--description'),
      enabled: f.enabled(),
      wait: f.toggle('--wait'),
    }),
  });

  define(['delete <webhook>', 'rm'], {
    description: 'Delete a webhook and its delivery log (asks first; --yes to skip)',
    help: `\n${WEBHOOK_ARG}`,
    examples: [
      'ws webhooks delete orders',
      'ws webhooks delete 9b2f0c3e-1a4d-4c8e-9f00-5d1e2a3b4c5d --yes',
    ],
    run: 'deleteVerb',
    options: ([webhook]) => ({ webhook }),
  });

  for (const [name, description] of [
    ['enable', 'Deliver events to a webhook again'],
    ['disable', 'Stop delivering events to a webhook (it keeps its secret and log)'],
  ] as const) {
    define([`${name} <webhook>`], {
      description,
      help: `\n${WEBHOOK_ARG}`,
      examples: [`ws webhooks ${name} orders`],
      run: `${name}Verb`,
      options: ([webhook]) => ({ webhook }),
    });
  }

  define(['verify <webhook>'], {
    description: 'Run the handshake again; on a terminal, wait for its outcome',
    flags: (cmd) => waitFlags(cmd, 'the outcome'),
    help: `\n${WEBHOOK_ARG}\nWaiting, the exit code is 0 when the receiver echoed the challenge, 1 when it did not,\n7 when no outcome came within 30 s.`,
    examples: ['ws webhooks verify orders --wait'],
    run: 'verifyVerb',
    options: ([webhook], f) => ({ webhook, wait: f.toggle('--wait') }),
  });

  define(['ping <webhook>'], {
    description: 'Send a webhook.test event; --wait reports its delivery',
    flags: (cmd) =>
      cmd.option(
        '--wait',
        "wait for the delivery's first attempt and report it (exit 1 if it failed)",
      ),
    help: `\n${WEBHOOK_ARG}\nOnly an enabled, verified webhook gets the event; for another, ws says which it is\nnot (exit 1).`,
    examples: ['ws webhooks ping orders --wait'],
    run: 'pingVerb',
    options: ([webhook], f) => ({ webhook, wait: f.boolean('--wait') }),
  });

  define(['listen'], {
    description: 'Receive deliveries on this machine: check, print and forward them',
    flags: (cmd) =>
      cmd
        .option(
          '--forward-to <url>',
          'send each delivery (raw body and headers) to your handler at URL',
        )
        .option(
          '--events <names>',
          'only these events, comma-separated; a trailing * matches a prefix',
          collect,
        )
        .option(
          '--secret-file <file>',
          "write the webhook's signing secret to FILE (0600) for your handler; with --webhook, read it from FILE",
        )
        .option('--print-secret', 'print the signing secret when ready (for scripts and CI)')
        .option('--port <n>', 'the local port (default: a free one)')
        .option(
          '--public-url <url>',
          'register this public URL (a tunnel you run to --port) instead of 127.0.0.1',
        )
        .option(
          '--webhook <webhook>',
          'listen for this existing webhook instead of registering one',
        )
        .option(
          '--forward-timeout <seconds>',
          'how long your handler may take to answer (default 10)',
        ),
    help: `
Against a sandbox, listen registers a webhook named ws-listen-<host>-<pid> to
http://127.0.0.1:PORT/ and removes it when it stops (Ctrl-C or SIGTERM; exit 130); one
left by a run that was killed is removed by the next listen. A hosted service delivers
only to public addresses: pass --public-url (a tunnel to --port), or --webhook with an
existing webhook and its --secret-file.

listen answers the handshake itself, checks each delivery's signature (a bad one is
answered 400 and not forwarded), and answers the service with your handler's status and
body, so its retries and delivery log show what your handler did (502 when it could not be
reached). One line per event on stdout; with --format ndjson the first line is
{"type":"ready",…} and the last {"type":"stopped",…}. ${SECRET_HELP.split('\n')[0]}`,
    examples: [
      'ws webhooks listen --forward-to http://localhost:3000/hooks --secret-file .whsec',
      'ws webhooks listen --format ndjson --print-secret > events.ndjson &',
      'ws webhooks listen --public-url https://abc.tunnel.example --port 4900',
    ],
    run: 'listenVerb',
    options: (_, f) => {
      f.exclusive(
        '--public-url',
        '--webhook',
        'Either register the public URL, or use an existing webhook.',
      );
      return {
        forwardTo: f.string('--forward-to'),
        events: eventList(f),
        secretFile: f.string('--secret-file'),
        printSecret: f.boolean('--print-secret'),
        port: f.integer('--port', 0, 65535),
        publicUrl: f.string('--public-url'),
        webhook: f.string('--webhook'),
        forwardTimeout: seconds(f, '--forward-timeout'),
      };
    },
  });

  define(['sign'], {
    description:
      'Sign a body as the service would: an X-Service-Signature to test a receiver by hand',
    flags: (cmd) =>
      cmd
        .option('--secret-file <file>', 'the webhook secret (or WS_WEBHOOK_SECRET)')
        .option('--body <body>', 'the exact body: text, @FILE, or - for stdin')
        .option('--timestamp <t>', 'the signing time in unix seconds (default: now)')
        .option('--event <name>', 'the X-Service-Event header (default: the body\'s "event")')
        .option(
          '--webhook-id <id>',
          'the X-Service-Webhook-Id header (default: the body\'s "webhook_id")',
        )
        .option('--curl <url>', 'print a curl command that sends the signed delivery to URL'),
    help: `
Prints the X-Service-Signature value (t=…,v1=…) for --body. With --json: the signature,
every delivery header and the body; with --curl URL: a command that sends it. Without
--body (with --json or --curl) the body is a new webhook.test delivery.
${SECRET_HELP}`,
    examples: [
      'ws webhooks sign --secret-file whsec.txt --body @delivery.json',
      'ws webhooks sign --secret-file whsec.txt --curl http://localhost:3000/hooks | sh',
    ],
    run: 'signVerb',
    options: (_, f) => ({
      secretFile: f.string('--secret-file'),
      body: f.string('--body'),
      timestamp: f.integer('--timestamp', 0),
      event: f.string('--event'),
      webhookId: f.string('--webhook-id'),
      curl: f.string('--curl'),
    }),
  });

  define(['check-signature'], {
    description: 'Check an X-Service-Signature against a body and secret (exit 0 valid, 1 not)',
    flags: (cmd) =>
      cmd
        .addOption(
          new Option(
            '--signature <value>',
            'the X-Service-Signature value as received',
          ).makeOptionMandatory(),
        )
        .addOption(
          new Option(
            '--body <body>',
            'the body as received: text, @FILE, or - for stdin',
          ).makeOptionMandatory(),
        )
        .option('--secret-file <file>', 'the webhook secret (or WS_WEBHOOK_SECRET)')
        .option('--tolerance <seconds>', 'how far the timestamp may be from now (default 300)')
        .option(
          '--webhook <webhook>',
          'the webhook the secret belongs to, to tell a delivery of another',
        )
        .option('--webhook-id <id>', 'the X-Service-Webhook-Id header as received'),
    help: `
A failed check says the likely cause: the body re-serialised (parsed and written again),
the API key or the verification token used instead of the secret, a timestamp outside the
tolerance, or the header of another webhook. --json prints {valid, reason, likely_causes}.
${SECRET_HELP}`,
    examples: [
      'ws webhooks check-signature --secret-file whsec.txt --body @body.json --signature "t=1767225600,v1=5f0c…"',
    ],
    run: 'checkSignatureVerb',
    options: (_, f) => ({
      secretFile: f.string('--secret-file'),
      signature: f.string('--signature') ?? '',
      body: f.string('--body') ?? '',
      toleranceS: f.integer('--tolerance', 1),
      webhook: f.string('--webhook'),
      webhookId: f.string('--webhook-id'),
    }),
  });

  define(['doctor <url>'], {
    description: 'Test your receiver as a good sender would: one verdict line per check',
    flags: (cmd) =>
      cmd
        .option(
          '--secret-file <file>',
          'the secret your receiver checks with (or WS_WEBHOOK_SECRET)',
        )
        .option('--webhook <webhook>', "send this webhook's id and verification token")
        .option(
          '--max-time <seconds>',
          'how long the receiver may take to answer each request (default 10)',
        ),
    help: `
The checks, in order: the handshake (200 with the challenge), a correctly signed delivery
(acknowledged with a 2xx in time), then deliveries it must refuse (any non-2xx): a tampered
body, a wrong secret, a timestamp 600 s old, one 600 s ahead, no signature; last, the first
delivery again with the same id (a retry: acknowledged). Exit 0 only when all pass.
${SECRET_HELP}`,
    examples: ['ws webhooks doctor http://localhost:3000/hooks --secret-file whsec.txt'],
    run: 'doctorVerb',
    options: ([url], f) => ({
      url,
      secretFile: f.string('--secret-file'),
      webhook: f.string('--webhook'),
      maxTime: seconds(f, '--max-time'),
    }),
  });
  settleVerbs(webhooks);
}
