import { MAX_BULK_ROWS } from '../../modules/control-panel/bulk-rows';
import { BULK_JSON_VALUES, jsonShapeProblem, JsonShapeLimits, MAX_OBJECT_FIELDS } from './body-parsing';

const LIMITS: JsonShapeLimits = { maxDepth: 4, maxObjectFields: 3, maxValues: 10 };
const shape = (value: unknown) => jsonShapeProblem(JSON.stringify(value), LIMITS);
const flatObject = (fields: number) =>
  Object.fromEntries(Array.from({ length: fields }, (_, i) => [`k${i}`, i]));

describe('jsonShapeProblem', () => {
  it('passes bodies within every limit, empty containers and scalars included', () => {
    for (const value of [{}, [], { a: [] }, { a: {}, b: [[[]]], c: '' }, { a: [1, 2, 3] }, 'text', 7, null]) {
      expect(shape(value)).toBeUndefined();
    }
  });

  it('counts the fields of each object on its own, at every level', () => {
    expect(shape(flatObject(3))).toBeUndefined();
    expect(shape(flatObject(4))).toBe('tooManyFields');
    expect(shape({ a: flatObject(3) })).toBeUndefined();
    expect(shape({ a: flatObject(4) })).toBe('tooManyFields');
    expect(shape([flatObject(4)])).toBe('tooManyFields');
    // An array's elements are values, not fields.
    expect(shape({ a: [1, 2, 3, 4, 5] })).toBeUndefined();
  });

  it('counts every value at every level: array elements and object fields', () => {
    // 1 field + 9 elements = 10 values.
    expect(shape({ a: [1, 2, 3, 4, 5, 6, 7, 8, 9] })).toBeUndefined();
    expect(shape({ a: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] })).toBe('tooManyValues');
    // 3 objects of 2 fields in an array of one field: 1 + 3 + 6 = 10.
    expect(
      shape({
        a: [
          { x: 1, y: 2 },
          { x: 1, y: 2 },
          { x: 1, y: 2 },
        ],
      }),
    ).toBeUndefined();
    expect(shape({ a: [{ x: 1, y: 2 }, { x: 1, y: 2 }, { x: 1, y: 2 }, {}] })).toBe('tooManyValues');
    expect(shape({ a: [[], [], [], [], [], [], [], [], [], []] })).toBe('tooManyValues');
  });

  it('refuses nesting past the depth', () => {
    expect(shape([[[[1]]]])).toBeUndefined();
    expect(shape([[[[[1]]]]])).toBe('tooDeep');
    expect(jsonShapeProblem('['.repeat(2_000_000), LIMITS)).toBe('tooDeep');
  });

  it('does not count brackets, commas or colons inside strings, escaped quotes included', () => {
    expect(shape({ a: '[[[[[[,,,,,,,,,,,{{{{:::"', b: ',,,,,,,,,,,,\\",,,,,"' })).toBeUndefined();
    expect(jsonShapeProblem('{"a\\"":"\\\\","b":1}', LIMITS)).toBeUndefined();
  });

  it('reads whitespace anywhere as JSON allows', () => {
    expect(jsonShapeProblem(' { "a" : [ 1 ,\n 2 ,\t3 ] , "b" : { } }\r\n', LIMITS)).toBeUndefined();
    expect(jsonShapeProblem('{ "a":1, "b":2, "c":3 , "d":4 }', LIMITS)).toBe('tooManyFields');
  });

  it('stops at the first excess: 100,000 fields cost the characters up to the limit, not the body', () => {
    const text = JSON.stringify(flatObject(100_000));
    let read = 0;
    const counting = {
      length: text.length,
      charCodeAt: (index: number) => {
        read++;
        return text.charCodeAt(index);
      },
    } as unknown as string;
    expect(jsonShapeProblem(counting, LIMITS)).toBe('tooManyFields');
    expect(read).toBeLessThan(60);
  });

  it('gives the bulk route room for its 10,000 rows and no more than 12 values a row', () => {
    expect(BULK_JSON_VALUES).toBe(MAX_BULK_ROWS * 12);
    const row = { cpf: '11144477735', name: 'Ana', email: 'a@b.co', phone: '1', birthday: '1990-01-01' };
    const rows = Array.from({ length: MAX_BULK_ROWS }, () => ({
      ...row,
      benefit_plan_code: 'GOLD',
      active: true,
      code: 'ABCDEFGH',
    }));
    const limits = { maxDepth: 32, maxObjectFields: MAX_OBJECT_FIELDS, maxValues: BULK_JSON_VALUES };
    expect(jsonShapeProblem(JSON.stringify({ beneficiaries: rows }), limits)).toBeUndefined();
  });
});
