// Reporting the results of a bulk run: every result as NDJSON in a file (`--report`), and
// the failed items as a short table for people on stderr.
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { UsageError } from '../errors.ts';
import { routesInWsWords } from '../route-commands.ts';
import type { ItemResult } from './chunks.ts';

/** One NDJSON line of a report: the item's position, id, status and error. */
export function reportLine(r: ItemResult): string {
  return `${JSON.stringify({
    index: r.index,
    id: r.id,
    status: r.status,
    ...(r.error ? { error: { code: r.error.code, message: r.error.message } } : {}),
  })}\n`;
}

/** Write every result to `path` as NDJSON (created or replaced). */
export async function writeReport(path: string, results: readonly ItemResult[]): Promise<void> {
  let file: FileHandle;
  try {
    file = await fs.open(path, 'w', 0o600);
  } catch (e) {
    throw new UsageError(`Cannot write the report to ${path}: ${(e as Error).message}.`);
  }
  try {
    const batch = 500;
    for (let i = 0; i < results.length; i += batch) {
      await file.write(
        results
          .slice(i, i + batch)
          .map(reportLine)
          .join(''),
      );
    }
  } finally {
    await file.close();
  }
}

/** Check early that a report can be written there, so a long run does not end in vain. */
export async function checkReportPath(path: string): Promise<void> {
  let file: FileHandle;
  try {
    file = await fs.open(path, 'a', 0o600);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOENT' ? 'its directory does not exist' : err.message;
    throw new UsageError(`Cannot write the report to ${path}: ${why}.`);
  }
  await file.close();
}

export const MAX_FAILURES_SHOWN = 20;

/**
 * The failed items as aligned lines (ID, CODE, MESSAGE), at most `max` of them, then a
 * line saying how many more there are and where to find them.
 */
export function failureLines(
  results: readonly ItemResult[],
  opts: { max?: number; reportPath?: string | undefined; bold?: (s: string) => string } = {},
): string[] {
  const max = opts.max ?? MAX_FAILURES_SHOWN;
  const failed = results.filter((r) => r.status === 'error');
  if (failed.length === 0) return [];
  const shown = failed.slice(0, max);
  const rows = shown.map((r) => [
    r.id ?? `(item ${r.index + 1})`,
    r.error?.code ?? 'error',
    routesInWsWords(r.error?.message ?? '').replace(/\s*\n\s*/g, ' '),
  ]);
  const head = ['ID', 'CODE', 'MESSAGE'];
  const w0 = Math.max(head[0]!.length, ...rows.map((r) => r[0]!.length));
  const w1 = Math.max(head[1]!.length, ...rows.map((r) => r[1]!.length));
  const bold = opts.bold ?? ((s: string) => s);
  const line = (r: string[]) => `  ${r[0]!.padEnd(w0)}  ${r[1]!.padEnd(w1)}  ${r[2]}`.trimEnd();
  const out = [bold(line(head)), ...rows.map(line)];
  const more = failed.length - shown.length;
  if (more > 0) {
    out.push(
      opts.reportPath
        ? `  … and ${more} more, see ${opts.reportPath}`
        : `  … and ${more} more, see --report FILE for every result`,
    );
  }
  return out;
}
