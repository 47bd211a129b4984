// The `format` checks against the official JSON Schema Test Suite (tests/<draft>/optional/format/*.json),
// plus unit tests for each module of src/formats/.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { isDate, isDateTime, isTime } from '../src/formats/date-time.js';
import { isDuration } from '../src/formats/duration.js';
import { isEmail, isIdnEmail } from '../src/formats/email.js';
import { isHostname, isIdnHostname } from '../src/formats/hostname.js';
import { formatsFor } from '../src/formats/index.js';
import { isIpv4, isIpv6 } from '../src/formats/ip.js';
import { derivedProperty } from '../src/formats/idna-properties.js';
import { isJsonPointer, isRelativeJsonPointer, isRelativeJsonPointerWithIndexManipulation } from '../src/formats/json-pointer.js';
import { decodePunycode, encodePunycode } from '../src/formats/punycode.js';
import { isRegex } from '../src/formats/regex.js';
import { bidiClass, joiningType, isVirama } from '../src/formats/unicode-properties.js';
import { isUriTemplate } from '../src/formats/uri-template.js';
import { isIri, isIriReference, isUri, isUriReference } from '../src/formats/uri.js';
import { isUuid } from '../src/formats/uuid.js';
import type { Draft } from '../src/types.js';
import { property } from './support/property.js';

const suiteRoot =
  process.env['JSON_SCHEMA_TEST_SUITE'] ??
  resolve(dirname(fileURLToPath(import.meta.url)), '../../shared/json-schema-test-suite');

const drafts: readonly Draft[] = ['draft4', 'draft6', 'draft7', 'draft2019-09', 'draft2020-12'];

/**
 * '<draft>/<file>/<case description>/<test description>' → why we do not meet it. Only shrinks.
 */
const skip = new Map<string, string>();

interface SuiteTest {
  description: string;
  data: unknown;
  valid: boolean;
}

interface SuiteCase {
  description: string;
  schema: { format?: string };
  tests: SuiteTest[];
}

interface Counts {
  passed: number;
  skipped: number;
  total: number;
}

const counts = new Map<Draft, Counts>(drafts.map((draft) => [draft, { passed: 0, skipped: 0, total: 0 }]));
const usedSkips = new Set<string>();

describe('JSON Schema Test Suite, optional/format', () => {
  it('finds the suite', () => {
    assert.ok(existsSync(join(suiteRoot, 'tests')), `no test suite at ${suiteRoot} (set JSON_SCHEMA_TEST_SUITE)`);
  });

  for (const draft of drafts) {
    const directory = join(suiteRoot, 'tests', draft, 'optional', 'format');
    if (!existsSync(directory)) continue;
    const draftCounts = counts.get(draft)!;
    const formats = formatsFor(draft);
    describe(draft, () => {
      for (const file of readdirSync(directory).filter((name) => name.endsWith('.json')).sort()) {
        const cases = JSON.parse(readFileSync(join(directory, file), 'utf8')) as SuiteCase[];
        describe(file, () => {
          for (const suiteCase of cases) {
            for (const test of suiteCase.tests) {
              const key = `${draft}/${file}/${suiteCase.description}/${test.description}`;
              const reason = skip.get(key);
              draftCounts.total++;
              if (reason !== undefined) {
                usedSkips.add(key);
                draftCounts.skipped++;
                it(`${suiteCase.description} / ${test.description}`, { skip: reason }, () => {});
                continue;
              }
              it(`${suiteCase.description} / ${test.description}`, () => {
                // The keyword only applies to strings; a format missing from the table passes everything.
                const check = suiteCase.schema.format === undefined ? undefined : formats.get(suiteCase.schema.format);
                const valid = typeof test.data !== 'string' || check === undefined || check(test.data);
                assert.equal(valid, test.valid, `format ${suiteCase.schema.format} on ${JSON.stringify(test.data)}`);
                draftCounts.passed++;
              });
            }
          }
        });
      }
    });
  }

  it('has no stale skip entries', () => {
    assert.deepEqual([...skip.keys()].filter((key) => !usedSkips.has(key)), []);
  });

  after(() => {
    for (const [draft, { passed, skipped, total }] of counts) {
      console.log(`format suite ${draft}: ${passed} passed, ${skipped} skipped, ${total} total`);
    }
  });
});

describe('formatsFor', () => {
  it('adds formats draft by draft', () => {
    assert.deepEqual([...formatsFor('draft4').keys()].sort(), ['date-time', 'email', 'hostname', 'ipv4', 'ipv6', 'uri']);
    assert.equal(formatsFor('draft6').has('json-pointer'), true);
    assert.equal(formatsFor('draft6').has('regex'), false);
    assert.equal(formatsFor('draft7').has('idn-hostname'), true);
    assert.equal(formatsFor('draft7').has('duration'), false);
    assert.equal(formatsFor('draft2019-09').has('uuid'), true);
    assert.equal(formatsFor('draft2020-12').size, formatsFor('draft2019-09').size);
  });

  it('uses the 2020-12 Relative JSON Pointer with index manipulation', () => {
    assert.equal(formatsFor('draft2020-12').get('relative-json-pointer')!('0+1/a'), true);
    assert.equal(formatsFor('draft2019-09').get('relative-json-pointer')!('0+1/a'), false);
  });
});

describe('date-time.ts', () => {
  it('checks real month lengths and leap years', () => {
    assert.equal(isDate('2024-02-29'), true);
    assert.equal(isDate('2023-02-29'), false);
    assert.equal(isDate('2000-02-29'), true);
    assert.equal(isDate('1900-02-29'), false);
    assert.equal(isDate('2023-04-31'), false);
  });

  it('accepts a leap second only at 23:59:60 UTC', () => {
    assert.equal(isTime('23:59:60Z'), true);
    assert.equal(isTime('00:59:60+01:00'), true);
    assert.equal(isTime('23:59:60+01:00'), false);
    assert.equal(isTime('00:29:60-23:30'), true);
  });

  it('requires an offset and the T separator', () => {
    assert.equal(isTime('12:00:00'), false);
    assert.equal(isDateTime('2024-01-01 12:00:00Z'), false);
    assert.equal(isDateTime('2024-01-01t12:00:00.5z'), true);
  });
});

describe('duration.ts', () => {
  it('follows the RFC 3339 Appendix A grammar', () => {
    assert.equal(isDuration('P3Y6M4DT12H30M5S'), true);
    assert.equal(isDuration('PT5M'), true);
    assert.equal(isDuration('P1W'), true);
    assert.equal(isDuration('P1WT1H'), false);
    assert.equal(isDuration('P1Y4D'), false);
    assert.equal(isDuration('PT'), false);
  });
});

describe('email.ts', () => {
  it('accepts dot-atoms, quoted strings and address literals', () => {
    assert.equal(isEmail('a.b+c@example.com'), true);
    assert.equal(isEmail('"a\\"b"@example.com'), true);
    assert.equal(isEmail('a@[IPv6:2001:db8::1]'), true);
    assert.equal(isEmail('a@[IPv6:2001:db8::g]'), false);
    assert.equal(isEmail('a..b@example.com'), false);
    assert.equal(isEmail(`${'a'.repeat(65)}@example.com`), false);
  });

  it('lets idn-email use UTF-8 and U-labels', () => {
    assert.equal(isIdnEmail('用户@例子.广告'), true);
    assert.equal(isEmail('用户@example.com'), false);
    assert.equal(isIdnEmail('user@a\u200db.com'), false);
  });
});

describe('hostname.ts', () => {
  it('checks RFC 1123 labels and length', () => {
    assert.equal(isHostname('a-b.c0'), true);
    assert.equal(isHostname(`${'a'.repeat(63)}.com`), true);
    assert.equal(isHostname(`${'a'.repeat(64)}.com`), false);
    assert.equal(isHostname(`${'a.'.repeat(127)}a`), false);
  });

  it('checks A-labels in plain host names', () => {
    assert.equal(isHostname('xn--bcher-kva.example'), true);
    assert.equal(isHostname('xn--bcher-kva-.example'), false);
  });

  it('accepts U-labels and the IDNA full stops in idn-hostname', () => {
    assert.equal(isIdnHostname('bücher。example'), true);
    assert.equal(isIdnHostname('Bücher.example'), false);
    assert.equal(isIdnHostname('bu\u0308cher.example'), false);
  });

  it('rejects an idn-hostname too long for its A-label form before reading its labels', () => {
    // "xn--" and one octet per code point: 59 code points is the most a U-label can have.
    const longest = 'ü'.repeat(35);
    assert.equal(isIdnHostname(`${longest}.example`), true);
    assert.equal(isIdnHostname(`${'ü'.repeat(60)}.example`), false);
    assert.equal(isIdnHostname(`${longest}.`.repeat(8) + 'example'), false);
    assert.equal(isIdnHostname('\u0661\u0627'.repeat(50_000)), false);
  });
});

describe('idna-properties.ts', () => {
  it('derives RFC 5892 properties', () => {
    assert.equal(derivedProperty(0x61), 'PVALID');
    assert.equal(derivedProperty(0x41), 'DISALLOWED');
    assert.equal(derivedProperty(0xdf), 'PVALID');
    assert.equal(derivedProperty(0x200d), 'CONTEXTJ');
    assert.equal(derivedProperty(0xb7), 'CONTEXTO');
    assert.equal(derivedProperty(0x1100), 'DISALLOWED');
    assert.equal(derivedProperty(0x0131), 'PVALID');
    assert.equal(derivedProperty(0xab70), 'DISALLOWED');
    assert.equal(derivedProperty(0x1f80), 'DISALLOWED');
    assert.equal(derivedProperty(0xe0000), 'UNASSIGNED');
  });
});

describe('unicode-properties.ts', () => {
  it('looks up the generated tables', () => {
    assert.equal(bidiClass(0x5d0), 'R');
    assert.equal(bidiClass(0x628), 'AL');
    assert.equal(bidiClass(0x660), 'AN');
    assert.equal(bidiClass(0x6f0), 'EN');
    assert.equal(bidiClass(0x300), 'NSM');
    assert.equal(bidiClass(0x61), 'L');
    assert.equal(joiningType(0x628), 'D');
    assert.equal(joiningType(0x627), 'R');
    assert.equal(joiningType(0x64b), 'T');
    assert.equal(joiningType(0x61), 'U');
    assert.equal(isVirama(0x94d), true);
    assert.equal(isVirama(0x915), false);
  });
});

describe('punycode.ts', () => {
  it('round-trips RFC 3492 §7.1 style samples', () => {
    assert.equal(encodePunycode('bücher'), 'bcher-kva');
    assert.equal(decodePunycode('bcher-kva'), 'bücher');
    assert.equal(decodePunycode('ihqwcrb4cv8a8dqg056pqjye'), '他们为什么不说中文');
    assert.equal(encodePunycode('他们为什么不说中文'), 'ihqwcrb4cv8a8dqg056pqjye');
  });

  it('rejects truncated input', () => {
    assert.equal(decodePunycode('X'), undefined);
    assert.equal(decodePunycode('bcher-k!a'), undefined);
  });
});

describe('ip.ts', () => {
  it('checks dotted quads', () => {
    assert.equal(isIpv4('1.2.3.4'), true);
    assert.equal(isIpv4('01.2.3.4'), false);
    assert.equal(isIpv4('1.2.3'), false);
  });

  it('checks RFC 4291 text forms', () => {
    assert.equal(isIpv6('2001:db8::ff00:42:8329'), true);
    assert.equal(isIpv6('::ffff:1.2.3.4'), true);
    assert.equal(isIpv6('1:2:3:4:5:6:7::'), true);
    assert.equal(isIpv6('1:2:3:4:5:6:7:8:9'), false);
    assert.equal(isIpv6('1::2::3'), false);
    assert.equal(isIpv6('1.2.3.4::'), false);
  });

  it('accepts the longest text form and nothing longer', () => {
    assert.equal(isIpv6('ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255'), true);
    assert.equal(isIpv6('0ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255'), false);
  });
});

describe('json-pointer.ts', () => {
  it('checks RFC 6901 escapes', () => {
    assert.equal(isJsonPointer('/a~0b/c~1d'), true);
    assert.equal(isJsonPointer('/a~2'), false);
    assert.equal(isJsonPointer('a'), false);
  });

  it('checks Relative JSON Pointers', () => {
    assert.equal(isRelativeJsonPointer('2/a'), true);
    assert.equal(isRelativeJsonPointer('0#'), true);
    assert.equal(isRelativeJsonPointer('00'), false);
    assert.equal(isRelativeJsonPointerWithIndexManipulation('1-2#'), true);
    assert.equal(isRelativeJsonPointerWithIndexManipulation('1+0'), false);
  });
});

describe('regex.ts', () => {
  it('compiles with the u flag', () => {
    assert.equal(isRegex('^\\p{L}+$'), true);
    assert.equal(isRegex('\\a'), false);
    assert.equal(isRegex('(?<n>a)\\k<m>'), false);
  });

  it('judges property escapes by their names and values', () => {
    assert.equal(isRegex('\\p{Script=Greek}\\P{Lu}\\p{gc=Letter}'), true);
    assert.equal(isRegex('\\p{Greek}'), false);
    assert.equal(isRegex('\\p{Script=Elvish}'), false);
    assert.equal(isRegex('\\p{lu}'), false);
    assert.equal(isRegex('\\p{}'), false);
    assert.equal(isRegex('\\p{L'), false);
  });

  it('keeps a property escape where only a class escape may stand', () => {
    // ECMA-262 §22.2.1.1: in Unicode mode a class range may not end at a class escape.
    assert.equal(isRegex('[\\p{L}-z]'), false);
    assert.equal(isRegex('[a-\\P{L}]'), false);
    assert.equal(isRegex('[\\p{L}\\-z]'), true);
    assert.equal(isRegex('\\p{L}{2}'), true);
  });

  it('reads an escaped backslash before p{…} as text', () => {
    // `\\p{L}` is a backslash then "p{L}", where "{L}" is a broken quantifier in Unicode mode.
    assert.equal(isRegex('\\\\p{L}'), false);
    assert.equal(isRegex('\\\\\\p{L}'), true);
  });

  it('agrees with the engine on patterns built from property escapes and what surrounds them', () => {
    const engine = (pattern: string): boolean => {
      try {
        new RegExp(pattern, 'u');
        return true;
      } catch {
        return false;
      }
    };
    const pieces = ['\\p{L}', '\\P{Nd}', '\\p{sc=Grek}', '\\p{Foo}', '\\p{L', '\\p', '\\\\', '\\', '[', ']', '[^', '-', '(', ')', '{', '}', '{1,2}', 'a', '|', '*', 'p{L}', '\\d', '(?<n>', '\\k<n>'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 10 }), (parts) => {
        const pattern = parts.join('');
        assert.equal(isRegex(pattern), engine(pattern), pattern);
      }),
      property(2000),
    );
  });
});

describe('uri.ts', () => {
  it('checks URIs and references', () => {
    assert.equal(isUri('https://user:pw@example.com:8080/a/b?c=d#e'), true);
    assert.equal(isUri('urn:isbn:0451450523'), true);
    assert.equal(isUri('http://[v1.x]/'), true);
    assert.equal(isUri('http://exa mple.com'), false);
    assert.equal(isUriReference('../a?b#c'), true);
    assert.equal(isUriReference('a:b:c'), true);
    assert.equal(isUriReference('%'), false);
  });

  it('lets IRIs use ucschar, and private use only in the query', () => {
    assert.equal(isIri('http://例え.jp/パス?q=\u{f0000}'), true);
    assert.equal(isIri('http://例え.jp/\u{f0000}'), false);
    assert.equal(isIriReference('パス'), true);
    assert.equal(isUri('http://例え.jp/'), false);
  });
});

describe('uri-template.ts', () => {
  it('checks RFC 6570 expressions', () => {
    assert.equal(isUriTemplate('/search{?q,lang}{&page:3}'), true);
    assert.equal(isUriTemplate('{list*}'), true);
    assert.equal(isUriTemplate('{=x}'), true);
    assert.equal(isUriTemplate('{$x}'), false);
    assert.equal(isUriTemplate('{x'), false);
    assert.equal(isUriTemplate('a<b'), false);
  });
});

describe('uuid.ts', () => {
  it('checks the 8-4-4-4-12 form', () => {
    assert.equal(isUuid('123e4567-e89b-12d3-a456-426614174000'), true);
    assert.equal(isUuid('{123e4567-e89b-12d3-a456-426614174000}'), false);
  });
});
