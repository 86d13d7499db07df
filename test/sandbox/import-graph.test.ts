// The import rule of the sandbox, read from its sources: resources talk through events, not
// through each other's code. Every import statement under src/sandbox is read (type-only
// ones too: they tie files together for a reader as much as the others), and the test fails,
// naming the file and the import, on:
//   - an import cycle among sandbox files;
//   - a resource importing another resource's request layer (handlers.ts, routes.ts);
//   - a resource importing a resource of its own layer or of a layer above it (LAYERS);
//   - the sandbox reaching the CLI: outside src/sandbox it may import only src/util,
//     src/generated, src/contract, src/filter (the comparators of filters) and
//     src/automation-engine (the automation evaluator), which themselves stay inside those, and
//     package.json.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../..');
const SANDBOX = join(ROOT, 'src/sandbox');
/** What the sandbox may import outside itself: shared code that is not the CLI. */
const SHARED_OUTSIDE = [
  'src/util/',
  'src/generated/',
  'src/contract/',
  'src/filter/',
  'src/automation-engine/',
];
const PACKAGE_JSON = 'package.json';

/**
 * The resources in layers, lowest first. A resource may import the model side (any file but
 * handlers.ts and routes.ts) of a resource in a lower layer; what a resource of its own layer
 * or of a higher one does, it hears through events. Properties are what records are checked
 * against; records are what the rest reads, writes through the records model, and reacts to.
 * Webhook deliveries hear from automations (their webhook steps), so they sit above them.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['properties'],
  ['records'],
  ['grants', 'imports', 'views', 'automations', 'realtime'],
  // Above automations: webhooks hear their webhook actions. Above views: lists make the
  // stage property and the views of their template.
  ['webhooks', 'lists'],
];

/** A resource's request layer: no other resource imports it. */
const REQUEST_LAYER = new Set(['handlers.ts', 'routes.ts']);

interface Import {
  /** The importing file, relative to the repository (src/sandbox/...). */
  from: string;
  /** The specifier as written. */
  specifier: string;
  /** The imported file, relative to the repository; undefined for packages and node: modules. */
  to: string | undefined;
}

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) tsFiles(path, out);
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const from = relative(ROOT, file);
  return ts.preProcessFile(text, true, true).importedFiles.map(({ fileName: specifier }) => ({
    from,
    specifier,
    to: specifier.startsWith('.') ? relative(ROOT, resolve(dirname(file), specifier)) : undefined,
  }));
}

/** `src/sandbox/resources/<name>/...` → `<name>`; undefined for shared sandbox modules. */
function resourceOf(path: string): string | undefined {
  return /^src\/sandbox\/resources\/([^/]+)\//.exec(path)?.[1];
}

function layerOf(resource: string): number {
  return LAYERS.findIndex((layer) => layer.includes(resource));
}

const show = ({ from, specifier }: Import) => `${from}: import '${specifier}'`;

/** Problems of the imports of `files` (sandbox files, paths relative to the repository). */
function importProblems(graph: ReadonlyMap<string, readonly Import[]>): string[] {
  const problems: string[] = [];
  for (const imports of graph.values()) {
    for (const edge of imports) {
      if (edge.to === undefined) continue;
      const outside = !edge.to.startsWith('src/sandbox/');
      if (outside) {
        if (edge.to !== PACKAGE_JSON && !SHARED_OUTSIDE.some((dir) => edge.to!.startsWith(dir))) {
          problems.push(
            `${show(edge)} reaches ${edge.to}: the sandbox never imports the CLI (outside src/sandbox it may import ${SHARED_OUTSIDE.join(', ')} and package.json)`,
          );
        }
        continue;
      }
      const mine = resourceOf(edge.from);
      const theirs = resourceOf(edge.to);
      if (mine === undefined || theirs === undefined || mine === theirs) continue;
      if (REQUEST_LAYER.has(edge.to.slice(edge.to.lastIndexOf('/') + 1))) {
        problems.push(
          `${show(edge)} reaches the request layer of the ${theirs} resource: move what both need to a shared sandbox module (src/sandbox/request.ts), or react to its events`,
        );
      } else if (layerOf(mine) === -1 || layerOf(theirs) === -1) {
        const missing = layerOf(mine) === -1 ? mine : theirs;
        problems.push(
          `${show(edge)}: the resource '${missing}' is in no layer: add it to LAYERS in test/sandbox/import-graph.test.ts`,
        );
      } else if (layerOf(theirs) >= layerOf(mine)) {
        problems.push(
          `${show(edge)}: ${mine} may not import ${theirs} (${layerOf(theirs) === layerOf(mine) ? 'the same layer' : 'a higher layer'}): subscribe to its events, or emit one it subscribes to`,
        );
      }
    }
  }
  problems.push(...cycles(graph));
  return problems;
}

/** Every import cycle among the files of `graph`, as `a → b → a` with the imports written. */
function cycles(graph: ReadonlyMap<string, readonly Import[]>): string[] {
  const found: string[] = [];
  const done = new Set<string>();
  const path: Import[] = [];
  const onPath = new Set<string>();
  const visit = (file: string) => {
    if (done.has(file)) return;
    onPath.add(file);
    for (const edge of graph.get(file) ?? []) {
      if (edge.to === undefined || !graph.has(edge.to)) continue;
      if (onPath.has(edge.to)) {
        const start = path.findIndex((e) => e.from === edge.to);
        const loop = [...path.slice(start === -1 ? path.length : start), edge];
        found.push(`import cycle: ${loop.map(show).join(' → ')}`);
        continue;
      }
      path.push(edge);
      visit(edge.to);
      path.pop();
    }
    onPath.delete(file);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return found;
}

/** The sandbox's files and, followed from them, the shared files outside it. */
function sandboxGraph(): Map<string, Import[]> {
  const graph = new Map<string, Import[]>();
  for (const file of tsFiles(SANDBOX)) graph.set(relative(ROOT, file), importsOf(file));
  return graph;
}

/** Imports of the shared files outside src/sandbox that the sandbox reaches, transitively. */
function outsideProblems(graph: ReadonlyMap<string, readonly Import[]>): string[] {
  const problems: string[] = [];
  const queue = [...graph.values()]
    .flat()
    .map((e) => e.to)
    .filter((to): to is string => to !== undefined && SHARED_OUTSIDE.some((d) => to.startsWith(d)));
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !file.endsWith('.ts') || !existsSync(join(ROOT, file))) continue;
    seen.add(file);
    for (const edge of importsOf(join(ROOT, file))) {
      if (edge.to === undefined || edge.to === PACKAGE_JSON) continue;
      if (SHARED_OUTSIDE.some((dir) => edge.to!.startsWith(dir))) queue.push(edge.to);
      else {
        problems.push(
          `${show(edge)} reaches ${edge.to}: code the sandbox imports stays within ${SHARED_OUTSIDE.join(', ')}`,
        );
      }
    }
  }
  return problems;
}

describe('the import graph of the sandbox', () => {
  it('has no cycle, no cross-resource request-layer import, no upward import and no CLI import', () => {
    const graph = sandboxGraph();
    assert.ok(graph.size > 40, `read ${graph.size} files under src/sandbox`);
    const problems = [...importProblems(graph), ...outsideProblems(graph)];
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });

  it('names the file and the import of each kind of problem', () => {
    const edge = (from: string, specifier: string): Import => ({
      from,
      specifier,
      to: specifier.startsWith('.')
        ? relative(ROOT, resolve(dirname(join(ROOT, from)), specifier))
        : undefined,
    });
    const graph = new Map<string, Import[]>([
      ['src/sandbox/a.ts', [edge('src/sandbox/a.ts', './b.ts')]],
      ['src/sandbox/b.ts', [edge('src/sandbox/b.ts', './a.ts')]],
      [
        'src/sandbox/resources/views/model.ts',
        [
          edge('src/sandbox/resources/views/model.ts', '../properties/handlers.ts'),
          edge('src/sandbox/resources/views/model.ts', '../properties/model.ts'),
          edge('src/sandbox/resources/views/model.ts', '../../../commands/records/list.ts'),
        ],
      ],
      [
        'src/sandbox/resources/records/model.ts',
        [
          edge('src/sandbox/resources/records/model.ts', '../views/model.ts'),
          edge('src/sandbox/resources/records/model.ts', '../reports/model.ts'),
          edge('src/sandbox/resources/records/model.ts', 'node:util'),
        ],
      ],
    ]);
    assert.deepEqual(importProblems(graph), [
      "src/sandbox/resources/views/model.ts: import '../properties/handlers.ts' reaches the request layer of the properties resource: move what both need to a shared sandbox module (src/sandbox/request.ts), or react to its events",
      "src/sandbox/resources/views/model.ts: import '../../../commands/records/list.ts' reaches src/commands/records/list.ts: the sandbox never imports the CLI (outside src/sandbox it may import src/util/, src/generated/, src/contract/, src/filter/, src/automation-engine/ and package.json)",
      "src/sandbox/resources/records/model.ts: import '../views/model.ts': records may not import views (a higher layer): subscribe to its events, or emit one it subscribes to",
      "src/sandbox/resources/records/model.ts: import '../reports/model.ts': the resource 'reports' is in no layer: add it to LAYERS in test/sandbox/import-graph.test.ts",
      "import cycle: src/sandbox/a.ts: import './b.ts' → src/sandbox/b.ts: import './a.ts'",
    ]);
  });
});
