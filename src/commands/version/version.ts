// ws version: the version alone (as `ws --version` prints it), or with --json an object
// that also names the Node.js and the platform it runs on, for bug reports.
import type { Deps } from '../../factory.ts';
import { renderObject } from '../../output/render.ts';
import { VERSION } from '../../version.ts';

export type VersionOptions = Record<string, never>;

export async function run(_opts: VersionOptions, deps: Deps): Promise<void> {
  if (deps.format === 'table' || (deps.format === 'tsv' && deps.fields === undefined)) {
    deps.io.println(VERSION);
    return;
  }
  const about = {
    version: VERSION,
    node: process.versions.node,
    platform: `${process.platform}-${process.arch}`,
  };
  await renderObject(deps.io, about, [{ key: 'version' }, { key: 'node' }, { key: 'platform' }], {
    format: deps.format,
    fields: deps.fields,
  });
}
