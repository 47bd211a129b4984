// adapters/http-errors.ts: the pieces of the HTTP front doors that need no Node API.

import assert from 'node:assert/strict';
import {STATUS_CODES} from 'node:http';
import {describe, it} from 'node:test';

import {HttpError, compileOptions, statusPhrase, toProblem} from '../adapters/http-errors.js';

describe('status phrases without node:http', () => {
  it('every 4xx and 5xx phrase is the one http.STATUS_CODES gives', () => {
    for (let status = 400; status <= 599; status++) assert.equal(statusPhrase(status), STATUS_CODES[status], String(status));
  });

  it("an error's name and a problem's title come from the phrase", () => {
    const error = new HttpError(413, 'entity.too.large', 'request entity too large');
    assert.equal(error.name, 'PayloadTooLargeError');
    assert.equal(toProblem(error, 413).title, 'Payload Too Large');
    assert.equal(new HttpError(499, 'x', 'y').name, 'HttpError');
    assert.equal(toProblem({}, 499).title, 'Error');
  });
});

describe('problem details never echo the body', () => {
  const problemOf = (instanceLocation: string, error = 'must not be here') =>
    toProblem(new HttpError(422, 'entity.validation.failed', 'request body does not match the schema', [{valid: false, kind: 'validation', keyword: 'false', keywordLocation: '', instanceLocation, error}]), 422).errors![0]!;

  it('cuts a pointer whose key is 5,000 characters, as it cuts detail', () => {
    const key = 'k'.repeat(5000);
    const item = problemOf(`/${key}/role`, `must NOT have additional property ${key}`);
    assert.ok(item.detail.length <= 200, `detail of ${item.detail.length}`);
    assert.ok(decodeURIComponent(item.pointer).length <= 201, `pointer of ${item.pointer.length}`);
    assert.equal(decodeURIComponent(item.pointer), `#/${'k'.repeat(63)}…/role`);
  });

  it('cuts a pointer deeper than fits, keeping its first names and marking the cut', () => {
    const pointer = '/0'.repeat(1000);
    const cut = decodeURIComponent(problemOf(pointer).pointer);
    assert.ok(cut.length <= 201 && cut.endsWith('/…'), cut);
    assert.ok(('#' + pointer).startsWith(cut.slice(0, -2)));
  });

  it('leaves a short pointer as it is', () => {
    assert.equal(problemOf('/items/0/sku').pointer, '#/items/0/sku');
  });

  it('a key holding a lone surrogate is answered, not a URIError', () => {
    assert.equal(problemOf('/a\ud800b').pointer, '#/a%EF%BF%BDb');
    assert.equal(problemOf('/\udc00').pointer, '#/%EF%BF%BD');
  });

  it('never cuts between the halves of a surrogate pair', () => {
    for (let shift = 0; shift < 3; shift++) {
      const item = problemOf('/x', 'a'.repeat(shift) + '😀'.repeat(150));
      assert.doesNotThrow(() => encodeURIComponent(item.detail), item.detail);
      const pointer = problemOf('/' + 'a'.repeat(shift) + '😀'.repeat(150)).pointer;
      assert.doesNotThrow(() => decodeURIComponent(pointer));
    }
  });
});

describe("the doors' validator options", () => {
  it('custom formats, unknownFormats and a warning strictSchema reach compile', () => {
    const phone = /^\+[0-9]+$/;
    assert.deepEqual(compileOptions({formats: 'assert', customFormats: {phone}, unknownFormats: 'ignore', strictSchema: 'warn'}), {
      formats: 'assert',
      customFormats: {phone},
      unknownFormats: 'ignore',
      strict: 'warn',
    });
  });
});
