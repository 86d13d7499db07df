// Run-time form of the API contract: request and response validation against
// src/generated/openapi.json (generated from openapi/openapi.yaml by scripts/gen.mjs).
//
// Schemas are compiled lazily, one validator per operation (requests) or per operation and
// status (responses), and cached; loading the contract itself compiles nothing.

import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import spec from '../generated/openapi.json' with { type: 'json' };
import { isPlainObject } from '../util/guards.ts';
import type {
  Contract,
  FieldError,
  RequestParts,
  ResponseCheckOptions,
  ResponseParts,
} from './types.ts';

type Obj = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Obj;
}

interface OperationInfo {
  operationId: string;
  method: string;
  path: string;
  pathItem: Obj;
  op: Obj;
}

interface RequestValidator {
  validate: ValidateFunction;
  params: Parameter[];
}

/** `$id` under which the components are registered with Ajv. */
const ROOT_ID = 'urn:ws:openapi';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** Per-schema custom messages, keyed by the failing keyword (see openapi.yaml). */
const MESSAGES_KEYWORD = 'x-ws-messages';
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

const addFormats = formatsModule.default;

/** Follows a local JSON pointer (`#/a/b`) inside the document. */
function pointer(doc: Obj, ref: string): unknown {
  if (!ref.startsWith('#')) throw new Error(`contract: only local $refs are supported, got ${ref}`);
  let node: unknown = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isPlainObject(node) || Array.isArray(node) ? (node as Obj)[key] : undefined;
    if (node === undefined) throw new Error(`contract: unresolvable $ref ${ref}`);
  }
  return node;
}

/** Resolves an OpenAPI-level object that may be a `$ref` (parameters, responses, headers, bodies). */
function deref<T>(doc: Obj, node: unknown): T {
  let current = node;
  for (let hops = 0; isPlainObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error('contract: $ref cycle');
    current = pointer(doc, current.$ref);
  }
  return current as T;
}

/** Copy of a schema whose local `$ref`s point into the registered root, so it compiles standalone. */
function absolutize(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(absolutize);
  if (!isPlainObject(node)) return node;
  const out: Obj = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#')
        ? ROOT_ID + value
        : absolutize(value);
  }
  return out;
}

/** Copy of the component schemas in the form Ajv takes: its discriminator does not support `mapping`. */
function forAjv(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forAjv);
  if (!isPlainObject(node)) return node;
  const out: Obj = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'discriminator' && isPlainObject(value)) {
      const { mapping: _mapping, ...rest } = value;
      out[key] = rest;
    } else {
      out[key] = forAjv(value);
    }
  }
  return out;
}

function snake(keyword: string): string {
  return keyword.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function entries(n: number): string {
  return `${n} ${n === 1 ? 'entry' : 'entries'}`;
}

function typeName(type: string): string {
  return type === 'integer' || type === 'array' || type === 'object'
    ? `an ${type}`
    : type === 'null'
      ? 'null'
      : `a ${type}`;
}

/** A lower bound of one reads "must not be empty"; any other, as `phrase` says it. */
function atLeast(limit: unknown, phrase: (n: number) => string): string {
  return Number(limit) === 1 ? 'must not be empty' : phrase(Number(limit));
}

type KeywordParams = Record<string, unknown>;

/** What a failed keyword says of the value that failed it, from the keyword's parameters. */
const KEYWORD_MESSAGES: Partial<Record<string, (p: KeywordParams) => string>> = {
  type: (p) => `must be ${String(p.type).split(',').map(typeName).join(' or ')}`,
  enum: (p) => `must be one of: ${(p.allowedValues as unknown[]).map((v) => String(v)).join(', ')}`,
  const: (p) => `must be ${JSON.stringify(p.allowedValue)}`,
  maximum: (p) => `must be at most ${p.limit}`,
  minimum: (p) => `must be at least ${p.limit}`,
  exclusiveMaximum: (p) => `must be less than ${p.limit}`,
  exclusiveMinimum: (p) => `must be greater than ${p.limit}`,
  multipleOf: (p) => `must be a multiple of ${p.multipleOf}`,
  maxItems: (p) => `must have at most ${plural(Number(p.limit), 'item')}`,
  minItems: (p) => atLeast(p.limit, (n) => `must have at least ${plural(n, 'item')}`),
  maxLength: (p) => `must be at most ${plural(Number(p.limit), 'character')} long`,
  minLength: (p) => atLeast(p.limit, (n) => `must be at least ${plural(n, 'character')} long`),
  maxProperties: (p) => `must have at most ${entries(Number(p.limit))}`,
  minProperties: (p) => atLeast(p.limit, (n) => `must have at least ${entries(n)}`),
  pattern: (p) => `must match the pattern ${p.pattern}`,
  format: (p) => `must be a valid ${p.format}`,
  uniqueItems: (p) => `must not contain duplicates (items ${p.j} and ${p.i} are equal)`,
  oneOf: () => 'must match exactly one of the allowed forms',
  anyOf: () => 'must match one of the allowed forms',
  not: () => 'is not allowed in this form',
  'false schema': () => 'is not allowed',
};

/** The error codes that are not the keyword's own name in snake case (`oneOf` → `one_of`). */
const KEYWORD_CODES: Partial<Record<string, string>> = {
  const: 'enum',
  'false schema': 'not_allowed',
};

function decodePointer(instancePath: string): string[] {
  if (instancePath === '') return [];
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * A field path as the API names it: property names joined by dots, array positions in
 * brackets (`body.actions[2].delay_seconds`), read from the data the pointer walks.
 */
function fieldPath(prefix: readonly string[], data: unknown, pointer: string): string[] {
  const path = [...prefix];
  let node = data;
  for (const part of decodePointer(pointer)) {
    if (Array.isArray(node) && path.length > 0) path[path.length - 1] += `[${part}]`;
    else path.push(part);
    node = isPlainObject(node) || Array.isArray(node) ? (node as Obj)[part] : undefined;
  }
  return path;
}

class LoadedContract implements Contract {
  private readonly doc: Obj;
  private readonly ops = new Map<string, OperationInfo>();
  private ajvInstance: Ajv2020 | undefined;
  private readonly requestValidators = new Map<string, RequestValidator>();
  private readonly bodyValidators = new Map<string, ValidateFunction>();
  private readonly headerValidators = new Map<string, ValidateFunction>();

  constructor(doc: Obj) {
    this.doc = doc;
    const paths = isPlainObject(doc.paths) ? doc.paths : {};
    for (const [path, rawItem] of Object.entries(paths)) {
      const pathItem = deref<Obj>(doc, rawItem);
      for (const method of METHODS) {
        const op = pathItem[method];
        if (!isPlainObject(op) || typeof op.operationId !== 'string') continue;
        const info = {
          operationId: op.operationId,
          method: method.toUpperCase(),
          path,
          pathItem,
          op,
        };
        if (this.ops.has(info.operationId)) {
          throw new Error(`contract: duplicate operationId ${info.operationId}`);
        }
        this.ops.set(info.operationId, info);
      }
    }
  }

  operationIds(): string[] {
    return [...this.ops.keys()];
  }

  operation(operationId: string): { method: string; path: string } | undefined {
    const info = this.ops.get(operationId);
    return info ? { method: info.method, path: info.path } : undefined;
  }

  validateRequest(operationId: string, req: RequestParts): FieldError[] {
    const validator = this.requestValidator(operationId);
    const groups: Record<string, Obj> = { path: {}, query: {}, header: {} };
    for (const param of validator.params) {
      const raw =
        param.in === 'path'
          ? req.params[param.name]
          : param.in === 'query'
            ? req.query[param.name]
            : req.headers[param.name.toLowerCase()];
      if (raw === undefined) continue;
      const key = param.in === 'header' ? param.name.toLowerCase() : param.name;
      groups[param.in]![key] = this.coerce(raw, param.schema);
    }
    const input: Obj = { ...groups };
    if (req.body !== undefined) input.body = req.body;
    if (validator.validate(input)) return [];
    return this.fieldErrors(validator.validate.errors ?? [], [], input);
  }

  validateResponse(
    operationId: string,
    res: ResponseParts,
    options: ResponseCheckOptions = {},
  ): string[] {
    const info = this.info(operationId);
    const label = `${operationId} ${res.status}`;
    const responses = isPlainObject(info.op.responses) ? info.op.responses : {};
    const key = [String(res.status), `${Math.floor(res.status / 100)}XX`, 'default'].find(
      (k) => k in responses,
    );
    if (key === undefined) {
      return [
        `${label}: status ${res.status} is not documented for ${operationId} (documented: ${Object.keys(responses).join(', ')})`,
      ];
    }
    const response = deref<Obj>(this.doc, responses[key]);
    const problems: string[] = [];
    const schema = this.jsonSchemaOf(response.content);
    const empty = res.body === undefined || res.body === null || res.body === '';
    if (schema === undefined) {
      if (!empty) problems.push(`${label}: documented without a body, but a body was sent`);
    } else if (res.body === undefined) {
      problems.push(`${label}: body is missing`);
    } else {
      const validate = this.bodyValidator(`${operationId} ${key}`, schema);
      if (!validate(res.body)) {
        for (const e of this.fieldErrors(validate.errors ?? [], ['body'], res.body)) {
          problems.push(`${label}: ${e.field} ${e.message}`);
        }
      }
    }
    if (options.headers)
      problems.push(...this.checkHeaders(label, `${operationId} ${key}`, response, res));
    return problems;
  }

  validateSchema(name: string, value: unknown): string[] {
    const schemas = isPlainObject(this.doc.components)
      ? (this.doc.components.schemas as Obj | undefined)
      : undefined;
    if (!isPlainObject(schemas?.[name])) throw new Error(`contract: no schema named ${name}`);
    const validate = this.bodyValidator(`schema ${name}`, {
      $ref: `#/components/schemas/${name}`,
    });
    if (validate(value)) return [];
    return this.fieldErrors(validate.errors ?? [], [name], value).map(
      (e) => `${e.field} ${e.message}`,
    );
  }

  // ---------------------------------------------------------------- internals

  private info(operationId: string): OperationInfo {
    const info = this.ops.get(operationId);
    if (!info) throw new Error(`contract: unknown operationId ${JSON.stringify(operationId)}`);
    return info;
  }

  private get ajv(): Ajv2020 {
    if (this.ajvInstance) return this.ajvInstance;
    const ajv = new Ajv2020({
      strict: true,
      strictRequired: false,
      allErrors: true,
      verbose: true,
      allowUnionTypes: true,
      discriminator: true,
    });
    addFormats(ajv);
    // OpenAPI annotations that may sit in schemas, and the root's container keyword.
    for (const keyword of ['components', 'example', 'externalDocs', 'xml', MESSAGES_KEYWORD]) {
      ajv.addKeyword({ keyword });
    }
    const components = isPlainObject(this.doc.components) ? this.doc.components : {};
    ajv.addSchema(
      { $id: ROOT_ID, components: { schemas: forAjv(components.schemas ?? {}) } },
      undefined,
      undefined,
      false,
    );
    this.ajvInstance = ajv;
    return ajv;
  }

  private jsonSchemaOf(content: unknown): Obj | undefined {
    if (!isPlainObject(content)) return undefined;
    const media =
      content['application/json'] ??
      Object.entries(content).find(([type]) => /json/i.test(type))?.[1];
    return isPlainObject(media) && isPlainObject(media.schema) ? media.schema : undefined;
  }

  private parameters(info: OperationInfo): Parameter[] {
    const merged = new Map<string, Parameter>();
    for (const list of [info.pathItem.parameters, info.op.parameters]) {
      if (!Array.isArray(list)) continue;
      for (const raw of list) {
        const param = deref<Parameter>(this.doc, raw);
        merged.set(`${param.in}:${param.name}`, param);
      }
    }
    return [...merged.values()].filter((p) => p.in !== 'cookie');
  }

  private requestValidator(operationId: string): RequestValidator {
    const cached = this.requestValidators.get(operationId);
    if (cached) return cached;
    const info = this.info(operationId);
    const params = this.parameters(info);
    const group = (where: Parameter['in']) => {
      const properties: Obj = {};
      const required: string[] = [];
      for (const p of params.filter((x) => x.in === where)) {
        const key = where === 'header' ? p.name.toLowerCase() : p.name;
        properties[key] = absolutize(p.schema ?? {});
        if (p.required || where === 'path') required.push(key);
      }
      return { type: 'object', properties, required };
    };
    const properties: Obj = { path: group('path'), query: group('query'), header: group('header') };
    const required = ['path', 'query', 'header'];
    if (info.op.requestBody !== undefined) {
      const body = deref<Obj>(this.doc, info.op.requestBody);
      const schema = this.jsonSchemaOf(body.content);
      if (schema) properties.body = absolutize(schema);
      if (body.required) required.push('body');
    }
    const validate = this.ajv.compile({ type: 'object', properties, required });
    const validator = { validate, params };
    this.requestValidators.set(operationId, validator);
    return validator;
  }

  private bodyValidator(key: string, schema: Obj): ValidateFunction {
    let validate = this.bodyValidators.get(key);
    if (!validate) {
      validate = this.ajv.compile(absolutize(schema) as Obj);
      this.bodyValidators.set(key, validate);
    }
    return validate;
  }

  private checkHeaders(
    label: string,
    cacheKey: string,
    response: Obj,
    res: ResponseParts,
  ): string[] {
    const problems: string[] = [];
    const actual = new Map<string, unknown>();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) actual.set(name.toLowerCase(), value);
    }
    const declared = isPlainObject(response.headers) ? response.headers : {};
    for (const [name, raw] of Object.entries(declared)) {
      const header = deref<Obj>(this.doc, raw);
      const value = actual.get(name.toLowerCase());
      if (value === undefined) {
        if (header.required) problems.push(`${label}: header ${name} is missing`);
        continue;
      }
      const schema = isPlainObject(header.schema) ? header.schema : {};
      const key = `${cacheKey} ${name.toLowerCase()}`;
      let validate = this.headerValidators.get(key);
      if (!validate) {
        validate = this.ajv.compile(absolutize(schema) as Obj);
        this.headerValidators.set(key, validate);
      }
      const coerced = this.coerce(
        typeof value === 'number' ? String(value) : (value as string | string[]),
        schema,
      );
      if (!validate(coerced)) {
        for (const e of this.fieldErrors(validate.errors ?? [], [`header ${name}`], coerced)) {
          problems.push(`${label}: ${e.field} ${e.message}`);
        }
      }
    }
    return problems;
  }

  /** JSON types a schema admits, following `$ref`s and combinators. */
  private typesOf(schema: unknown, depth = 0): Set<string> {
    const types = new Set<string>();
    if (!isPlainObject(schema) || depth > 10) return types;
    if (typeof schema.$ref === 'string') {
      for (const t of this.typesOf(pointer(this.doc, schema.$ref), depth + 1)) types.add(t);
    }
    if (typeof schema.type === 'string') types.add(schema.type);
    if (Array.isArray(schema.type)) for (const t of schema.type) types.add(String(t));
    for (const key of ['anyOf', 'oneOf', 'allOf']) {
      const list = schema[key];
      if (Array.isArray(list)) {
        for (const sub of list) for (const t of this.typesOf(sub, depth + 1)) types.add(t);
      }
    }
    if (types.size === 0 && Array.isArray(schema.enum)) {
      for (const v of schema.enum) types.add(typeof v === 'number' ? 'number' : typeof v);
    }
    return types;
  }

  private itemsOf(schema: unknown, depth = 0): unknown {
    if (!isPlainObject(schema) || depth > 10) return undefined;
    if (schema.items !== undefined) return schema.items;
    if (typeof schema.$ref === 'string')
      return this.itemsOf(pointer(this.doc, schema.$ref), depth + 1);
    return undefined;
  }

  /** Parameter text as an HTTP server reads it: numbers, booleans, arrays for repeated names. */
  private coerce(raw: string | string[], schema: unknown): unknown {
    const types = this.typesOf(schema);
    if (Array.isArray(raw)) {
      if (!types.has('array')) return [...raw];
      const itemTypes = this.typesOf(this.itemsOf(schema));
      return raw.map((v) => this.scalar(v, itemTypes));
    }
    if (types.has('array') && !types.has('string')) {
      return [this.scalar(raw, this.typesOf(this.itemsOf(schema)))];
    }
    return this.scalar(raw, types);
  }

  private scalar(raw: string, types: Set<string>): unknown {
    if (types.size === 0 || types.has('string')) return raw;
    if ((types.has('integer') || types.has('number')) && NUMERIC.test(raw.trim())) {
      return Number(raw);
    }
    if (types.has('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
    if (types.has('null') && raw === '') return null;
    return raw;
  }

  /** The enum of a discriminator's tag, read from the tag's `const`/`enum` in each branch. */
  private discriminatorValues(parent: unknown, tag: string): string[] {
    const values: string[] = [];
    if (!isPlainObject(parent) || !Array.isArray(parent.oneOf)) return values;
    for (const branch of parent.oneOf) {
      let sub: unknown = branch;
      if (isPlainObject(sub) && typeof sub.$ref === 'string') {
        const ref = sub.$ref.startsWith(ROOT_ID) ? sub.$ref.slice(ROOT_ID.length) : sub.$ref;
        sub = pointer(this.doc, ref);
      }
      const prop =
        isPlainObject(sub) && isPlainObject(sub.properties) ? sub.properties[tag] : undefined;
      if (isPlainObject(prop) && prop.const !== undefined) values.push(String(prop.const));
      else if (isPlainObject(prop) && Array.isArray(prop.enum))
        values.push(...prop.enum.map(String));
    }
    return values;
  }

  /**
   * Ajv errors as field errors: fields under `prefix` (dotted, array positions in brackets, as
   * `data` shows them), readable messages, stable codes.
   *
   * A failed `anyOf`/`oneOf` is preceded by the errors of its branches (Ajv reports them as one
   * contiguous run at or below the combinator's instance path). When some branch got past the
   * type check, its deeper errors say more than "must match one of the allowed forms", so they
   * are kept and the branch type mismatches dropped; when every branch failed on type alone, the
   * answer is one type error listing the accepted types. A schema's `x-ws-messages` entry for the
   * combinator replaces the whole run with its message.
   */
  private fieldErrors(errors: ErrorObject[], prefix: string[], data: unknown): FieldError[] {
    const dropped = new Set<ErrorObject>();
    const overrides = new Map<ErrorObject, { code: string; message: string }>();
    const under = (path: string, base: string) => path === base || path.startsWith(`${base}/`);
    errors.forEach((e, index) => {
      if (e.keyword === 'if' || e.keyword === 'propertyNames') dropped.add(e);
      if (e.keyword !== 'oneOf' && e.keyword !== 'anyOf') return;
      let first = index;
      while (first > 0 && under(errors[first - 1]!.instancePath, e.instancePath)) first--;
      const run = errors.slice(first, index).filter((b) => !dropped.has(b));
      if (this.customMessage(e) !== undefined) {
        for (const b of run) dropped.add(b);
        return;
      }
      const typeMismatches = run.filter(
        (b) => b.keyword === 'type' && b.instancePath === e.instancePath,
      );
      if (run.length === 0) return;
      for (const b of typeMismatches) dropped.add(b);
      if (run.length > typeMismatches.length) {
        dropped.add(e);
      } else {
        const types = new Set(typeMismatches.flatMap((b) => String(b.params.type).split(',')));
        overrides.set(e, {
          code: 'type',
          message: `must be ${[...types].map(typeName).join(' or ')}`,
        });
      }
    });

    const out: FieldError[] = [];
    const seen = new Set<string>();
    for (const e of errors) {
      if (dropped.has(e)) continue;
      const fe = { ...this.fieldError(e, prefix, data), ...overrides.get(e) };
      const key = `${fe.field}\u0000${fe.code}\u0000${fe.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(fe);
    }
    return out;
  }

  private customMessage(e: ErrorObject): string | undefined {
    const parent = e.parentSchema;
    const messages = isPlainObject(parent) ? parent[MESSAGES_KEYWORD] : undefined;
    const message = isPlainObject(messages) ? messages[e.keyword] : undefined;
    return typeof message === 'string' ? message : undefined;
  }

  private fieldError(e: ErrorObject, prefix: string[], data: unknown): FieldError {
    const path = fieldPath(prefix, data, e.instancePath);
    const p = e.params as Record<string, unknown>;
    let code = KEYWORD_CODES[e.keyword] ?? snake(e.keyword);
    let message = KEYWORD_MESSAGES[e.keyword]?.(p) ?? e.message ?? 'is invalid';
    switch (e.keyword) {
      case 'required':
      case 'dependentRequired':
        path.push(String(p.missingProperty));
        code = 'required';
        message = 'is required';
        break;
      case 'additionalProperties':
        path.push(String(p.additionalProperty));
        code = 'unknown_field';
        message = 'is not allowed';
        break;
      case 'unevaluatedProperties':
        path.push(String(p.unevaluatedProperty));
        code = 'unknown_field';
        message = 'is not allowed';
        break;
      case 'discriminator': {
        const tag = String(p.tag);
        path.push(tag);
        const value = isPlainObject(e.data) ? e.data[tag] : undefined;
        if (p.error === 'tag' && value === undefined) {
          code = 'required';
          message = 'is required';
        } else if (p.error === 'tag') {
          code = 'type';
          message = 'must be a string';
        } else {
          code = 'enum';
          message = `must be one of: ${this.discriminatorValues(e.parentSchema, tag).join(', ')}`;
        }
        break;
      }
    }
    if (e.propertyName !== undefined) {
      path.push(e.propertyName);
      message = `is not an accepted key (${message})`;
    }
    const custom = this.customMessage(e);
    return { field: path.join('.'), message: custom ?? message, code };
  }
}

let loaded: LoadedContract | undefined;

/** The API contract, loaded once per process (schemas compile lazily on first use). */
export function loadContract(): Contract {
  loaded ??= new LoadedContract(spec as unknown as Obj);
  return loaded;
}
