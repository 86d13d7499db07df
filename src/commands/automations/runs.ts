// `ws automations runs [TYPE [AUTOMATION]]`: the runs a ws sandbox recorded (its control
// endpoint /__sandbox/automation_runs), newest last; one row per run, or per step with
// --steps. Elsewhere the listing is not offered, and the error says so (exit 1).
import {
  type AutomationRun,
  type AutomationRunStep,
  listRuns,
  MAX_RUN_PAGE,
  type RunStatus,
} from '../../api/automations.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { renderRows } from '../../output/render.ts';
import type { PageOptions } from '../common/list-flags.ts';
import { automationType, resolveAutomation } from './shared.ts';

export interface RunsOptions extends PageOptions {
  type: string | undefined;
  automation: string | undefined;
  record: string | undefined;
  status: RunStatus | undefined;
  steps: boolean;
}

/** A step in a word: `webhook done`, `wait until 2025-01-02T00:00:00Z`. */
export function stepText(s: AutomationRunStep): string {
  if (s.status === 'waiting' && s.until) return `${s.type} until ${s.until}`;
  return `${s.type} ${s.status}${s.error ? ` (${s.error.code})` : ''}`;
}

const RUN_COLUMNS: Column<AutomationRun>[] = [
  { key: 'id' },
  { key: 'automation_name', header: 'AUTOMATION' },
  { key: 'object_type', default: false },
  { key: 'automation_id', default: false },
  { key: 'record_id', header: 'RECORD' },
  { key: 'event', get: (r) => r.trigger.event },
  { key: 'status' },
  { key: 'steps', get: (r) => r.steps.map(stepText), text: (v) => (v as string[]).join(', ') },
  { key: 'changes', default: false, get: (r) => r.trigger.changes },
  { key: 'started_at' },
  { key: 'finished_at', default: false },
  { key: 'resume_at', default: false },
];

type StepRow = AutomationRunStep & { run_id: string; automation_name: string; record_id: string };

const STEP_COLUMNS: Column<StepRow>[] = [
  { key: 'run_id', header: 'RUN' },
  { key: 'automation_name', header: 'AUTOMATION' },
  { key: 'record_id', header: 'RECORD' },
  { key: 'index', header: '#', align: 'right' },
  { key: 'type' },
  { key: 'status' },
  {
    key: 'detail',
    get: (s) => {
      const {
        index,
        type,
        status,
        started_at,
        finished_at,
        run_id,
        automation_name,
        record_id,
        ...rest
      } = s;
      return Object.keys(rest).length > 0 ? rest : null;
    },
  },
  { key: 'started_at' },
  { key: 'finished_at' },
];

export async function run(opts: RunsOptions, deps: Deps): Promise<void> {
  const client = await deps.client();
  const type = opts.type === undefined ? undefined : automationType(opts.type);
  const automationId =
    type !== undefined && opts.automation !== undefined
      ? (await resolveAutomation(deps, client, type, opts.automation)).id
      : undefined;
  const runs: AutomationRun[] = [];
  let after: number | undefined;
  for (;;) {
    const page = await listRuns(client, {
      objectType: type,
      automationId,
      recordId: opts.record,
      status: opts.status,
      after,
      limit: MAX_RUN_PAGE,
      signal: deps.signal,
    });
    runs.push(...page.data);
    if (!page.has_more || page.data.length === 0) break;
    after = page.next_after;
  }
  const shown = opts.all ? runs : runs.slice(-(opts.limit ?? 50));
  if (runs.length > shown.length)
    deps.io.info(`The latest ${shown.length} of ${runs.length} runs (--all shows every one).`);
  const empty = `No runs${opts.automation ? ` of ${opts.automation}` : type ? ` of ${type} automations` : ''}${opts.record ? ` on record ${opts.record}` : ''}${opts.status ? ` ${opts.status}` : ''}.`;
  if (opts.steps) {
    const rows: StepRow[] = shown.flatMap((r) =>
      r.steps.map((s) => ({
        ...s,
        run_id: r.id,
        automation_name: r.automation_name,
        record_id: r.record_id,
      })),
    );
    await renderRows(deps.io, rows, STEP_COLUMNS, {
      format: deps.format,
      fields: deps.fields,
      emptyMessage: empty,
    });
    return;
  }
  await renderRows(deps.io, shown, RUN_COLUMNS, {
    format: deps.format,
    fields: deps.fields,
    emptyMessage: empty,
  });
}
