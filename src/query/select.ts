// --select, shared by `ws views` and `ws records`:
//   name,organization.name → ['name', 'organization.name']
import { checkPath, type SlugContext, slugList } from './slugs.ts';

/** `name,organization.name` → `['name', 'organization.name']`; a slug given twice counts once. */
export function parseSelect(spec: string, opts: SlugContext = {}): string[] {
  const out: string[] = [];
  for (const path of slugList('--select', spec, 'name,amount,organization.name')) {
    checkPath(path, opts, `--select "${spec}"`);
    if (!out.includes(path)) out.push(path);
  }
  return out;
}
