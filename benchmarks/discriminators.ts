// Values chosen by a discriminator, against JSON.parse + ajv (validateText) and ajv (value mode) in
// the same run: once `type` has failed all but one branch, what follows is judged against that
// one alone (Programs.live in src/engine/programs.ts). Run: `node --import tsx benchmarks/discriminators.ts`.
//
// 1. GeoJSON: a FeatureCollection of polygons, each geometry a oneOf of four kinds by `type`, which
//    comes before `coordinates`.
// 2. The example event records: five if/then pairs on `type`, which comes before `payload`.

import {readFileSync} from 'node:fs';
import {Ajv2020} from 'ajv/dist/2020.js';
import {compile} from '../dist/src/index.js';
import {EVENT_SCHEMA_FILE, eventLine} from './cli-support.js';
import {bestAlternating, printTable, type Row} from './support.js';
import {random as seeded} from '../test/support/chunks.js';

const ajv = new Ajv2020({allErrors: false, strict: false, validateFormats: false});

// Deterministic coordinates, so every run reads the same text.
const random = seeded(0x5eed);

const position = {type: 'array', minItems: 2, maxItems: 3, items: {type: 'number'}};
const ring = {type: 'array', minItems: 4, items: position};
const geometry = (type: string, coordinates: object): object => ({type: 'object', required: ['type', 'coordinates'], properties: {type: {const: type}, coordinates}});
const geoSchema = {
  type: 'object',
  required: ['type', 'features'],
  properties: {
    type: {const: 'FeatureCollection'},
    features: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'geometry', 'properties'],
        properties: {
          type: {const: 'Feature'},
          properties: {type: ['object', 'null']},
          geometry: {
            oneOf: [
              geometry('Point', position),
              geometry('LineString', {type: 'array', minItems: 2, items: position}),
              geometry('Polygon', {type: 'array', items: ring}),
              geometry('MultiPolygon', {type: 'array', items: {type: 'array', items: ring}}),
            ],
          },
        },
      },
    },
  },
};
const polygon = (): number[][][] => {
  const outline = Array.from({length: 20}, () => [Math.round(random() * 3_600_000) / 10_000 - 180, Math.round(random() * 1_800_000) / 10_000 - 90]);
  return [[...outline, outline[0]!]];
};
const geoText = JSON.stringify({
  type: 'FeatureCollection',
  features: Array.from({length: 300}, (_, index) => ({type: 'Feature', geometry: {type: 'Polygon', coordinates: polygon()}, properties: {name: `feature ${index}`}})),
});

const eventSchema = JSON.parse(readFileSync(EVENT_SCHEMA_FILE, 'utf8')) as object;
const eventLines = Array.from({length: 20_000}, (_, index) => eventLine(index)).filter((_, index) => index % 1000 !== 999);

/** validateText of each text against JSON.parse + ajv, and value mode against ajv, `rounds` times over. */
function rows(name: string, schema: object, texts: readonly string[], rounds: number): Row[] {
  const ours = compile(schema);
  const theirs = ajv.compile(schema);
  const values = texts.map((text) => JSON.parse(text) as unknown);
  for (const text of texts) if (!ours.validateText(text).valid || !theirs(JSON.parse(text))) throw new Error(`${name}: a text should be valid`);
  const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0) * rounds;
  const count = (judge: (index: number) => boolean): number => {
    let valid = 0;
    for (let round = 0; round < rounds; round++) for (let index = 0; index < texts.length; index++) if (judge(index)) valid++;
    return valid;
  };
  const text = bestAlternating(
    () => count((index) => ours.validateText(texts[index]!).valid),
    () => count((index) => theirs(JSON.parse(texts[index]!))),
  );
  const value = bestAlternating(
    () => count((index) => ours.validate(values[index]).valid),
    () => count((index) => theirs(values[index])),
  );
  return [
    {name: `${name}, validateText`, ...text, bytes, versus: 'JSON.parse + ajv'},
    {name: `${name}, value mode (vs ajv alone)`, ...value, bytes, versus: 'ajv'},
  ];
}

printTable('stream-schema vs JSON.parse + ajv, values chosen by a discriminator', [
  ...rows('GeoJSON, 300 polygons under a oneOf of four geometries', geoSchema, [geoText], 40),
  ...rows(`the example event records (${eventLines.length}), five if/then on type`, eventSchema, eventLines, 1),
]);
