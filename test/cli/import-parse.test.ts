// ws import: argv in, the options object a verb gets out (the verb itself does not run).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertUsageErrors, options } from '../helpers/parse.ts';

const LIST = '00000000-0000-4000-8000-000000000001';

/** ws import TYPE FILE with no flag. */
function defaults(type: string, file: string) {
  return {
    type,
    file,
    delimiter: undefined,
    encoding: undefined,
    map: [],
    mapFile: undefined,
    saveMap: undefined,
    skip: [],
    ignoreUnknown: false,
    emptyAsNull: false,
    keepWhitespace: false,
    headerLine: undefined,
    locale: undefined,
    percent: undefined,
    excelDates: false,
    lookup: [] as string[],
    onDuplicate: undefined,
    allowMissingKey: false,
    arraySep: ';',
    dateOrder: undefined,
    dedupeBy: undefined,
    caseInsensitive: false,
    noUpdate: false,
    createMissingOptions: false,
    listId: undefined,
    chunkSize: undefined,
    concurrency: 4,
    strict: false,
    dryRun: false,
    wait: true,
    resume: false,
    failedFile: undefined,
    results: undefined,
    command: `ws import ${type} ${file}`,
    again: { head: ['ws', 'import', type], args: [] as string[] },
  };
}

describe('ws import: parsing', () => {
  it('TYPE FILE alone: the defaults', async () => {
    assert.deepEqual(await options(['import', 'contacts', 'people.csv']), {
      ...defaults('contacts', 'people.csv'),
    });
  });

  it('every flag, and the command line that resumes the import', async () => {
    assert.deepEqual(
      await options([
        '--profile',
        'prod',
        'import',
        'contacts',
        'My People.csv',
        '--delimiter',
        'semicolon',
        '--encoding',
        'latin1',
        '--map',
        'E-mail=email',
        '--map',
        'Notes=',
        '--map-file',
        'm.json',
        '--save-map',
        'out.json',
        '--skip',
        'Age',
        '--ignore-unknown',
        '--header-line',
        '4',
        '--locale',
        'de-DE',
        '--percent',
        'Points',
        '--excel-dates',
        '--keep-whitespace',
        '--lookup',
        'Company=organization.name',
        '--empty-as-null',
        '--array-sep',
        '|',
        '--date-format',
        'DMY',
        '--dedupe-by',
        'email',
        '--case-insensitive',
        '--no-update',
        '--on-duplicate',
        'last',
        '--allow-missing-key',
        '--create-missing-options',
        '--list-id',
        LIST,
        '--chunk-size',
        '500',
        '--concurrency',
        '4',
        '--strict',
        '--failed-file',
        'bad.csv',
        '--results',
        'r.ndjson',
        '--resume',
      ]),
      {
        type: 'contacts',
        file: 'My People.csv',
        delimiter: ';',
        encoding: 'latin1',
        map: [
          ['E-mail', 'email'],
          ['Notes', null],
        ],
        mapFile: 'm.json',
        saveMap: 'out.json',
        skip: ['Age'],
        ignoreUnknown: true,
        emptyAsNull: true,
        keepWhitespace: true,
        headerLine: 4,
        locale: 'de-DE',
        percent: 'points',
        excelDates: true,
        lookup: ['Company=organization.name'],
        onDuplicate: 'last',
        allowMissingKey: true,
        arraySep: '|',
        dateOrder: 'dmy',
        dedupeBy: 'email',
        caseInsensitive: true,
        noUpdate: true,
        createMissingOptions: true,
        listId: LIST,
        chunkSize: 500,
        concurrency: 4,
        strict: true,
        dryRun: false,
        wait: true,
        resume: true,
        failedFile: 'bad.csv',
        results: 'r.ndjson',
        command:
          "ws import contacts 'My People.csv' --profile prod --delimiter semicolon --encoding latin1 " +
          '--map E-mail=email --map Notes= --map-file m.json --save-map out.json --skip Age ' +
          '--ignore-unknown --header-line 4 --locale de-DE --percent Points --excel-dates ' +
          '--keep-whitespace --lookup Company=organization.name ' +
          "--empty-as-null --array-sep '|' --date-format DMY --dedupe-by email " +
          '--case-insensitive --no-update --on-duplicate last --allow-missing-key ' +
          `--create-missing-options --list-id ${LIST} ` +
          '--chunk-size 500 --concurrency 4 --strict ' +
          '--failed-file bad.csv --results r.ndjson',
        // The same command on the failed rows: its own files and --resume left out.
        again: {
          head: ['ws', 'import', 'contacts'],
          args: [
            ...['--profile', 'prod', '--delimiter', 'semicolon', '--encoding', 'latin1'],
            ...['--map', 'E-mail=email', '--map', 'Notes=', '--map-file', 'm.json'],
            ...['--skip', 'Age', '--ignore-unknown', '--header-line', '4', '--locale', 'de-DE'],
            ...['--percent', 'Points', '--excel-dates', '--keep-whitespace'],
            ...['--lookup', 'Company=organization.name'],
            ...['--empty-as-null', '--array-sep', '|'],
            ...['--date-format', 'DMY', '--dedupe-by', 'email', '--case-insensitive'],
            ...['--no-update', '--on-duplicate', 'last', '--allow-missing-key'],
            ...['--create-missing-options'],
            ...['--list-id', LIST, '--chunk-size', '500', '--concurrency', '4', '--strict'],
          ],
        },
      },
    );
  });

  it('validate and --dry-run check without sending; --no-wait', async () => {
    assert.deepEqual(await options(['import', 'validate', 'deals', 'deals.csv']), {
      ...defaults('deals', 'deals.csv'),
      dryRun: true,
      command: 'ws import validate deals deals.csv',
      again: { head: ['ws', 'import', 'validate', 'deals'], args: [] },
    });
    assert.deepEqual(await options(['import', 'deals', '-', '--dry-run']), {
      ...defaults('deals', '-'),
      dryRun: true,
      command: 'ws import deals - --dry-run',
      again: { head: ['ws', 'import', 'deals'], args: ['--dry-run'] },
    });
    // Flags given after validate reach it (commander reads them into ws import's options).
    assert.deepEqual(
      await options([
        'import',
        'validate',
        'deals',
        'deals.csv',
        '--create-missing-options',
        '--dedupe-by',
        'name',
        '--no-update',
      ]),
      {
        ...defaults('deals', 'deals.csv'),
        dryRun: true,
        createMissingOptions: true,
        dedupeBy: 'name',
        noUpdate: true,
        command:
          'ws import validate deals deals.csv --dedupe-by name --no-update --create-missing-options',
        again: {
          head: ['ws', 'import', 'validate', 'deals'],
          args: ['--dedupe-by', 'name', '--no-update', '--create-missing-options'],
        },
      },
    );
    assert.deepEqual(await options(['import', 'deals', 'd.csv', '--no-wait']), {
      ...defaults('deals', 'd.csv'),
      wait: false,
      command: 'ws import deals d.csv --no-wait',
      again: { head: ['ws', 'import', 'deals'], args: ['--no-wait'] },
    });
  });

  it('validate takes the flags of the import it checks', async () => {
    // The parent command used to take these before validate saw them.
    assert.deepEqual(
      await options([
        'import',
        'validate',
        'contacts',
        'c.csv',
        '--map',
        'Full name=name',
        '--map-file',
        'm.json',
        '--skip',
        'Notes',
        '--ignore-unknown',
        '--date-format',
        'dmy',
        '--delimiter',
        ';',
      ]),
      {
        ...defaults('contacts', 'c.csv'),
        map: [['Full name', 'name']],
        mapFile: 'm.json',
        skip: ['Notes'],
        ignoreUnknown: true,
        dateOrder: 'dmy',
        delimiter: ';',
        dryRun: true,
        command:
          "ws import validate contacts c.csv --delimiter ';' --map 'Full name=name' " +
          '--map-file m.json --skip Notes --ignore-unknown --date-format dmy',
        again: {
          head: ['ws', 'import', 'validate', 'contacts'],
          args: [
            ...['--delimiter', ';', '--map', 'Full name=name', '--map-file', 'm.json'],
            ...['--skip', 'Notes', '--ignore-unknown', '--date-format', 'dmy'],
          ],
        },
      },
    );
  });

  it('status and jobs', async () => {
    assert.deepEqual(await options(['import', 'status', 'job_1']), {
      job: 'job_1',
      wait: false,
      timeoutSeconds: undefined,
    });
    assert.deepEqual(await options(['import', 'status', 'job_1', '--wait', '--timeout', '90']), {
      job: 'job_1',
      wait: true,
      timeoutSeconds: 90,
    });
    // ws's global --timeout, written before the noun, is also how long --wait waits.
    assert.deepEqual(await options(['--timeout', '5', 'import', 'status', 'job_1', '--wait']), {
      job: 'job_1',
      wait: true,
      timeoutSeconds: 5,
    });
    assert.deepEqual(await options(['import', 'jobs']), { limit: 20 });
    assert.deepEqual(await options(['import', 'jobs', '--limit', '3']), { limit: 3 });
  });

  it('usage errors: exit 2 before anything is read or sent', async () => {
    const cases: [string[], RegExp][] = [
      [['import', 'contacts'], /ws import needs a file \(or - for stdin\)/],
      [['import'], /ws import needs an object type and a file/],
      [
        ['import', 'c', 'f.csv', '--delimiter', 'ab'],
        /--delimiter takes one character .* not "ab"/,
      ],
      [['import', 'c', 'f.csv', '--date-format', 'ymd'], /--date-format takes dmy .* not "ymd"/],
      [['import', 'c', 'f.csv', '--list-id', 'L'], /--list-id "L" is not a list id \(a UUID\)/],
      [['import', 'c', 'f.csv', '--case-insensitive'], /--case-insensitive applies to --dedupe-by/],
      [['import', 'c', 'f.csv', '--no-update'], /--no-update applies to --dedupe-by/],
      [['import', 'c', 'f.csv', '--array-sep', ''], /--array-sep cannot be empty/],
      [
        ['import', 'c', 'f.csv', '--resume', '--dry-run'],
        /--resume continues an import; a dry run/,
      ],
      [
        ['import', 'c', 'f.csv', '--resume', '--no-wait'],
        /--resume and --no-wait do not go together/,
      ],
      [
        ['import', 'c', 'f.csv', '--chunk-size', '0'],
        /--chunk-size takes a whole number from 1 to 100000/,
      ],
      [
        ['import', 'c', 'f.csv', '--concurrency', '33'],
        /--concurrency takes a whole number from 1 to 32/,
      ],
      [
        ['import', 'status', 'j', '--wait', '--timeout', '0'],
        /--timeout takes a positive number of seconds, not "0"/,
      ],
      [['import', 'jobs', '--limit', '0'], /--limit takes a whole number at least 1/],
      [['import', 'c', 'f.csv', '--percent', '100'], /--percent takes points .* or fraction/],
      [
        ['import', 'c', 'f.csv', '--dedupe-by', 'email', '--on-duplicate', 'newest'],
        /--on-duplicate takes fail, first or last, not "newest"/,
      ],
      [
        ['import', 'c', 'f.csv', '--on-duplicate', 'first'],
        /--on-duplicate applies to --dedupe-by/,
      ],
      [
        ['import', 'c', 'f.csv', '--allow-missing-key'],
        /--allow-missing-key applies to --dedupe-by/,
      ],
      [
        ['import', 'c', 'f.csv', '--header-line', '0'],
        /--header-line takes a whole number at least 1/,
      ],
    ];
    await assertUsageErrors(cases);
  });
});
