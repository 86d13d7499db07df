// What export, diff and apply share: reading a schema file, and the workspace's
// definitions of every object type (one request, which also refreshes the cache).
import { promises as fs } from 'node:fs';
import { listAllProperties, type PropertyDefinition } from '../api/props.ts';
import { UsageError } from '../errors.ts';
import type { Deps } from '../factory.ts';
import { readStdin } from '../io/stdin.ts';
import { storeDefinitions } from './definitions-cache.ts';
import { parseSchema, type Schema } from './file.ts';

/** Read and check a schema file (`-` for stdin). */
export async function readSchemaFile(deps: Deps, file: string): Promise<Schema> {
  let text: string;
  if (file === '-') {
    text = await readStdin(deps.io, 'The schema on stdin', { signal: deps.signal });
  } else {
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new UsageError(
        code === 'ENOENT' ? `No file ${file}.` : `Cannot read ${file}: ${(err as Error).message}`,
        'Write one with `ws props export --output FILE`, or pass -f - to read stdin.',
      );
    }
  }
  return parseSchema(text, file === '-' ? '(stdin)' : file);
}

/** Every object type's definitions, with options, fresh from the API; the cache keeps them. */
export async function workspaceDefinitions(deps: Deps): Promise<Map<string, PropertyDefinition[]>> {
  const client = await deps.client();
  const all = await listAllProperties(client, { signal: deps.signal });
  await storeDefinitions(deps, all);
  return all;
}
