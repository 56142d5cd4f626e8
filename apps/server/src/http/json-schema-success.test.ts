import { continueCheckSchema, patientInfoSchema } from '@paylink/shared';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchemaSuccess } from './json-schema-success.js';

const person = {
  firstName: 'María José',
  lastName: 'Núñez "Pepa"',
  address: 'Calle Mayor 1\n2º',
  city: 'Santa Mónica',
  state: 'CA',
  zipCode: '90401',
  phone: '+15555554829',
  email: 'maria@example.com',
  paymentSource: null,
  paymentType: null,
  paymentAmount: null,
  isPaymentLinkLocked: false,
  payorName: null,
  payorEmail: null,
};
const check = {
  linkStepScript: [
    { linkStepId: 7, routePath: '/patientinfo', documentUrl: null, linkStepStatusId: 4 },
    {
      linkStepId: 8,
      routePath: '/patientcontract',
      documentUrl: 'http://127.0.0.1:1/s/abc?x=1&y=<2>',
      linkStepStatusId: 1,
    },
  ],
  person: { ...person, paymentSource: 2, paymentType: 1, paymentAmount: 512.5, payorName: 'Ana', payorEmail: 'a@b.c' },
  payment: { paymentAmount: 512.5, paymentSourceId: 2, paymentTypeId: 1 },
  paymentAmount: 512.5,
  currentRoutePath: '/patientcontract',
};
const route = (schema: z.ZodType, httpStatus: string) => ({ schema, method: 'GET', url: '/x', httpStatus });
const zodWrites = (schema: z.ZodType, data: unknown) => serializerCompiler(route(schema, '200'))(data);

describe('the patient reads\u2019 success serializer from the shared schema (decision 0182)', () => {
  it.each([
    ['patient info', patientInfoSchema, person],
    ['continue check', continueCheckSchema, check],
  ] as const)('writes %s byte for byte as zod\u2019s serializer does', (_name, schema, data) => {
    const write = jsonSchemaSuccess()(route(schema, '200'));
    expect(write(data)).toBe(zodWrites(schema, data));
    // Properties outside the contract never leave, as with zod's.
    expect(write({ ...data, sessionId: 'secret', internal: 1 })).toBe(zodWrites(schema, data));
  });

  it('refuses an answer without a required property', () => {
    const write = jsonSchemaSuccess()(route(patientInfoSchema, '200'));
    const { firstName: _omitted, ...rest } = person;
    expect(() => write(rest)).toThrow(/firstName/);
  });

  it('leaves every other status to zod\u2019s serializer', () => {
    const refusal = z.object({ error: z.string(), message: z.string() });
    const write = jsonSchemaSuccess()(route(refusal, '403'));
    expect(() => write({ error: 1 })).toThrow();
    expect(write({ error: 'forbidden', message: 'No.', extra: true })).toBe('{"error":"forbidden","message":"No."}');
  });
});
