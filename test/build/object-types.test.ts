// The lists of object types that the CLI and the sandbox check names against are the
// contract's (openapi/openapi.yaml, generated into src/generated/enums.ts by scripts/gen.mjs),
// not lists written by hand beside it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import {
  AUTOMATION_TYPES,
  PROPERTY_TYPES,
  RECORD_TYPES,
  VIEW_TYPES,
} from '../../src/api/object-types.ts';
import { PROPERTY_OBJECT_TYPES } from '../../src/sandbox/resources/properties/catalogue.ts';

const contract = parse(
  readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8'),
);
const schemas = contract.components.schemas as Record<string, { enum?: string[] }>;

describe('object types come from the contract', () => {
  it('for records, views and automations', () => {
    assert.deepEqual(RECORD_TYPES, schemas['RecordObjectType']!.enum);
    assert.deepEqual(VIEW_TYPES, schemas['ViewObjectType']!.enum);
    assert.deepEqual(AUTOMATION_TYPES, schemas['AutomationObjectType']!.enum);
  });

  it('for properties, in the CLI and in the sandbox alike', () => {
    const documented = schemas['PropertyObjectType']!.enum!;
    // The nine of api.md, and comment, engagement and agent_site (facts.md).
    assert.equal(documented.length, 12);
    assert.deepEqual(PROPERTY_TYPES, documented);
    assert.deepEqual(PROPERTY_OBJECT_TYPES, documented);
    // The path parameter takes an open set: every documented name is one it accepts.
    const { pattern, maxLength } = contract.components.parameters.PropertyObjectType.schema;
    for (const name of documented) {
      assert.match(name, new RegExp(pattern));
      assert.ok(name.length <= maxLength);
    }
  });
});
