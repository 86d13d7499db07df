import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildFilter } from '../../src/query/filter.ts';
import {
  type Filter,
  formatComparison,
  formatWhere,
  OPERATORS,
  parseWhere,
  parseWhereExpr,
} from '../../src/query/where.ts';
import { DEFS, usage } from './where-fixtures.ts';

const withDefs = { definitions: DEFS, objectType: 'deal' };

describe('parseWhere: the short form, every symbol', () => {
  const cases: [string, Filter][] = [
    ['name=Acme', { name: { '=': 'Acme' } }],
    ['name!=Acme', { name: { '!=': 'Acme' } }],
    ['amount<10', { amount: { '<': '10' } }],
    ['amount>10', { amount: { '>': '10' } }],
    ['amount<=10', { amount: { '<=': '10' } }],
    ['amount>=1000', { amount: { '>=': '1000' } }],
    ['name~acme', { name: { contains: 'acme' } }],
    ['name!~acme', { name: { not_contains: 'acme' } }],
    ['name^=Ac', { name: { begins_with: 'Ac' } }],
    ['email$=@acme.com', { email: { ends_with: '@acme.com' } }],
  ];
  for (const [expr, want] of cases) {
    it(expr, () => assert.deepEqual(parseWhereExpr(expr), want));
  }

  it('drops spaces around the slug, the operator and the value', () => {
    assert.deepEqual(parseWhereExpr('  amount >=  1000 '), { amount: { '>=': '1000' } });
    assert.deepEqual(parseWhereExpr('name = Acme Corp'), { name: { '=': 'Acme Corp' } });
  });

  it('keeps what is inside double quotes: spaces, an empty string, quotes and backslashes', () => {
    assert.deepEqual(parseWhereExpr('name=" x "'), { name: { '=': ' x ' } });
    assert.deepEqual(parseWhereExpr('name=""'), { name: { '=': '' } });
    assert.deepEqual(parseWhereExpr('name="say \\"hi\\" \\\\ bye"'), {
      name: { '=': 'say "hi" \\ bye' },
    });
    assert.deepEqual(parseWhereExpr('name="=x"'), { name: { '=': '=x' } });
  });

  it('takes a value with commas, colons and other operators as it is', () => {
    assert.deepEqual(parseWhereExpr('name=Acme, Inc'), { name: { '=': 'Acme, Inc' } });
    assert.deepEqual(parseWhereExpr('time=10:30'), { time: { '=': '10:30' } });
    assert.deepEqual(parseWhereExpr('name~a>=b'), { name: { contains: 'a>=b' } });
    assert.deepEqual(parseWhereExpr('name=a\\,b'), { name: { '=': 'a\\,b' } });
  });

  it('reads dot-paths and slugs with digits, _ and -', () => {
    assert.deepEqual(parseWhereExpr('organization.name^=Ac'), {
      'organization.name': { begins_with: 'Ac' },
    });
    assert.deepEqual(parseWhereExpr('field_2-b=x'), { 'field_2-b': { '=': 'x' } });
  });

  it('true and false are booleans for = and != unless quoted', () => {
    assert.deepEqual(parseWhereExpr('active=true'), { active: { '=': true } });
    assert.deepEqual(parseWhereExpr('active!=FALSE'), { active: { '!=': false } });
    assert.deepEqual(parseWhereExpr('title="true"'), { title: { '=': 'true' } });
    assert.deepEqual(parseWhereExpr('title~true'), { title: { contains: 'true' } });
  });
});

describe('parseWhere: the long form, every operator', () => {
  const cases: [string, Filter][] = [
    ['name:eq=Acme', { name: { '=': 'Acme' } }],
    ['name:ne=Acme', { name: { '!=': 'Acme' } }],
    ['amount:lt=5', { amount: { '<': '5' } }],
    ['amount:gt=5', { amount: { '>': '5' } }],
    ['amount:lte=5', { amount: { '<=': '5' } }],
    ['amount:gte=5', { amount: { '>=': '5' } }],
    ['name:contains=acme', { name: { contains: 'acme' } }],
    ['name:not_contains=acme', { name: { not_contains: 'acme' } }],
    ['name:begins_with=Ac', { name: { begins_with: 'Ac' } }],
    ['email:ends_with=@acme.com', { email: { ends_with: '@acme.com' } }],
    ['phone:is_null', { phone: { is_null: true } }],
    ['phone:is_not_null', { phone: { is_not_null: true } }],
    ['phone:exists', { phone: { exists: true } }],
    ['phone:not_exists', { phone: { not_exists: true } }],
    ['phone:is_null=false', { phone: { is_null: false } }],
    ['phone:exists=true', { phone: { exists: true } }],
    [
      'created_at:between=2026-01-01,2026-06-30',
      { created_at: { between: ['2026-01-01', '2026-06-30'] } },
    ],
    ['stage:in=won,lost', { stage: { in: ['won', 'lost'] } }],
    ['stage:not_in=won', { stage: { not_in: ['won'] } }],
    ['stage:IN=won', { stage: { in: ['won'] } }],
  ];
  for (const [expr, want] of cases) {
    it(expr, () => assert.deepEqual(parseWhereExpr(expr), want));
  }

  it('covers every operator of the API', () => {
    const seen = new Set(cases.flatMap(([, f]) => Object.values(f).flatMap((c) => Object.keys(c))));
    assert.deepEqual([...seen].sort(), [...OPERATORS].sort());
  });

  it('lists: \\, is a comma inside a value, double quotes keep a value as written', () => {
    assert.deepEqual(parseWhereExpr('name:in=Acme\\, Inc,Globex'), {
      name: { in: ['Acme, Inc', 'Globex'] },
    });
    assert.deepEqual(parseWhereExpr('name:in="Acme, Inc" , " Globex ",""'), {
      name: { in: ['Acme, Inc', ' Globex ', ''] },
    });
    assert.deepEqual(parseWhereExpr('name:in=a\\\\b'), { name: { in: ['a\\b'] } });
    assert.deepEqual(parseWhereExpr('name:in= a , b '), { name: { in: ['a', 'b'] } });
  });

  it('parseWhere keeps one entry per expression, in order', () => {
    assert.deepEqual(parseWhere(['amount>=1000', 'name~acme']), [
      { amount: { '>=': '1000' } },
      { name: { contains: 'acme' } },
    ]);
    assert.deepEqual(parseWhere([]), []);
  });
});

describe('parseWhere: every syntax error names the expression and the fix', () => {
  const cases: [string, RegExp, RegExp?][] = [
    ['', /it is empty/],
    ['   ', /it is empty/],
    ['>=5', /must start with a property slug/, /SLUG OP VALUE/],
    ['amount', /no operator follows "amount"/, /SLUG OP VALUE/],
    ['amount 5', /"5" does not start with an operator/],
    ['amount:gtee=5', /"gtee" is not an operator/, /Did you mean "gte"/],
    ['amount:=5', /an operator name must follow ":"/, /Operators: eq, ne/],
    ['amount:gte5', /"=" must follow the operator gte/],
    ['amount>=', /">=" needs a value/, /amount>=VALUE/],
    ['name=', /"=" needs a value/, /name=""; for a missing value, name:is_null/],
    ['name:in', /"in" needs values/, /name:in=A,B/],
    ['name:not_in=', /"not_in" needs values/],
    ['created_at:between=2026-01-01', /"between" takes two values, low and high, not 1/],
    ['created_at:between=a,b,c', /not 3/],
    ['stage:in=won,,lost', /value 2 of the list is empty/, /write "" for an empty string/],
    ['stage:in=won,', /value 2 of the list is empty/],
    ['stage:in="won" x,lost', /text after the closing quote of value 1/],
    ['name="abc', /a double quote is not closed/, /\\"/],
    ['name="a"b', /there is text after the closing quote/],
    ['phone:is_null=maybe', /"is_null" takes true or false, not "maybe"/, /phone:is_null=false/],
    ['phone:exists="true"', /"exists" takes true or false/],
    ['a==b', /the value starts with "="/, /quote it/],
    ['a>==b', /the value starts with "="/],
    ['amount=>5', /"=>" is not an operator/, /Did you mean ">="\? .*quote it: amount=">…"/],
    ['amount=<5', /"=<" is not an operator/, /Did you mean "<="\?/],
    ['a.=b', /must start with a property slug|does not start with an operator/],
  ];
  for (const [expr, message, hint] of cases) {
    it(JSON.stringify(expr), () => {
      const e = usage(() => parseWhereExpr(expr));
      assert.ok(e.message.startsWith(`Bad --where "${expr}": `), e.message);
      assert.match(e.message, message);
      if (hint) assert.match(e.hint ?? '', hint);
    });
  }
});

describe('parseWhere with definitions', () => {
  it('accepts known slugs', () => {
    assert.deepEqual(parseWhere(['amount>=1000', 'name=abc'], withDefs), [
      { amount: { '>=': '1000' } },
      { name: { '=': 'abc' } },
    ]);
  });

  it('id is not a filter of the API: a usage error saying how to read records by id', () => {
    for (const opts of [withDefs, {}]) {
      for (const expr of ['id=abc', 'id:in=a,b', 'id.x=1']) {
        const e = usage(() => parseWhere([expr], opts));
        assert.equal(e.message, `Bad --where "${expr}": the API does not filter records by id.`);
        assert.match(
          e.hint ?? '',
          /^To read a record by id: ws records get (deal|TYPE) ID; several: ws records query (deal|TYPE) --body '\{"id":\["ID1","ID2"\]\}'\.$/,
        );
      }
    }
    // A workspace property whose slug is id is a property like any other.
    const own = { definitions: [...DEFS, { ...DEFS[0]!, slug: 'id' }], objectType: 'deal' };
    assert.deepEqual(parseWhere(['id=7'], own), [{ id: { '=': '7' } }]);
    const json = usage(() => buildFilter({ filterJson: '[{"id":{"=":"x"}}]' }, withDefs));
    assert.equal(json.message, '--filter-json (item 1): the API does not filter records by id.');
  });

  it('number and date properties: a value the API cannot read as one is a usage error', () => {
    const cases: [string, RegExp, string][] = [
      [
        'amount>abc',
        /"amount" is a number property, and "abc" is not a number\.$/,
        'e.g. amount>10.',
      ],
      ['amount=ten', /"ten" is not a number/, 'e.g. amount=10.'],
      ['amount:between=1,x', /"x" is not a number/, 'e.g. amount:between=10,20.'],
      ['amount:in=1,,2', /value 2 of the list is empty/, ''],
      ['amount:not_in=one', /"one" is not a number/, 'e.g. amount:not_in=10,20.'],
      [
        'created_at>=yesterday',
        /"created_at" is a date property, and "yesterday" is not a date/,
        'e.g. created_at>=2026-03-31.',
      ],
      [
        'created_at:between=2026-01-01,2026-02-30',
        /"2026-02-30" is not a date/,
        'e.g. created_at:between=2026-01-01,2026-06-30.',
      ],
    ];
    for (const [expr, message, hint] of cases) {
      const e = usage(() => parseWhere([expr], withDefs));
      assert.ok(e.message.startsWith(`Bad --where "${expr}": `), e.message);
      assert.match(e.message, message);
      if (hint) assert.equal(e.hint, hint);
    }
    // Sent as the API reads them; text operators and dot-paths are not typed here.
    assert.deepEqual(
      parseWhere(
        [
          'amount>=1_000',
          'amount:between=-1.5,2e3',
          'created_at<2026-03-31T11:30:00+02:00',
          'amount~12',
          'organization.founded>abc',
        ],
        withDefs,
      ),
      [
        { amount: { '>=': '1000' } },
        { amount: { between: ['-1.5', '2000'] } },
        { created_at: { '<': '2026-03-31T09:30:00.000Z' } },
        { amount: { contains: '12' } },
        { 'organization.founded': { '>': 'abc' } },
      ],
    );
    // Without definitions nothing is known of the types: sent as written.
    assert.deepEqual(parseWhere(['amount>abc']), [{ amount: { '>': 'abc' } }]);
    // --filter-json is sent as given, but checked the same way.
    const json = (text: string) => buildFilter({ filterJson: text }, withDefs);
    assert.equal(
      usage(() => json('[{"amount":{">":"abc"}}]')).message,
      '--filter-json (item 1): "amount" is a number property, and "abc" is not a number.',
    );
    assert.match(
      usage(() => json('[{"name":{"=":"x"}},{"created_at":{"between":"2026-01-01,soon"}}]'))
        .message,
      /^--filter-json \(item 2\): "created_at" is a date property, and "soon" is not a date/,
    );
    assert.match(usage(() => json('[{"amount":{"in":["1","x"]}}]')).message, /"x" is not a number/);
    assert.deepEqual(json('[{"amount":{"between":"1,2e3"}},{"amount":{"contains":"x"}}]').filter, [
      { amount: { between: '1,2e3' } },
      { amount: { contains: 'x' } },
    ]);
  });

  it('an unknown slug: "did you mean" the closest ones', () => {
    const e = usage(() => parseWhere(['amout>=5'], withDefs));
    assert.equal(
      e.message,
      'Unknown property "amout" in --where "amout>=5": deal has no property with that slug.',
    );
    assert.equal(e.hint, 'Did you mean "amount"?');
  });

  it('an unknown slug nothing is close to: the known slugs', () => {
    const e = usage(() => parseWhere(['zzzzzz=1'], withDefs));
    assert.match(
      e.hint ?? '',
      /^Known slugs: active, amount, created_at, email, name, organization, phone, stage\.$/,
    );
  });

  it('dot-paths are checked on their first segment, which must be a reference', () => {
    assert.deepEqual(parseWhere(['organization.anything=x'], withDefs), [
      { 'organization.anything': { '=': 'x' } },
    ]);
    const unknown = usage(() => parseWhere(['organisation.name=x'], withDefs));
    assert.match(unknown.message, /Unknown property "organisation"/);
    assert.equal(unknown.hint, 'Did you mean "organization"?');
    const notRef = usage(() => parseWhere(['amount.value=1'], withDefs));
    assert.match(notRef.message, /follows "amount", which is a num property, not a reference/);
  });

  it('select values by option slug, display value or id are sent as slugs', () => {
    assert.deepEqual(
      parseWhere(['stage=Won', 'stage!=lost', 'stage:in=In progress,won'], withDefs),
      [
        { stage: { '=': 'won' } },
        { stage: { '!=': 'lost' } },
        { stage: { in: ['in_progress', 'won'] } },
      ],
    );
    assert.deepEqual(parseWhere(['stage:not_in=in progress'], withDefs), [
      { stage: { not_in: ['in_progress'] } },
    ]);
    const id = DEFS.at(-1)!.options![0]!.id;
    assert.deepEqual(parseWhere([`stage=${id}`], withDefs), [{ stage: { '=': id } }]);
    // contains is a text match, not an option
    assert.deepEqual(parseWhere(['stage~wo'], withDefs), [{ stage: { contains: 'wo' } }]);
  });

  it('an unknown option: the options, and the closest', () => {
    const e = usage(() => parseWhere(['stage=wno'], withDefs));
    assert.equal(e.message, 'Bad --where "stage=wno": "wno" is not an option of "stage".');
    assert.equal(
      e.hint,
      'Did you mean "won"? Options: won (Won), lost (Lost), in_progress (In progress).',
    );
  });

  it('a bool property takes true or false; text properties keep "true" as text', () => {
    assert.deepEqual(parseWhere(['active=TRUE'], withDefs), [{ active: { '=': true } }]);
    const e = usage(() => parseWhere(['active=yes'], withDefs));
    assert.match(e.message, /"active" is a true\/false property/);
    assert.equal(e.hint, 'Compare it with true or false, e.g. active=true.');
    assert.deepEqual(parseWhere(['name=true'], withDefs), [{ name: { '=': 'true' } }]);
  });

  it('extraSlugs replaces the slugs accepted without a definition', () => {
    assert.throws(
      () => parseWhere(['uid=1'], { ...withDefs, extraSlugs: [] }),
      /Unknown property "uid"/,
    );
    assert.deepEqual(parseWhere(['rank=1'], { ...withDefs, extraSlugs: ['rank'] }), [
      { rank: { '=': '1' } },
    ]);
  });

  it('without objectType the message still reads', () => {
    const e = usage(() => parseWhere(['amout>=5'], { definitions: DEFS }));
    assert.match(e.message, /: there is no property with that slug\.$/);
  });
});

describe('formatWhere', () => {
  it('writes each comparison in the shortest form that reads back the same', () => {
    const filter: Filter[] = [
      { amount: { '>=': '1000' } },
      { name: { contains: 'acme', not_contains: 'x' } },
      { email: { ends_with: '@acme.com' } },
      { name: { begins_with: 'Ac' } },
      { stage: { in: ['won', 'lost'] } },
      { stage: { not_in: ['a,b', ' c', '', '"q"', 'x\\y'] } },
      { created_at: { between: ['2026-01-01', '2026-06-30'] } },
      { phone: { is_null: true } },
      { phone: { is_not_null: false } },
      { phone: { exists: true, not_exists: false } },
      { active: { '=': true } },
      { title: { '=': 'true' } },
      { name: { '!=': '' } },
      { name: { '=': ' padded ' } },
      { name: { '=': '=x' } },
      { name: { '=': '>x' } },
      { name: { '<': '"q' } },
      { 'organization.name': { '=': 'Acme' } },
    ];
    const exprs = formatWhere(filter);
    assert.deepEqual(exprs, [
      'amount>=1000',
      'name~acme',
      'name!~x',
      'email$=@acme.com',
      'name^=Ac',
      'stage:in=won,lost',
      'stage:not_in=a\\,b," c","","\\"q\\"",x\\\\y',
      'created_at:between=2026-01-01,2026-06-30',
      'phone:is_null',
      'phone:is_not_null=false',
      'phone:exists',
      'phone:not_exists=false',
      'active=true',
      'title="true"',
      'name!=""',
      'name=" padded "',
      'name="=x"',
      'name=">x"',
      'name<"\\"q"',
      'organization.name=Acme',
    ]);
    // Reading them back gives the same comparisons (one entry per expression).
    const flat = filter.flatMap((entry) =>
      Object.entries(entry).flatMap(([slug, c]) =>
        Object.entries(c).map(([op, v]) => ({ [slug]: { [op]: v } })),
      ),
    );
    assert.deepEqual(parseWhere(exprs), flat);
  });

  it('shows what --where cannot write as JSON in the long form', () => {
    assert.equal(formatComparison('amount', '>=', 5), 'amount>=5');
    assert.equal(formatComparison('amount', 'between', [1, 2]), 'amount:between=[1,2]');
    assert.equal(formatComparison('phone', 'is_null', 'yes'), 'phone:is_null=yes');
    assert.equal(formatComparison('odd slug', '=', 'x'), '"odd slug"=x');
    assert.deepEqual(formatWhere(null), []);
    assert.deepEqual(formatWhere(undefined), []);
  });
});
