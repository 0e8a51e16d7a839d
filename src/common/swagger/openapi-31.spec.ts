import { withoutNullable } from './openapi-31';

describe('withoutNullable', () => {
  it("puts null in a nullable schema's type, and in its enum", () => {
    expect(withoutNullable({ type: 'string', nullable: true, example: 'a' })).toEqual({
      type: ['string', 'null'],
      example: 'a',
    });
    expect(withoutNullable({ type: 'string', enum: ['a', 'b'], nullable: true })).toEqual({
      type: ['string', 'null'],
      enum: ['a', 'b', null],
    });
  });

  it('makes null an alternative of a nullable reference or composition, keeping its description', () => {
    expect(
      withoutNullable({ type: 'object', nullable: true, description: 'd', allOf: [{ $ref: '#/x' }] }),
    ).toEqual({ description: 'd', anyOf: [{ allOf: [{ $ref: '#/x' }] }, { type: 'null' }] });
    expect(withoutNullable({ $ref: '#/x', nullable: true })).toEqual({
      anyOf: [{ $ref: '#/x' }, { type: 'null' }],
    });
  });

  it('rewrites schemas at any depth, and leaves examples and properties named like keywords alone', () => {
    const document = {
      components: {
        schemas: {
          A: {
            type: 'object',
            properties: {
              example: { type: 'string', nullable: true },
              b: { type: 'integer', nullable: true, example: { nullable: true } },
            },
          },
        },
      },
    };
    expect(withoutNullable(document)).toEqual({
      components: {
        schemas: {
          A: {
            type: 'object',
            properties: {
              example: { type: ['string', 'null'] },
              b: { type: ['integer', 'null'], example: { nullable: true } },
            },
          },
        },
      },
    });
  });
});
