// adapters/http-errors.ts: the pieces of the HTTP front doors that need no Node API.

import assert from 'node:assert/strict';
import {STATUS_CODES} from 'node:http';
import {describe, it} from 'node:test';

import {HttpError, statusPhrase, toProblem} from '../adapters/http-errors.js';

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
