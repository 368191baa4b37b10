/**
 * The schema generator (src/engine/schema-faker): realistic, seeded values that respect the
 * schema's constraints. Every case is checked against the schema with Ajv where it applies.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { loadFaker, seedOf } from '../../../src/engine/schema-faker/faker.js';
import { generate, type Schema } from '../../../src/engine/schema-faker/generate.js';
import { createDeref } from '../../../src/engine/openapi-document/refs.js';

const addFormats = addFormatsImport as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false }));

async function draw(schema: unknown, opts: { seed?: number; name?: string; doc?: unknown; direction?: 'request' | 'response'; useExamples?: boolean } = {}) {
  const faker = await loadFaker();
  faker.seed(opts.seed ?? 1);
  return generate(schema, { faker, deref: opts.doc ? createDeref(opts.doc) : undefined, direction: opts.direction, useExamples: opts.useExamples }, opts.name);
}

async function drawValid(schema: Schema, times = 25) {
  const validate = ajv.compile(schema);
  for (let seed = 1; seed <= times; seed++) {
    const v = await draw(schema, { seed, useExamples: false });
    if (!validate(v)) throw new Error(`seed ${seed}: ${JSON.stringify(v)} breaks ${JSON.stringify(schema)}: ${ajv.errorsText(validate.errors)}`);
  }
}

describe('schema-faker', () => {
  it('is deterministic for a seed, and different for another', async () => {
    const schema = { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' }, createdAt: { type: 'string', format: 'date-time' } } };
    expect(await draw(schema, { seed: 3 })).toEqual(await draw(schema, { seed: 3 }));
    expect(await draw(schema, { seed: 3 })).not.toEqual(await draw(schema, { seed: 4 }));
    expect(seedOf(1, '/pets', 2)).toBe(seedOf(1, '/pets', 2));
  });

  it('a field or format named like an Object member is drawn by its type, not taken from the table', async () => {
    const schema = { type: 'object', required: ['constructor', 'toString', 'valueOf', 'hasOwnProperty'], properties: {
      constructor: { type: 'string' }, toString: { type: 'string', format: 'toString' }, valueOf: { type: 'number' }, hasOwnProperty: { type: 'string', format: '__proto__' },
    } };
    const v = (await draw(schema)) as Record<string, unknown>;
    for (const key of ['constructor', 'toString', 'hasOwnProperty']) {
      expect(typeof v[key]).toBe('string');
      expect(v[key]).not.toMatch(/\[object |function /);
    }
    expect(typeof v.valueOf).toBe('number');
    expect(Number.isFinite(v.valueOf)).toBe(true);
  });

  it('draws by format and by field name', async () => {
    const v = (await draw({
      type: 'object',
      properties: {
        email: { type: 'string' }, site: { type: 'string', format: 'uri' }, id: { type: 'string', format: 'uuid' }, day: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' }, ip: { type: 'string', format: 'ipv4' }, ip6: { type: 'string', format: 'ipv6' }, host: { type: 'string', format: 'hostname' },
        firstName: { type: 'string' }, lastName: { type: 'string' }, city: { type: 'string' }, photoUrls: { type: 'array', items: { type: 'string' } },
        price: { type: 'number' }, createdAt: { type: 'string' }, byte: { type: 'string', format: 'byte' },
      },
    })) as Record<string, unknown>;
    expect(v.email).toMatch(/^[^@\s]+@[^@\s]+$/);
    expect(v.site).toMatch(/^https?:\/\//);
    expect(v.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(v.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(v.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
    expect(v.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(v.ip6).toContain(':');
    expect(v.host).toMatch(/\./);
    expect(v.firstName).toMatch(/^[A-Z]/);
    expect((v.photoUrls as string[])[0]).toMatch(/^https?:\/\//);
    expect(typeof v.price).toBe('number');
    expect(v.createdAt).toMatch(/^20\d\d-\d\d-\d\dT/);
    expect(() => atob(v.byte as string)).not.toThrow();
  });

  it('respects enum, const, default, bounds, multipleOf, pattern, lengths, item counts and uniqueness', async () => {
    await drawValid({ type: 'string', enum: ['a', 'b', 'c'] });
    await drawValid({ const: 42 });
    await drawValid({ type: 'integer', minimum: 10, maximum: 12 });
    await drawValid({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 });
    await drawValid({ type: 'integer', minimum: 0, maximum: 100, multipleOf: 7 });
    await drawValid({ type: 'number', multipleOf: 0.25, minimum: 1, maximum: 3 });
    await drawValid({ type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' });
    await drawValid({ type: 'string', minLength: 20, maxLength: 25 });
    await drawValid({ type: 'string', maxLength: 3 });
    await drawValid({ type: 'array', items: { type: 'integer', minimum: 1, maximum: 6 }, minItems: 4, maxItems: 6, uniqueItems: true });
    await drawValid({ type: 'array', items: { type: 'string', enum: ['x', 'y'] }, maxItems: 2, uniqueItems: true });
    await drawValid({ type: ['string', 'null'], format: 'email' });
    expect(await draw({ type: 'string', default: 'fallback' })).toBe('fallback');
  });

  it('examples win unless turned off; x-faker picks a faker method', async () => {
    expect(await draw({ type: 'string', example: 'doggie' })).toBe('doggie');
    expect(await draw({ type: 'string', examples: ['first', 'second'] })).toBe('first');
    expect(await draw({ type: 'string', example: 'doggie' }, { useExamples: false })).not.toBe('doggie');
    expect(await draw({ type: 'string', 'x-faker': 'internet.email' })).toMatch(/@/);
    expect(await draw({ type: 'string', 'x-faker': 'no.such.method' })).toEqual(expect.any(String));
  });

  it('readOnly is left out of requests, writeOnly out of answers; required properties are always there', async () => {
    const schema = { type: 'object', required: ['name'], properties: { id: { type: 'integer', readOnly: true }, password: { type: 'string', writeOnly: true }, name: { type: 'string' } } };
    expect(Object.keys((await draw(schema)) as object).sort()).toEqual(['id', 'name']);
    expect(Object.keys((await draw(schema, { direction: 'request' })) as object).sort()).toEqual(['name', 'password']);
  });

  it('allOf is merged; oneOf with a discriminator mapping sets the discriminator to the branch drawn', async () => {
    const doc = {
      components: {
        schemas: {
          Base: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' }, name: { type: 'string' } } },
          Cat: { allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', properties: { lives: { type: 'integer', minimum: 1, maximum: 9 } } }] },
          Dog: { allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', properties: { barks: { type: 'boolean' } } }] },
          Pet: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }], discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' } } },
        },
      },
    };
    const seen = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const v = (await draw({ $ref: '#/components/schemas/Pet' }, { doc, seed })) as Record<string, unknown>;
      expect(['cat', 'dog']).toContain(v.kind);
      if (v.kind === 'cat') expect(v.lives).toBeGreaterThanOrEqual(1);
      else expect(typeof v.barks).toBe('boolean');
      expect(typeof v.name).toBe('string');
      seen.add(v.kind as string);
    }
    expect(seen.size).toBe(2);
  });

  it('recursive schemas are bounded', async () => {
    const doc = { components: { schemas: { Node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } }, parent: { $ref: '#/components/schemas/Node' } } } } } };
    const v = await draw({ $ref: '#/components/schemas/Node' }, { doc });
    const depth = (n: unknown): number => (n && typeof n === 'object' ? 1 + Math.max(0, ...Object.values(n as object).map(depth)) : 0);
    expect(depth(v)).toBeLessThanOrEqual(12);
  });
});
