// The API contract (openapi/openapi.yaml via src/generated/openapi.json) and its run-time
// validator (src/contract). Run: node --import tsx --test test/contract/contract.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadContract } from '../../src/contract/index.ts';
import type { FieldError, RequestParts } from '../../src/contract/types.ts';
import spec from '../../src/generated/openapi.json' with { type: 'json' };

const contract = loadContract();
const TEAM = '3f6a1c2e-8b4d-4e1a-9c3b-2d5e6f7a8b9c';
const ID = '0b7f5a52-1c1e-4a53-9f7e-6f0c2a1d9e44';
const ID2 = 'a1d2c3b4-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

type Obj = Record<string, unknown>;
const doc = spec as unknown as Obj;

/** Every endpoint of api.md (plus the two view extensions and the official client's further routes), as [operationId, method, path]. */
const ENDPOINTS: [string, string, string][] = [
  ['createRecord', 'POST', '/v2/prism/{teamId}/{objectType}'],
  ['listRecords', 'GET', '/v2/prism/{teamId}/{objectType}'],
  ['getRecord', 'GET', '/v2/prism/{teamId}/{objectType}/{id}'],
  ['updateRecord', 'PATCH', '/v2/prism/{teamId}/{objectType}/{id}'],
  ['deleteRecord', 'DELETE', '/v2/prism/{teamId}/{objectType}/{id}'],
  ['queryRecords', 'POST', '/v2/prism/{teamId}/{objectType}/query'],
  ['countRecords', 'GET', '/v2/prism/{teamId}/{objectType}/count'],
  ['findRecordByValue', 'GET', '/v2/prism/{teamId}/{objectType}/by/{slug}/{value}'],
  ['upsertRecordByValue', 'PUT', '/v2/prism/{teamId}/{objectType}/by/{slug}/{value}'],
  ['importRecords', 'POST', '/v2/prism/{teamId}/{objectType}/import'],
  ['batchUpdateRecords', 'POST', '/v2/prism/{teamId}/{objectType}/batch/update'],
  ['batchDeleteRecords', 'POST', '/v2/prism/{teamId}/{objectType}/batch/delete'],
  ['duplicateRecord', 'POST', '/v2/prism/{teamId}/{objectType}/{id}/duplicate'],
  ['restoreRecord', 'POST', '/v2/prism/{teamId}/{objectType}/{id}/restore'],
  ['getImportJob', 'GET', '/v2/prism/{teamId}/imports/{jobId}'],
  ['getGrant', 'GET', '/v2/prism/{teamId}/{objectType}/{id}/grant'],
  ['putGrant', 'PUT', '/v2/prism/{teamId}/{objectType}/{id}/grant'],
  ['listProperties', 'GET', '/v2/prism/{teamId}/{objectType}/properties'],
  ['listAllProperties', 'GET', '/v2/prism/{teamId}/properties'],
  ['createProperty', 'POST', '/v2/prism/{teamId}/{objectType}/properties'],
  ['updateProperty', 'PATCH', '/v2/prism/{teamId}/{objectType}/properties/{propertyId}'],
  ['deleteProperty', 'DELETE', '/v2/prism/{teamId}/{objectType}/properties/{propertyId}'],
  [
    'createPropertyOption',
    'POST',
    '/v2/prism/{teamId}/{objectType}/properties/{propertyId}/options',
  ],
  [
    'updatePropertyOption',
    'PATCH',
    '/v2/prism/{teamId}/{objectType}/properties/{propertyId}/options/{optionId}',
  ],
  [
    'deletePropertyOption',
    'DELETE',
    '/v2/prism/{teamId}/{objectType}/properties/{propertyId}/options/{optionId}',
  ],
  ['createView', 'POST', '/v2/prism/{teamId}/{viewObjectType}/views'],
  ['getView', 'GET', '/v2/prism/{teamId}/{viewObjectType}/views/{viewId}'],
  ['updateView', 'PATCH', '/v2/prism/{teamId}/{viewObjectType}/views/{viewId}'],
  ['listViews', 'GET', '/v2/prism/{teamId}/{viewObjectType}/views'],
  ['deleteView', 'DELETE', '/v2/prism/{teamId}/{viewObjectType}/views/{viewId}'],
  ['createAutomation', 'POST', '/v2/prism/{teamId}/{automationObjectType}/triggered_automations'],
  ['listAutomations', 'GET', '/v2/prism/{teamId}/{automationObjectType}/triggered_automations'],
  [
    'getAutomation',
    'GET',
    '/v2/prism/{teamId}/{automationObjectType}/triggered_automations/{automationId}',
  ],
  [
    'replaceAutomation',
    'PUT',
    '/v2/prism/{teamId}/{automationObjectType}/triggered_automations/{automationId}',
  ],
  [
    'deleteAutomation',
    'DELETE',
    '/v2/prism/{teamId}/{automationObjectType}/triggered_automations/{automationId}',
  ],
  ['createWebhook', 'POST', '/v2/webhooks/{teamId}'],
  ['listWebhooks', 'GET', '/v2/webhooks/{teamId}'],
  ['getWebhook', 'GET', '/v2/webhooks/{teamId}/{webhookId}'],
  ['updateWebhook', 'PATCH', '/v2/webhooks/{teamId}/{webhookId}'],
  ['deleteWebhook', 'DELETE', '/v2/webhooks/{teamId}/{webhookId}'],
  ['verifyWebhook', 'POST', '/v2/webhooks/{teamId}/{webhookId}/verify'],
  ['pingWebhook', 'POST', '/v2/webhooks/{teamId}/{webhookId}/ping'],
  ['listTeamDeliveries', 'GET', '/v2/webhooks/{teamId}/deliveries'],
  ['listDeliveries', 'GET', '/v2/webhooks/{teamId}/{webhookId}/deliveries'],
  ['getDelivery', 'GET', '/v2/webhooks/{teamId}/{webhookId}/deliveries/{deliveryId}'],
  // Beyond api.md: what the official client reaches (facts.md).
  ['listViewRecords', 'GET', '/v2/prism/{teamId}/{viewObjectType}/views/{viewId}/records'],
  ['reorderViewRecords', 'PATCH', '/v2/prism/{teamId}/{viewObjectType}/views/{viewId}/records'],
  [
    'pinViewRecord',
    'POST',
    '/v2/prism/{teamId}/{viewObjectType}/views/{viewId}/records/{objectId}',
  ],
  [
    'unpinViewRecord',
    'DELETE',
    '/v2/prism/{teamId}/{viewObjectType}/views/{viewId}/records/{objectId}',
  ],
  ['createList', 'POST', '/v2/prism/{teamId}/lists'],
  ['listLists', 'GET', '/v2/prism/{teamId}/lists'],
  ['getList', 'GET', '/v2/prism/{teamId}/lists/{listId}'],
  ['createRealtimeTicket', 'POST', '/v2/realtime/ticket'],
];

const ERROR_CODES: [string, number][] = [
  ['invalid_request', 400],
  ['unauthorized', 401],
  ['forbidden', 403],
  ['not_found', 404],
  ['method_not_allowed', 405],
  ['conflict', 409],
  ['idempotency_key_mismatch', 409],
  ['idempotency_key_stale', 409],
  ['precondition_failed', 412],
  ['payload_too_large', 413],
  ['unprocessable', 422],
  ['rate_limited', 429],
  ['internal_error', 500],
  ['bad_gateway', 502],
  ['service_unavailable', 503],
];

// ------------------------------------------------------------------ helpers

function pointer(ref: string): Obj {
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) node = (node as Obj)[part];
  assert.ok(node && typeof node === 'object', `unresolvable ${ref}`);
  return node as Obj;
}

function deref(node: unknown): Obj {
  let current = node as Obj;
  while (typeof current.$ref === 'string') current = pointer(current.$ref);
  return current;
}

function rawOperation(operationId: string): { pathItem: Obj; op: Obj } {
  const found = ENDPOINTS.find(([id]) => id === operationId)!;
  const pathItem = (doc.paths as Obj)[found[2]] as Obj;
  return { pathItem, op: pathItem[found[1].toLowerCase()] as Obj };
}

function parametersOf(operationId: string): Obj[] {
  const { pathItem, op } = rawOperation(operationId);
  return [
    ...((pathItem.parameters as unknown[]) ?? []),
    ...((op.parameters as unknown[]) ?? []),
  ].map(deref);
}

function req(parts: Partial<RequestParts> = {}): RequestParts {
  return {
    params: { teamId: TEAM, objectType: 'contact', ...parts.params },
    query: parts.query ?? {},
    headers: parts.headers ?? {},
    body: parts.body,
  };
}

function fields(errors: FieldError[]): string[] {
  return errors.map((e) => `${e.field}:${e.code}`);
}

function errorBody(code = 'invalid_request', extra: Obj = {}): Obj {
  return { error: { code, message: 'Something is wrong.', request_id: 'req_123', ...extra } };
}

const record = { id: ID, default: { name: 'Ada Lovelace', email: 'ada@example.com' } };

// ------------------------------------------------------------------ the document

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1', () => {
    assert.match(String(doc.openapi), /^3\.1\./);
  });

  it('defines every api.md endpoint with its method and path, and nothing else', () => {
    for (const [operationId, method, path] of ENDPOINTS) {
      assert.deepEqual(contract.operation(operationId), { method, path }, operationId);
    }
    assert.deepEqual(
      [...contract.operationIds()].sort(),
      ENDPOINTS.map(([id]) => id).sort(),
      'operationIds() lists exactly the documented operations',
    );
    assert.equal(contract.operation('noSuchOperation'), undefined);
  });

  it('marks the view list and delete operations as sandbox extensions', () => {
    for (const [operationId] of ENDPOINTS) {
      const { op } = rawOperation(operationId);
      const extension = ['listViews', 'deleteView'].includes(operationId);
      assert.equal(op['x-ws-extension'] === true, extension, operationId);
      if (extension) assert.match(String(op.description), /hosted service does not document/);
    }
  });

  it('lists the sandbox error codes with their statuses in info.description', () => {
    const description = String((doc.info as Obj).description);
    for (const [code, status] of ERROR_CODES) {
      assert.match(description, new RegExp(`\\| \`${code}\` \\| ${status} \\|`), code);
    }
  });

  it('declares x-request-id on every response, Retry-After on 429, etag on single-record reads and patches', () => {
    for (const [operationId] of ENDPOINTS) {
      const { op } = rawOperation(operationId);
      const responses = op.responses as Obj;
      for (const [status, raw] of Object.entries(responses)) {
        const headers = (deref(raw).headers ?? {}) as Obj;
        assert.ok('x-request-id' in headers, `${operationId} ${status} declares x-request-id`);
        if (status === '429') assert.ok('Retry-After' in headers, `${operationId} 429 Retry-After`);
      }
      for (const status of ['400', '401', '403', '404', '429', '500']) {
        assert.ok(status in responses, `${operationId} documents ${status}`);
      }
    }
    for (const operationId of ['getRecord', 'updateRecord']) {
      const headers = deref((rawOperation(operationId).op.responses as Obj)['200']).headers as Obj;
      assert.ok('etag' in headers, `${operationId} 200 declares etag`);
    }
  });

  it('uses the documented success statuses', () => {
    const success = (operationId: string) =>
      Object.keys(rawOperation(operationId).op.responses as Obj)
        .filter((s) => s.startsWith('2'))
        .sort();
    const expected: Record<string, string[]> = {
      createRecord: ['201'],
      updateRecord: ['200'],
      deleteRecord: ['204'],
      duplicateRecord: ['201'],
      restoreRecord: ['200'],
      upsertRecordByValue: ['200', '201'],
      importRecords: ['200', '202'],
      batchUpdateRecords: ['200'],
      batchDeleteRecords: ['200'],
      createAutomation: ['201'],
      createProperty: ['201'],
      updateProperty: ['200'],
      deleteProperty: ['204'],
      createPropertyOption: ['201'],
      updatePropertyOption: ['200'],
      deletePropertyOption: ['204'],
      createView: ['201'],
      updateView: ['200'],
      deleteView: ['204'],
      createWebhook: ['201'],
      deleteWebhook: ['204'],
      deleteAutomation: ['204'],
    };
    for (const [operationId, statuses] of Object.entries(expected)) {
      assert.deepEqual(success(operationId), statuses, operationId);
    }
    const location = deref((rawOperation('importRecords').op.responses as Obj)['202']).headers;
    assert.ok(location && 'Location' in (location as Obj), 'async import declares Location');
  });

  it('accepts Idempotency-Key (1..255 chars) on every mutating POST, PUT and PATCH', () => {
    for (const [operationId, method] of ENDPOINTS) {
      if (!['POST', 'PUT', 'PATCH'].includes(method) || operationId === 'queryRecords') continue;
      const key = parametersOf(operationId).find((p) => p.name === 'Idempotency-Key');
      assert.ok(key, `${operationId} declares Idempotency-Key`);
      assert.equal(key.in, 'header');
      assert.deepEqual(
        [(key.schema as Obj).minLength, (key.schema as Obj).maxLength],
        [1, 255],
        operationId,
      );
    }
  });

  it('uses enums for record, view and automation object types and a free string for properties', () => {
    const objectTypeOf = (operationId: string, name: string) =>
      deref(parametersOf(operationId).find((p) => p.name === name)!.schema);
    const six = ['contact', 'organization', 'identity', 'deal', 'action', 'document'];
    assert.deepEqual(objectTypeOf('createRecord', 'objectType').enum, [
      ...six,
      'event',
      'engagement',
    ]);
    // Events have no import and no batches.
    assert.deepEqual(objectTypeOf('importRecords', 'objectType').enum, [...six, 'engagement']);
    assert.deepEqual(objectTypeOf('batchDeleteRecords', 'objectType').enum, [...six, 'engagement']);
    assert.deepEqual(objectTypeOf('getGrant', 'objectType').enum, [
      'deal',
      'action',
      'document',
      'event',
      'engagement',
      'identity',
      'message',
    ]);
    assert.equal(objectTypeOf('listProperties', 'objectType').enum, undefined);
    assert.equal(objectTypeOf('listProperties', 'objectType').type, 'string');
    assert.equal((objectTypeOf('createView', 'viewObjectType').enum as string[]).length, 8);
    assert.equal(
      (objectTypeOf('createAutomation', 'automationObjectType').enum as string[]).length,
      9,
    );
    assert.equal(objectTypeOf('createRecord', 'teamId').format, 'uuid');
  });

  it('compiles a validator for every operation and every documented status', () => {
    for (const operationId of contract.operationIds()) {
      assert.ok(Array.isArray(contract.validateRequest(operationId, req())), operationId);
      const responses = rawOperation(operationId).op.responses as Obj;
      for (const status of Object.keys(responses)) {
        const problems = contract.validateResponse(operationId, {
          status: Number(status),
          headers: {},
          body: status === '204' ? undefined : {},
        });
        assert.ok(Array.isArray(problems), `${operationId} ${status}`);
      }
    }
  });
});

// ------------------------------------------------------------------ requests

describe('validateRequest', () => {
  it('throws on an unknown operationId', () => {
    assert.throws(() => contract.validateRequest('nope', req()), /unknown operationId/);
    assert.throws(() => contract.validateResponse('nope', { status: 200, headers: {}, body: {} }));
  });

  it('accepts a valid record create, patch, query, import and batch', () => {
    assert.deepEqual(
      contract.validateRequest('createRecord', req({ body: { default: record.default } })),
      [],
    );
    assert.deepEqual(
      contract.validateRequest(
        'updateRecord',
        req({
          params: { id: ID },
          headers: { 'idempotency-key': 'k-1', 'if-match': '"v3"' },
          body: { default: { name: 'Ada', tags: ['a', 'b'], score: 3, vip: true, notes: null } },
        }),
      ),
      [],
    );
    assert.deepEqual(
      contract.validateRequest(
        'queryRecords',
        req({
          body: {
            query: {
              select: ['name', 'organization.name'],
              combinator: 'AND',
              filter: [
                { name: { begins_with: 'Ada' } },
                { stage: { in: ['lead', 'won'] } },
                { email: { exists: true } },
              ],
              sort: [{ name: 'asc' }, { created_at: 'desc' }],
              limit: 50,
            },
            include_total: true,
            id: [ID, ID2],
          },
        }),
      ),
      [],
    );
    assert.deepEqual(
      contract.validateRequest(
        'importRecords',
        req({
          body: {
            objects: [{ default: { email: 'a@example.com' } }, {}],
            options: { dedupe_by: 'email', caseInsensitive: true },
          },
        }),
      ),
      [],
    );
    assert.deepEqual(
      contract.validateRequest(
        'batchUpdateRecords',
        req({ body: { items: [{ id: ID, default: { name: 'x' } }] } }),
      ),
      [],
    );
    const hundred = Array.from({ length: 100 }, (_, i) => `id-${i}`);
    assert.deepEqual(
      contract.validateRequest('batchDeleteRecords', req({ body: { ids: hundred } })),
      [],
    );
  });

  it('import options: those the official client sends, dedupe_by as one slug or [slug]', () => {
    const importing = (options: Record<string, unknown>) =>
      contract.validateRequest('importRecords', req({ body: { objects: [{}], options } }));
    assert.deepEqual(
      importing({
        dedupe_by: ['email'],
        caseInsensitive: false,
        update_existing: false,
        create_missing_options: true,
        require_list_stage: true,
        crm_id: ID,
      }),
      [],
    );
    assert.deepEqual(importing({ dedupe_by: 'email', list_id: ID }), []);
    assert.deepEqual(importing({ dedupe_by: ['email', 'name'] }), [
      {
        field: 'body.options.dedupe_by',
        code: 'max_items',
        message:
          'holds one slug at most; rows are matched by one property (send "dedupe_by":"<slug>")',
      },
    ]);
    assert.deepEqual(fields(importing({ dedupe_by: [] })), ['body.options.dedupe_by:min_items']);
    assert.deepEqual(fields(importing({ dedupe_by: 3 })), ['body.options.dedupe_by:type']);
    assert.deepEqual(fields(importing({ update_existing: 'no' })), [
      'body.options.update_existing:type',
    ]);
    assert.deepEqual(fields(importing({ crm_id: 'list-1' })), ['body.options.crm_id:format']);
    // Still closed: a misspelt option is refused rather than ignored.
    assert.deepEqual(fields(importing({ updateExisting: false })), [
      'body.options.updateExisting:unknown_field',
    ]);
  });

  it('reports a missing body and missing required body fields', () => {
    const noBody = contract.validateRequest('createRecord', req());
    assert.deepEqual(noBody, [{ field: 'body', message: 'is required', code: 'required' }]);

    const property = contract.validateRequest('createProperty', req({ body: { icon: 'star' } }));
    assert.deepEqual(fields(property).sort(), ['body.name:required', 'body.type:required']);

    const query = contract.validateRequest('queryRecords', req({ body: { query: {} } }));
    assert.deepEqual(fields(query), ['body.query.select:required']);

    const webhook = contract.validateRequest('createWebhook', req({ body: { name: 'x' } }));
    assert.deepEqual(fields(webhook), ['body.url:required']);
  });

  it('rejects a query body limit of 51 but accepts 50', () => {
    const errors = contract.validateRequest(
      'queryRecords',
      req({ body: { query: { select: ['name'], limit: 51 } } }),
    );
    assert.deepEqual(errors, [
      { field: 'body.query.limit', message: 'must be at most 50', code: 'maximum' },
    ]);
    assert.deepEqual(
      contract.validateRequest('queryRecords', req({ body: { query: { select: [], limit: 50 } } })),
      [],
    );
  });

  it('rejects batches of 101 and empty batches', () => {
    const ids = Array.from({ length: 101 }, (_, i) => `id-${i}`);
    const del = contract.validateRequest('batchDeleteRecords', req({ body: { ids } }));
    assert.deepEqual(del, [
      { field: 'body.ids', message: 'must have at most 100 items', code: 'max_items' },
    ]);
    const items = ids.map((id) => ({ id }));
    assert.deepEqual(
      fields(contract.validateRequest('batchUpdateRecords', req({ body: { items } }))),
      ['body.items:max_items'],
    );
    assert.deepEqual(
      fields(contract.validateRequest('batchDeleteRecords', req({ body: { ids: [] } }))),
      ['body.ids:min_items'],
    );
    // An item without an id is answered as its own result (id: null), not refused at the door.
    assert.deepEqual(
      fields(
        contract.validateRequest('batchUpdateRecords', req({ body: { items: [{ default: {} }] } })),
      ),
      [],
    );
  });

  it('bounds Idempotency-Key to 1..255 characters', () => {
    const call = (key: string) =>
      contract.validateRequest(
        'createRecord',
        req({ headers: { 'idempotency-key': key }, body: {} }),
      );
    assert.deepEqual(call('k'.repeat(256)), [
      {
        field: 'header.idempotency-key',
        message: 'must be at most 255 characters long',
        code: 'max_length',
      },
    ]);
    assert.deepEqual(fields(call('')), ['header.idempotency-key:min_length']);
    assert.deepEqual(call('k'.repeat(255)), []);
  });

  it('rejects bad enum values in the path, the query and the body', () => {
    const path = contract.validateRequest(
      'createRecord',
      req({ params: { objectType: 'widget' }, body: {} }),
    );
    assert.equal(path.length, 1);
    assert.equal(path[0]!.field, 'path.objectType');
    assert.equal(path[0]!.code, 'enum');
    assert.match(path[0]!.message, /contact, organization, identity, deal, action, document/);

    const grant = contract.validateRequest(
      'getGrant',
      req({ params: { objectType: 'contact', id: ID } }),
    );
    assert.deepEqual(fields(grant), ['path.objectType:enum']);

    const kind = contract.validateRequest(
      'listAutomations',
      req({ params: { automationObjectType: 'deal' }, query: { kind: 'sometimes' } }),
    );
    assert.deepEqual(fields(kind), ['query.kind:enum']);

    const view = contract.validateRequest(
      'createView',
      req({
        params: { viewObjectType: 'deal' },
        body: { name: 'Pipeline', view_type: 'calendar' },
      }),
    );
    assert.deepEqual(fields(view), ['body.view_type:enum']);

    const sort = contract.validateRequest(
      'queryRecords',
      req({ body: { query: { select: ['name'], sort: [{ name: 'up' }], combinator: 'XOR' } } }),
    );
    assert.deepEqual(fields(sort).sort(), [
      'body.query.combinator:enum',
      'body.query.sort[0].name:enum',
    ]);
  });

  it('checks path parameter formats', () => {
    const errors = contract.validateRequest(
      'getRecord',
      req({ params: { teamId: 'not-a-team', id: 'nope' } }),
    );
    assert.deepEqual(fields(errors).sort(), ['path.id:format', 'path.teamId:format']);
    const missing = contract.validateRequest('getRecord', {
      params: { teamId: TEAM },
      query: {},
      headers: {},
      body: undefined,
    });
    assert.deepEqual(fields(missing).sort(), ['path.id:required', 'path.objectType:required']);
  });

  it('coerces query strings without touching the caller objects', () => {
    const query = { limit: '10', deleted: 'true', include_total: 'false', name: ['a', 'b'] };
    const before = structuredClone(query);
    assert.deepEqual(contract.validateRequest('listRecords', req({ query })), []);
    assert.deepEqual(query, before, 'query object unchanged');

    assert.deepEqual(contract.validateRequest('listRecords', req({ query: { limit: '500' } })), []);
    assert.deepEqual(
      fields(contract.validateRequest('listRecords', req({ query: { limit: 'ten' } }))),
      ['query.limit:type'],
    );
    assert.deepEqual(
      fields(contract.validateRequest('listRecords', req({ query: { limit: '0' } }))),
      ['query.limit:minimum'],
    );
    assert.deepEqual(
      fields(contract.validateRequest('listRecords', req({ query: { deleted: 'yes' } }))),
      ['query.deleted:type'],
    );
    assert.deepEqual(
      fields(contract.validateRequest('listRecords', req({ query: { limit: ['1', '2'] } }))),
      ['query.limit:type'],
      'a repeated scalar parameter is an error',
    );
    const automations = (limit: string) =>
      fields(
        contract.validateRequest(
          'listAutomations',
          req({ params: { automationObjectType: 'deal' }, query: { limit } }),
        ),
      );
    assert.deepEqual(automations('0'), []);
    assert.deepEqual(automations('51'), ['query.limit:maximum']);
    const deliveries = (limit: string) =>
      fields(
        contract.validateRequest(
          'listDeliveries',
          req({ params: { webhookId: ID }, query: { limit } }),
        ),
      );
    assert.deepEqual(deliveries('100'), []);
    assert.deepEqual(deliveries('101'), ['query.limit:maximum']);
  });

  it('requires the type query parameter when deleting a property', () => {
    const params = { objectType: 'ai_chat_thread', propertyId: ID };
    assert.deepEqual(fields(contract.validateRequest('deleteProperty', req({ params }))), [
      'query.type:required',
    ]);
    assert.deepEqual(
      contract.validateRequest('deleteProperty', req({ params, query: { type: 'select_str' } })),
      [],
    );
    assert.deepEqual(
      fields(
        contract.validateRequest('listProperties', req({ params: { objectType: 'Bad Type' } })),
      ),
      ['path.objectType:pattern'],
    );
  });

  it('validates property and option bodies', () => {
    const params = { objectType: 'deal' };
    assert.deepEqual(
      contract.validateRequest(
        'createProperty',
        req({
          params,
          body: {
            name: 'Stage',
            type: 'select_str',
            options: [
              { value: 'Lead', color_scheme: 'blue' },
              { value: 'Won', sort_index: 2 },
            ],
            required: false,
            some_future_field: 1,
          },
        }),
      ),
      [],
    );
    assert.deepEqual(
      fields(
        contract.validateRequest(
          'createProperty',
          req({ params, body: { name: 'X', type: 'decimal' } }),
        ),
      ),
      ['body.type:enum'],
    );
    assert.deepEqual(
      fields(
        contract.validateRequest(
          'createPropertyOption',
          req({ params: { ...params, propertyId: ID }, body: { type: 'select_str' } }),
        ),
      ),
      ['body.value:required'],
    );
    assert.deepEqual(
      fields(
        contract.validateRequest(
          'updatePropertyOption',
          req({
            params: { ...params, propertyId: ID, optionId: ID2 },
            body: { color_scheme: 'red' },
          }),
        ),
      ),
      ['body.type:required'],
    );
  });

  it('applies the automation kind rules and checks action items by type', () => {
    const params = { automationObjectType: 'deal' };
    const create = (body: unknown) =>
      contract.validateRequest('createAutomation', req({ params, body }));
    assert.deepEqual(
      create({
        kind: 'update',
        name: 'Stage changed',
        changeset: {
          combinator: 'OR',
          filter: [{ stage: { to: { '=': 'won' } } }, { amount: {} }],
        },
        state: { filter: [{ 'organization.name': { contains: 'Acme' } }] },
        actions: [
          { type: 'wait', delay_seconds: 3600 },
          { type: 'webhook', webhook_id: ID },
          { type: 'agent', agent_id: ID2 },
        ],
      }),
      [],
    );
    assert.deepEqual(
      create({
        kind: 'lifecycle',
        name: 'New deal',
        on_create: true,
        state: { filter: [] },
        changeset: null,
        actions: [
          {
            type: 'email',
            recipient_view_id: ID,
            recipient_view_object_type: 'contact',
            recipient_email_prop_def_id: ID2,
            send_as_user_id: 'user_1',
            template_id: ID,
            subject: 'Hello {{ first_name }}',
          },
          { type: 'wait', cron_expression: '0 9 * * 1', timezone: 'Europe/Paris' },
        ],
      }),
      [],
    );
    assert.deepEqual(fields(create({ kind: 'update', name: 'x' })), ['body.changeset:required']);
    assert.deepEqual(
      fields(create({ kind: 'lifecycle', name: 'x', changeset: { filter: [] } })).sort(),
      ['body.changeset:type', 'body.state:required'],
    );
    assert.deepEqual(fields(create({ kind: 'often', name: 'x' })), ['body.kind:enum']);
    assert.deepEqual(
      fields(create({ kind: 'update', name: 'x', changeset: { filter: [{ 'org.name': {} }] } })),
      ['body.changeset.filter[0].org.name:pattern'],
      'no dot-paths in a changeset',
    );

    const actions = create({
      kind: 'update',
      name: 'x',
      changeset: { filter: [] },
      actions: [
        { type: 'wait' },
        { type: 'wait', delay_seconds: 1, cron_expression: '* * * * *' },
        { type: 'sms' },
        { agent_id: ID },
        { type: 'linkedin', recipient_view_object_type: 'deal' },
      ],
    });
    const byField = new Map(actions.map((e) => [e.field, e]));
    assert.equal(byField.get('body.actions[0]')?.code, 'one_of');
    assert.match(
      byField.get('body.actions[0]')!.message,
      /exactly one of delay_seconds or cron_expression/,
    );
    assert.equal(byField.get('body.actions[1]')?.code, 'one_of');
    assert.equal(byField.get('body.actions[2].type')?.code, 'enum');
    assert.match(
      byField.get('body.actions[2].type')!.message,
      /agent, webhook, wait, email, linkedin/,
    );
    assert.equal(byField.get('body.actions[3].type')?.code, 'required');
    assert.equal(byField.get('body.actions[4].recipient_view_id')?.code, 'required');
    assert.equal(byField.get('body.actions[4].recipient_view_object_type')?.code, 'enum');
  });

  it('closes the webhook and record bodies but leaves open maps open', () => {
    assert.deepEqual(
      fields(
        contract.validateRequest(
          'createWebhook',
          req({ body: { name: 'n', url: 'https://hooks.example.com/ws', secret: 'x' } }),
        ),
      ),
      ['body.secret:unknown_field'],
    );
    assert.deepEqual(
      fields(
        contract.validateRequest(
          'updateWebhook',
          req({
            params: { webhookId: ID },
            body: { name: 'n'.repeat(256), description: 'd'.repeat(1001), url: 'nope' },
          }),
        ),
      ).sort(),
      ['body.description:max_length', 'body.name:max_length', 'body.url:format'],
    );
    assert.deepEqual(
      fields(contract.validateRequest('createRecord', req({ body: { name: 'Ada' } }))),
      ['body.name:unknown_field'],
    );
    assert.deepEqual(
      contract.validateRequest(
        'createRecord',
        req({
          body: { default: { anything: { nested: [1, 2] }, other: 'x' }, list: { any: 'shape' } },
        }),
      ),
      [],
    );
    assert.deepEqual(
      contract.validateRequest(
        'createView',
        req({
          params: { viewObjectType: 'deal' },
          body: { name: 'Board', view_type: 'kanban', group_by: 'stage', unknown_extra: true },
        }),
      ),
      [],
    );
  });

  it('accepts a grant with maps and rejects unknown permission letters', () => {
    const params = { objectType: 'deal', id: ID };
    assert.deepEqual(
      contract.validateRequest(
        'putGrant',
        req({
          params,
          body: { share_level: 'full', user_id: { [ID]: 'w' }, team_id: { [TEAM]: 'r' } },
        }),
      ),
      [],
    );
    assert.deepEqual(
      fields(
        contract.validateRequest('putGrant', req({ params, body: { user_id: { [ID]: 'x' } } })),
      ),
      [`body.user_id.${ID}:enum`],
    );
  });
});

// ------------------------------------------------------------------ responses

describe('validateResponse', () => {
  const ok = (operationId: string, status: number, body: unknown) =>
    contract.validateResponse(operationId, { status, headers: {}, body });

  it('accepts a valid Error body, with and without field errors', () => {
    assert.deepEqual(ok('createRecord', 400, errorBody()), []);
    assert.deepEqual(
      ok(
        'createRecord',
        400,
        errorBody('invalid_request', {
          errors: [{ field: 'body.default', message: 'must be an object', code: 'type' }],
          details: { hint: 'x' },
        }),
      ),
      [],
    );
    assert.deepEqual(ok('updateRecord', 412, errorBody('precondition_failed')), []);
    assert.deepEqual(ok('getImportJob', 404, errorBody('not_found')), []);
  });

  it('flags an Error body without request_id or with a malformed field error', () => {
    const problems = ok('createRecord', 400, { error: { code: 'invalid_request', message: 'x' } });
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /^createRecord 400: body\.error\.request_id is required$/);
    const fieldProblem = ok(
      'createRecord',
      400,
      errorBody('invalid_request', { errors: [{ field: 'x' }] }),
    );
    assert.ok(fieldProblem.length >= 2, fieldProblem.join('\n'));
  });

  it('accepts the gateway {message} form on a webhook 403 only', () => {
    const gateway = { message: 'Missing Authentication Token' };
    for (const operationId of ['createWebhook', 'listWebhooks', 'pingWebhook', 'getDelivery']) {
      assert.deepEqual(ok(operationId, 403, gateway), [], operationId);
      assert.deepEqual(ok(operationId, 403, errorBody('forbidden')), [], operationId);
    }
    assert.notDeepEqual(ok('getRecord', 403, gateway), []);
    assert.notDeepEqual(ok('listWebhooks', 403, { nothing: true }), []);
  });

  it('accepts a valid count and flags a wrong status and a wrong body', () => {
    assert.deepEqual(ok('countRecords', 200, { total: 3 }), []);

    const status = ok('countRecords', 201, { total: 3 });
    assert.equal(status.length, 1);
    assert.match(status[0]!, /countRecords/);
    assert.match(status[0]!, /201/);
    assert.match(status[0]!, /not documented/);

    const body = ok('countRecords', 200, { total: '3' });
    assert.deepEqual(body, ['countRecords 200: body.total must be an integer']);
    assert.deepEqual(ok('countRecords', 200, { count: 3 }), [
      'countRecords 200: body.total is required',
    ]);
    assert.deepEqual(ok('countRecords', 200, undefined), ['countRecords 200: body is missing']);
  });

  it('checks empty 204 answers', () => {
    assert.deepEqual(ok('deleteRecord', 204, undefined), []);
    const problems = ok('deleteRecord', 204, { id: ID });
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /^deleteRecord 204: .*body/);
  });

  it('accepts valid record, page, import, bulk and view answers', () => {
    assert.deepEqual(ok('createRecord', 201, record), []);
    assert.deepEqual(
      ok('listRecords', 200, {
        data: [{ id: ID, properties: { name: 'Ada' }, source: ['import'] }],
        has_more: false,
        next_cursor: null,
      }),
      [],
    );
    assert.deepEqual(
      ok('importRecords', 200, {
        job_id: null,
        status: 'complete',
        total: 2,
        processed: 2,
        succeeded: 1,
        failed: 1,
        results: [
          { id: ID, created: true, existing: false, updated: false, input_index: 0 },
          { id: null, input_index: 1, error: { code: 'invalid_value', message: 'bad email' } },
        ],
      }),
      [],
    );
    assert.deepEqual(
      ok('importRecords', 202, {
        job_id: 'job_1',
        status: 'processing',
        total: 150,
        processed: 0,
        succeeded: 0,
        failed: 0,
        expires_at: '2026-12-01T00:00:00Z',
      }),
      [],
    );
    assert.deepEqual(
      ok('batchDeleteRecords', 200, {
        results: [
          { id: ID, status: 'ok' },
          { id: null, status: 'error', error: { code: 'invalid_request', message: 'unparseable' } },
        ],
        summary: { total: 2, succeeded: 1, failed: 1 },
      }),
      [],
    );
    const view = { id: ID, name: 'Pipeline', view_type: 'kanban', select: ['name'], filter: [] };
    assert.deepEqual(ok('getView', 200, view), []);
    assert.deepEqual(
      ok('getView', 200, {
        view,
        records: { data: [{ id: ID }], has_more: false, next_cursor: null },
      }),
      [],
    );
    assert.notDeepEqual(ok('getView', 200, { view }), []);
  });

  it('accepts both grant forms on read', () => {
    assert.deepEqual(ok('getGrant', 200, { user_id: { u1: 'r' }, group_id: { g1: 'w' } }), []);
    assert.deepEqual(
      ok('getGrant', 200, {
        user_id: [{ u1: 'r' }, { u2: 'a' }],
        team_group_id: [{ g1: 'w' }],
        contact_ids: null,
        share_level: 'metadata',
      }),
      [],
    );
    assert.deepEqual(ok('getGrant', 200, { user_id: { u1: 'z' } }), [
      'getGrant 200: body.user_id.u1 must be one of: a, r, w',
    ]);
    assert.deepEqual(ok('getGrant', 200, { user_id: 5 }), [
      'getGrant 200: body.user_id must be an object or an array',
    ]);
  });

  it('checks webhook answers', () => {
    const webhook = {
      id: ID,
      team_id: TEAM,
      name: 'CRM sync',
      url: 'https://hooks.example.com/ws',
      description: '',
      enabled: true,
      verified: false,
      verification_token: 'whtok_abc',
      created_at: '2026-11-22T00:00:00Z',
      updated_at: '2026-11-22T00:00:00Z',
    };
    assert.deepEqual(
      ok('createWebhook', 201, {
        ...webhook,
        secret: 'whsec_abc',
        verification: { status: 'pending' },
      }),
      [],
    );
    assert.deepEqual(ok('createWebhook', 201, webhook), [
      'createWebhook 201: body.secret is required',
      'createWebhook 201: body.verification is required',
    ]);
    assert.deepEqual(
      ok('pingWebhook', 200, { dispatched: true, event: 'webhook.test', webhook_id: ID }),
      [],
    );
    assert.deepEqual(
      ok('getDelivery', 200, {
        delivery_id: ID2,
        webhook_id: ID,
        team_id: TEAM,
        type: 'delivery',
        status: 'failed',
        status_code: null,
        attempts: 3,
        event: 'webhook.test',
        url: webhook.url,
        created_at: '2026-11-22T00:00:00Z',
        attempt_history: [
          {
            attempt: 1,
            created_at: '2026-11-22T00:00:00Z',
            status: 'failed',
            status_code: 500,
            error: 'HTTP 500',
          },
        ],
      }),
      [],
    );
  });

  it('checks documented headers on request', () => {
    const headers = { 'X-Request-Id': 'req_1', etag: '"v1"' };
    assert.deepEqual(
      contract.validateResponse(
        'getRecord',
        { status: 200, headers, body: record },
        { headers: true },
      ),
      [],
    );
    assert.deepEqual(
      contract.validateResponse(
        'getRecord',
        { status: 200, headers: { 'x-request-id': 'req_1' }, body: record },
        { headers: true },
      ),
      ['getRecord 200: header etag is missing'],
    );
    assert.deepEqual(
      contract.validateResponse(
        'listRecords',
        {
          status: 429,
          headers: { 'x-request-id': 'r', 'retry-after': 'soon' },
          body: errorBody('rate_limited'),
        },
        { headers: true },
      ),
      ['listRecords 429: header Retry-After must be an integer'],
    );
    assert.deepEqual(
      contract.validateResponse(
        'listRecords',
        {
          status: 429,
          headers: { 'x-request-id': 'r', 'retry-after': 2 },
          body: errorBody('rate_limited'),
        },
        { headers: true },
      ),
      [],
    );
    assert.deepEqual(
      contract.validateResponse(
        'importRecords',
        {
          status: 202,
          headers: { 'x-request-id': 'r' },
          body: {
            job_id: 'j',
            status: 'processing',
            total: 100,
            processed: 0,
            succeeded: 0,
            failed: 0,
          },
        },
        { headers: true },
      ),
      ['importRecords 202: header Location is missing'],
    );
  });
});

// ------------------------------------------------------------------ routing and loading

describe('match and loadContract', () => {
  it('routes paths to operations, literal segments first', () => {
    const route = (method: string, path: string) => {
      const m = contract.match(method, path);
      return m?.kind === 'operation' ? [m.operationId, m.params] : m;
    };
    assert.deepEqual(route('GET', `/v2/prism/${TEAM}/imports/job_1`), [
      'getImportJob',
      { teamId: TEAM, jobId: 'job_1' },
    ]);
    assert.deepEqual(route('GET', `/v2/prism/${TEAM}/deal/count?list_id=x`), [
      'countRecords',
      { teamId: TEAM, objectType: 'deal' },
    ]);
    assert.deepEqual(route('PUT', `/v2/prism/${TEAM}/contact/by/email/ada%40example.com`), [
      'upsertRecordByValue',
      { teamId: TEAM, objectType: 'contact', slug: 'email', value: 'ada@example.com' },
    ]);
    assert.deepEqual(route('GET', `/v2/webhooks/${TEAM}/deliveries`), [
      'listTeamDeliveries',
      { teamId: TEAM },
    ]);
    assert.deepEqual(route('GET', `/v2/prism/${TEAM}/properties`), [
      'listAllProperties',
      { teamId: TEAM },
    ]);
    assert.deepEqual(route('DELETE', `/v2/prism/${TEAM}/contact/count`), {
      kind: 'method_not_allowed',
      path: '/v2/prism/{teamId}/{objectType}/count',
      allow: ['GET'],
    });
    assert.equal(route('GET', '/v3/anything'), undefined);
    assert.equal(route('GET', `/v2/webhooks/${TEAM}/`), undefined);
    for (const [operationId, method, path] of ENDPOINTS) {
      const concrete = path.replace(/\{[^}]+\}/g, (name) =>
        name === '{objectType}'
          ? 'deal'
          : name === '{viewObjectType}'
            ? 'deal'
            : name === '{automationObjectType}'
              ? 'deal'
              : ID,
      );
      const m = contract.match(method, concrete);
      assert.equal(
        m?.kind === 'operation' ? m.operationId : m?.kind,
        operationId,
        `${method} ${concrete}`,
      );
    }
  });

  it('loads once', () => {
    assert.equal(loadContract(), contract);
  });
});
