// --sort, shared by `ws views` and `ws records`:
//   -amount,name → [{ amount: 'desc' }, { name: 'asc' }]   (a leading + is allowed)
import type { Schemas } from '../api/types.ts';
import { UsageError } from '../errors.ts';
import { checkPath, type SlugContext, slugList } from './slugs.ts';

export type SortEntry = Schemas['SortEntry'];
export type Direction = Schemas['SortDirection'];

/** `-amount,name` → `[{ amount: 'desc' }, { name: 'asc' }]`; the order is the priority. */
export function parseSort(spec: string, opts: SlugContext = {}): SortEntry[] {
  const seen = new Set<string>();
  return slugList('--sort', spec, '-amount,name').map((item) => {
    const desc = item.startsWith('-');
    const path = item.replace(/^[-+]\s*/, '');
    checkPath(path, opts, `--sort "${spec}"`);
    if (seen.has(path)) {
      throw new UsageError(
        `--sort "${spec}" names "${path}" twice.`,
        'Give each property once; the first one sorts first.',
      );
    }
    seen.add(path);
    return { [path]: desc ? 'desc' : 'asc' } as SortEntry;
  });
}

/** The --sort form of a sort array: `[{ amount: 'desc' }, { name: 'asc' }]` → `-amount,name`. */
export function formatSort(sort: readonly SortEntry[] | null | undefined): string {
  return (sort ?? [])
    .flatMap((entry) =>
      Object.entries(entry ?? {}).map(([path, dir]) => (dir === 'desc' ? `-${path}` : path)),
    )
    .join(',');
}
