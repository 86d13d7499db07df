// ws sandbox clone PROFILE --to FILE: a sandbox snapshot cloned from a real workspace
// (src/clone/clone.ts does the work). The summary goes to stderr; --json prints it on stdout.
import type { CloneOptions } from '../../clone/clone.ts';
import type { Deps } from '../../factory.ts';
import { plural, thousands } from '../../output/plural.ts';
import { printSummary } from '../../output/summary.ts';

export type { CloneOptions };

export async function run(opts: CloneOptions, deps: Deps): Promise<void> {
  const { cloneWorkspace } = await import('../../clone/clone.ts');
  const s = await cloneWorkspace(opts, deps);
  if (deps.format === 'json') {
    deps.io.println(JSON.stringify(s, null, 2));
    return;
  }
  const records = Object.values(s.copied.records).reduce((n, c) => n + (c ?? 0), 0);
  const byType = Object.entries(s.copied.records)
    .map(([type, n]) => `${type} ${thousands(n ?? 0)}`)
    .join(', ');
  const c = s.copied;
  const referenced = Object.values(c.referenced).reduce((n, k) => n + (k ?? 0), 0);
  const notes = [
    `Automations are ${opts.enableAutomations ? 'enabled as in the workspace' : 'disabled'}; webhooks are disabled, their URLs kept in their descriptions.`,
  ];
  if (s.scrub_counts) {
    const k = s.scrub_counts;
    notes.push(
      `Scrubbed: ${plural(k.email, 'email')}, ${plural(k.phone, 'phone number')}, ${plural(k.name, 'name')}.`,
    );
  }
  notes.push(`Start it with: ws sandbox start --import ${opts.to}`);
  printSummary(deps.io, {
    ok: s.left_out.length === 0,
    headline: `Cloned ${s.profile} into ${opts.to} in ${s.seconds} s${s.resumed ? ' (continued from its checkpoint)' : ''}.`,
    counts: [
      { label: 'properties', value: c.definitions, note: `with ${plural(c.options, 'option')}` },
      {
        label: 'views',
        value: c.views,
        note: c.pins > 0 ? `${plural(c.pins, 'pinned record')}` : undefined,
      },
      { label: 'automations', value: c.automations },
      { label: 'webhooks', value: c.webhooks },
      {
        label: 'records',
        value: records,
        note: `${byType}; ${thousands(referenced)} because the sample refers to them (at most ${thousands(s.sample)} a type)`,
      },
      {
        label: 'requests',
        value: s.requests.spent,
        note: `the least this listing needs: ${thousands(s.requests.least)}`,
      },
    ],
    notes,
    list:
      s.left_out.length > 0
        ? {
            title: 'Left out',
            items: s.left_out.map((l) => ({ text: `${thousands(l.count)} ${l.what}`, tag: l.why })),
            more: 0,
          }
        : undefined,
  });
}
