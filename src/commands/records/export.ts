// ws records export TYPE [--where …] [--select …] --format csv|ndjson|json [--output FILE]:
// every record, page by page, in a file `ws import` reads back. CSV: a header of `id` and
// property slugs; select values as option slugs; multi-valued cells joined with ";";
// references as record ids; dates as ISO-8601; cells a spreadsheet would run as a formula
// start with ' unless --raw. JSON and NDJSON: flat objects { id, slug: value }.
import { createWriteStream, promises as fs, type WriteStream } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { IOStreams } from '../../io/streams.ts';
import type { Format } from '../../output/format.ts';
import { thousands } from '../../output/plural.ts';
import { createRowWriter } from '../../output/render.ts';
import { recordType } from '../common/record-args.ts';
import { planRead, type ReadFlags, readPages, selectedSlugs } from './read.ts';
import { plural, type Row, rowColumns } from './shared.ts';

export interface ExportOptions extends ReadFlags {
  type: string;
  output?: string | undefined;
  raw: boolean;
}

type ExportFormat = 'csv' | 'ndjson' | 'json';
const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'ndjson', 'json'];

/** --format (or --json) when given, else the --output extension, else CSV. */
export function exportFormat(deps: Deps, output: string | undefined): ExportFormat {
  const chosen: Format | undefined = deps.flags.json
    ? 'json'
    : (deps.flags.format as Format | undefined);
  if (chosen !== undefined) {
    if (!(EXPORT_FORMATS as readonly string[]).includes(chosen)) {
      throw new UsageError(
        `export writes csv, ndjson or json, not ${chosen}.`,
        'Pass --format csv, --format ndjson or --format json.',
      );
    }
    return chosen as ExportFormat;
  }
  const ext = output?.toLowerCase().match(/\.([a-z]+)$/)?.[1];
  if (ext === 'ndjson' || ext === 'jsonl') return 'ndjson';
  if (ext === 'json') return 'json';
  return 'csv';
}

/** A file written beside its destination and renamed into place only when complete. */
interface PendingFile {
  io: IOStreams;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

function pendingFile(path: string, deps: Deps): PendingFile {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
  const stream: WriteStream = createWriteStream(tmp, { mode: 0o600 });
  let failure: Error | undefined;
  stream.on('error', (e) => {
    failure = e;
    // Let a writer waiting for 'drain' go on and see the failure.
    stream.emit('drain');
  });
  const check = () => {
    if (failure) {
      const code = (failure as NodeJS.ErrnoException).code;
      throw new UsageError(
        `Cannot write ${path}: ${code === 'ENOENT' ? 'its directory does not exist' : failure.message}.`,
      );
    }
  };
  const io = new IOStreams({
    stdout: stream,
    stderr: deps.io.stderr,
    stdin: deps.io.stdin,
    isStdoutTTY: false,
    isStderrTTY: deps.io.isStderrTTY,
    isStdinTTY: false,
    env: deps.io.env,
  });
  const originalWrite = io.stdout.write.bind(io.stdout);
  io.stdout.write = ((chunk: string) => {
    check();
    return originalWrite(chunk);
  }) as typeof io.stdout.write;
  const close = () =>
    new Promise<void>((resolve) => {
      if (stream.closed) resolve();
      else stream.end(() => resolve());
    });
  return {
    io,
    async commit() {
      await close();
      check();
      await fs.rename(tmp, path).catch((e: Error) => {
        throw new UsageError(`Cannot write ${path}: ${e.message}.`);
      });
    },
    async discard() {
      await close();
      await fs.rm(tmp, { force: true });
    },
  };
}

export async function run(opts: ExportOptions, deps: Deps): Promise<void> {
  const type = recordType(opts.type);
  const format = exportFormat(deps, opts.output);
  const plan = await planRead(opts, deps, type, { needDefinitions: true });
  const columns = rowColumns(selectedSlugs(plan) ?? []);
  const file = opts.output !== undefined ? pendingFile(opts.output, deps) : undefined;
  const writer = createRowWriter<Row>(file?.io ?? deps.io, columns, {
    format,
    fields: deps.fields,
    neutraliseFormulas: !opts.raw,
    arraySep: ';',
    json: (row) => {
      const out: Record<string, unknown> = {};
      for (const c of columns) out[c.key] = (c.get ? c.get(row) : row.id) ?? null;
      return out;
    },
  });
  const progress = await deps.io.progress(`Exporting ${type} records…`);
  let total: number | undefined;
  try {
    const client = await deps.client();
    for await (const page of readPages(client, plan, {
      all: true,
      total: true,
      signal: deps.signal,
    })) {
      total ??= page.total;
      await writer.write(page.rows);
      progress.update(
        `Exporting ${type} records: ${thousands(page.seen)}` +
          (total !== undefined ? ` of ${thousands(total)}` : ''),
      );
    }
    await writer.end();
    await file?.commit();
  } catch (err) {
    progress.fail(`Export stopped after ${plural(writer.count, type)}.`);
    if (file) {
      await file.discard();
      deps.io.warn(`${opts.output} was not written.`);
    }
    throw err;
  }
  progress.succeed(
    `Exported ${plural(writer.count, type)}${opts.output !== undefined ? ` to ${opts.output}` : ''}.`,
  );
}
