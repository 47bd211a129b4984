// The evaluator says no at the first token that makes a document invalid: never later than the
// text checker, which reads the schema's structure whole (its shapes) and only judges. Both are fed
// the same tokens of every invalid document of the suite's required files, one token at a time;
// the token at which each first fails is compared. The checker is often later (it decides `anyOf`,
// `not`, `if`... at the container's close); a session that is later than it answered after the
// byte that made the document bad, as `unevaluatedProperties` beside a `$ref` once did.

import assert from 'node:assert/strict';
import fc from 'fast-check';
import {test} from 'node:test';
import {compileSchema} from '../src/compile/compile.js';
import {PASS, TextChecker, UNSURE} from '../src/engine/checker.js';
import {compile, isValidator, tokenValidator} from '../src/index.js';
import {defaultLimits} from '../src/json/limits.js';
import {Tokenizer} from '../src/json/tokenizer.js';
import type {CompileOptions, TokenSink} from '../src/types.js';
import {documentArbitrary, familyCases, schemaCases} from './support/arbitraries.js';
import {property} from './support/property.js';
import {drafts, remotes, suiteFiles, suiteFormats, suiteSkips} from './support/suite.js';

type Token = {name: Exclude<keyof TokenSink, never>; value?: string};

/** A TokenSink that keeps the tokens, and hands each on to `next` if there is one. */
function recorder(tokens: Token[], next?: TokenSink): TokenSink {
  const sink = {} as Record<keyof TokenSink, (value?: string) => void>;
  for (const name of ['startObject', 'endObject', 'startArray', 'endArray', 'keyValue', 'stringValue', 'numberValue', 'nullValue', 'trueValue', 'falseValue'] as const) {
    sink[name] = (value?: string) => {
      tokens.push(value === undefined ? {name} : {name, value});
      (next?.[name] as ((value?: string) => void) | undefined)?.(value);
    };
  }
  return sink as unknown as TokenSink;
}

function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  const tokenizer = new Tokenizer(recorder(tokens), defaultLimits);
  tokenizer.write(text);
  tokenizer.end();
  return tokens;
}

/** The tokens of `text`, or undefined when it is no JSON. */
function tokensOfJson(text: string): Token[] | undefined {
  try {
    return tokensOf(text);
  } catch {
    return undefined;
  }
}

/** The index of the token at which the checker first fails; undefined when it passes or cannot judge. */
function checkerRefusal(checker: TextChecker, text: string): number | undefined {
  const seen: Token[] = [];
  const outcome = checker.check(text, (next) => recorder(seen, next));
  return outcome === PASS || outcome === UNSURE ? undefined : seen.length - 1;
}

/** The index of the token at which a document given token by token is first refused (-1: never). */
function evaluatorRefusal(options: CompileOptions, schema: unknown, tokens: readonly Token[]): number {
  const validator = tokenValidator(isValidator(schema) ? schema : compile(schema, options));
  for (let i = 0; i < tokens.length; i++) if (!validator.push(tokens[i]!)) return i;
  return -1;
}

/**
 * Where the evaluator may answer after the checker, with the reason: a `$dynamicRef` or
 * `$recursiveRef` beside `unevaluated*` may lead anywhere, so it waits for the close; the checker
 * resolves the dynamic scope where it builds a shape. Only ever shrinks.
 */
const later: ReadonlyMap<string, string> = new Map([
  ['draft2019-09/unevaluatedItems.json/unevaluatedItems with $recursiveRef/with unevaluated items', 'a $recursiveRef in place'],
  ['draft2019-09/unevaluatedProperties.json/unevaluatedProperties with $recursiveRef/with unevaluated properties', 'a $recursiveRef in place'],
  ['draft2020-12/unevaluatedItems.json/unevaluatedItems with $dynamicRef/with unevaluated items', 'a $dynamicRef in place'],
  ['draft2020-12/unevaluatedProperties.json/unevaluatedProperties with $dynamicRef/with unevaluated properties', 'a $dynamicRef in place'],
]);

test('a document given token by token is refused no later than the text checker refuses it', () => {
  const schemas = remotes();
  let compared = 0;
  let sooner = 0;
  const seenLater = new Set<string>();
  for (const draft of drafts) {
    for (const file of suiteFiles(draft, false)) {
      if (suiteSkips.has(`${draft}/${file.name}`)) continue;
      for (const suiteCase of file.cases) {
        const options: CompileOptions = {draft, schemas, ...suiteFormats(false)};
        const checker = new TextChecker(compileSchema(suiteCase.schema, options).root, defaultLimits);
        for (const suiteTest of suiteCase.tests) {
          if (suiteTest.valid) continue;
          const text = JSON.stringify(suiteTest.data);
          const byChecker = checkerRefusal(checker, text);
          if (byChecker === undefined) continue;
          const byEvaluator = evaluatorRefusal(options, suiteCase.schema, tokensOf(text));
          const name = `${draft}/${file.name}/${suiteCase.description}/${suiteTest.description}`;
          compared++;
          assert.notEqual(byEvaluator, -1, `${name}: never refused`);
          if (byEvaluator < byChecker) sooner++;
          if (byEvaluator <= byChecker) continue;
          assert.ok(later.has(name), `${name}: refused at token ${byEvaluator}, the checker at ${byChecker}`);
          seenLater.add(name);
        }
      }
    }
  }
  assert.deepEqual([...later.keys()].filter((name) => !seenLater.has(name)), [], 'entries of `later` that are no longer later: remove them');
  assert.ok(compared > 1500, `only ${compared} documents compared`);
  console.log(`earliness: ${compared} invalid documents, the evaluator sooner on ${sooner}, later on ${seenLater.size} (listed)`);
});

test('generated schemas and documents: refused no later than the text checker refuses them', () => {
  // The documents are aimed at the schemas (their names, literals and nesting), and many fail.
  // The one exception, as in the suite: a `$dynamicRef` or `$recursiveRef` in place. With
  // `allErrors` a run goes on after its first failure and fails its parent as it ends: that mode
  // reads every document to its end, and is not compared here.
  const firstError = schemaCases({limits: false, formats: true}).filter(({options}) => options.allErrors !== true);
  let compared = 0;
  const cases = familyCases(firstError).chain(({schemaCase, family}) =>
    fc.tuple(fc.constant(schemaCase), fc.array(documentArbitrary(schemaCase, family), {minLength: 1, maxLength: 8})),
  );
  fc.assert(
    fc.property(cases, ([{schema, options}, documents]) => {
      const checker = new TextChecker(compileSchema(schema, options).root, defaultLimits);
      const validator = compile(schema, options);
      const dynamic = /"\$(dynamicRef|recursiveRef)"/.test(JSON.stringify(schema));
      for (const document of documents) {
        const text = document.text;
        const tokens = tokensOfJson(text);
        if (tokens === undefined) continue;
        const byChecker = checkerRefusal(checker, text);
        if (byChecker === undefined) continue;
        const byEvaluator = evaluatorRefusal(options, validator, tokens);
        assert.notEqual(byEvaluator, -1, `never refused: ${text}`);
        compared++;
        if (!dynamic) assert.ok(byEvaluator <= byChecker, `${text}: refused at token ${byEvaluator}, the checker at ${byChecker}`);
      }
    }),
    property(300),
  );
  // Most documents pass or leave the checker unsure; enough must be refused for this to say anything.
  assert.ok(compared > 200, `only ${compared} refused documents compared`);
});
