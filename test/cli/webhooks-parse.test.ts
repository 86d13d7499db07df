// ws webhooks and ws deliveries: argv in, the options object a verb gets out (the verb
// itself does not run), and the usage errors (exit 2) found before anything is sent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertUsageErrors, options } from '../helpers/parse.ts';

describe('ws webhooks: parsing', () => {
  it('create: every flag, and --no-wait', async () => {
    assert.deepEqual(
      await options([
        'webhooks',
        'create',
        '--name',
        'orders',
        '--url',
        'https://hooks.example.com/ws',
        '--description',
        'orders to the ERP',
        '--disabled',
        '--secret-file',
        's.txt',
        '--no-wait',
      ]),
      {
        name: 'orders',
        url: 'https://hooks.example.com/ws',
        description: 'orders to the ERP',
        disabled: true,
        secretFile: 's.txt',
        wait: false,
      },
    );
    assert.deepEqual(await options(['webhook', 'create']), {
      name: undefined,
      url: undefined,
      description: undefined,
      disabled: false,
      secretFile: undefined,
      wait: undefined,
    });
  });

  it('update, enable, disable, delete, get, verify, ping', async () => {
    assert.deepEqual(
      await options(['webhooks', 'update', 'orders', '--url', 'https://x.example/h', '--disable']),
      {
        webhook: 'orders',
        name: undefined,
        url: 'https://x.example/h',
        description: undefined,
        enabled: false,
        wait: undefined,
      },
    );
    assert.equal(
      ((await options(['webhooks', 'update', 'orders', '--enable'])) as { enabled: boolean })
        .enabled,
      true,
    );
    assert.deepEqual(await options(['webhooks', 'enable', 'w']), { webhook: 'w' });
    assert.deepEqual(await options(['webhooks', 'disable', 'w']), { webhook: 'w' });
    assert.deepEqual(await options(['webhooks', 'rm', 'w']), { webhook: 'w' });
    assert.deepEqual(await options(['webhooks', 'get', 'w']), { webhook: 'w' });
    assert.deepEqual(await options(['webhooks', 'verify', 'w', '--wait']), {
      webhook: 'w',
      wait: true,
    });
    assert.deepEqual(await options(['webhooks', 'ping', 'w', '--wait']), {
      webhook: 'w',
      wait: true,
    });
  });

  it('listen: every flag; --events split on commas and repeatable', async () => {
    assert.deepEqual(
      await options([
        'webhooks',
        'listen',
        '--forward-to',
        'http://localhost:3000/hooks',
        '--events',
        'webhook.test,record.*',
        '--events',
        'deal.updated',
        '--secret-file',
        '.whsec',
        '--print-secret',
        '--port',
        '4900',
        '--public-url',
        'https://abc.tunnel.example',
        '--forward-timeout',
        '5',
      ]),
      {
        forwardTo: 'http://localhost:3000/hooks',
        events: ['webhook.test', 'record.*', 'deal.updated'],
        secretFile: '.whsec',
        printSecret: true,
        port: 4900,
        publicUrl: 'https://abc.tunnel.example',
        webhook: undefined,
        forwardTimeout: 5,
      },
    );
  });

  it('sign, check-signature and doctor', async () => {
    assert.deepEqual(
      await options([
        'webhooks',
        'sign',
        '--secret-file',
        's',
        '--body',
        '{}',
        '--timestamp',
        '1700000000',
        '--event',
        'e',
        '--webhook-id',
        'w',
        '--curl',
        'http://localhost:3000/',
      ]),
      {
        secretFile: 's',
        body: '{}',
        timestamp: 1700000000,
        event: 'e',
        webhookId: 'w',
        curl: 'http://localhost:3000/',
      },
    );
    assert.deepEqual(
      await options([
        'webhooks',
        'check-signature',
        '--signature',
        't=1,v1=ab',
        '--body',
        '@b.json',
        '--tolerance',
        '60',
        '--webhook',
        'orders',
        '--webhook-id',
        'x',
      ]),
      {
        secretFile: undefined,
        signature: 't=1,v1=ab',
        body: '@b.json',
        toleranceS: 60,
        webhook: 'orders',
        webhookId: 'x',
      },
    );
    assert.deepEqual(
      await options(['webhooks', 'doctor', 'http://localhost:3000/h', '--max-time', '3']),
      { url: 'http://localhost:3000/h', secretFile: undefined, webhook: undefined, maxTime: 3 },
    );
  });

  it('bad flags are usage errors that name the flag', async () => {
    await assertUsageErrors([
      [['webhooks', 'update', 'w', '--enable', '--disable'], /--enable and --disable/],
      [['webhooks', 'listen', '--port', '70000'], /--port takes a whole number from 0 to 65535/],
      [['webhooks', 'listen', '--events', 'a b'], /--events: "a b" is not an event name/],
      [
        ['webhooks', 'listen', '--public-url', 'https://x.example', '--webhook', 'w'],
        /--public-url and --webhook cannot be used together/,
      ],
      [['webhooks', 'listen', '--forward-timeout', '0'], /--forward-timeout takes a whole number/],
      [['webhooks', 'check-signature', '--body', '{}'], /--signature/],
      [['webhooks', 'check-signature', '--signature', 'x'], /--body/],
      [['webhooks', 'sign', '--timestamp', 'soon'], /--timestamp takes a whole number/],
      [['webhooks', 'doctor'], /Missing URL: `ws webhooks doctor` needs its url argument/],
      [['webhooks', 'get'], /Missing WEBHOOK: `ws webhooks get` needs its webhook argument/],
    ]);
  });
});

describe('ws deliveries: parsing', () => {
  it('list: filters, --since, --limit', async () => {
    assert.deepEqual(
      await options([
        'deliveries',
        'list',
        '--webhook',
        'orders',
        '--status',
        'failed',
        '--type',
        'delivery',
        '--since',
        '1h',
        '--before',
        '2026-03-31T09:30:00Z',
        '--limit',
        '20',
      ]),
      {
        webhook: 'orders',
        status: 'failed',
        type: 'delivery',
        since: { ago: 3_600_000 },
        after: undefined,
        before: { at: new Date('2026-03-31T09:30:00Z') },
        limit: 20,
        all: false,
      },
    );
    const all = (await options(['deliveries', 'ls', '--all', '--after', '2026-01-01'])) as {
      all: boolean;
      after: unknown;
    };
    assert.equal(all.all, true);
    assert.deepEqual(all.after, { at: new Date('2026-01-01T00:00:00Z') });
  });

  it('get, tail, replay', async () => {
    assert.deepEqual(await options(['deliveries', 'get', 'd1', '--webhook', 'w']), {
      delivery: 'd1',
      webhook: 'w',
    });
    assert.deepEqual(
      await options(['deliveries', 'tail', '--status', 'failed', '--interval', '1']),
      {
        webhook: undefined,
        status: 'failed',
        type: undefined,
        interval: 1,
      },
    );
    assert.deepEqual(
      await options([
        'deliveries',
        'replay',
        '--status',
        'failed',
        '--since',
        '1h',
        '--to',
        'http://localhost:3000/h',
        '--secret-file',
        's',
        '--dry-run',
        '--skip-truncated',
      ]),
      {
        webhook: undefined,
        status: 'failed',
        type: undefined,
        since: { ago: 3_600_000 },
        after: undefined,
        before: undefined,
        ids: [],
        to: 'http://localhost:3000/h',
        secretFile: 's',
        dryRun: true,
        skipTruncated: true,
        maxTime: undefined,
      },
    );
    const byId = (await options([
      'deliveries',
      'replay',
      'a',
      'b',
      '--to',
      'http://x.example/',
    ])) as {
      ids: string[];
    };
    assert.deepEqual(byId.ids, ['a', 'b']);
  });

  it('bad flags are usage errors that name the flag', async () => {
    await assertUsageErrors([
      [['deliveries', 'list', '--status', 'ok'], /--status.*success, failed\./],
      [
        ['deliveries', 'list', '--since', 'yesterday'],
        /--since takes a duration or an ISO-8601 time/,
      ],
      [['deliveries', 'list', '--since', '1h', '--after', '2026-01-01'], /--since and --after/],
      [['deliveries', 'list', '--limit', '0'], /--limit takes a whole number/],
      [['deliveries', 'list', '--limit', '5', '--all'], /--all and --limit/],
      [['deliveries', 'replay', '--status', 'failed'], /--to/],
      [['deliveries', 'replay', '--to', 'http://x.example/'], /Name the deliveries to replay/],
      [
        ['deliveries', 'replay', 'a', '--status', 'failed', '--to', 'http://x.example/'],
        /ids or filters/,
      ],
      [
        ['deliveries', 'replay', 'a', '--type', 'all', '--to', 'http://x.example/'],
        /Unknown option '--type'/,
      ],
      [['deliveries', 'tail', '--interval', '0'], /--interval takes a whole number/],
    ]);
  });
});
