import { apiErrorSchema } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/** OpenAPI answers for refusals: `{ error, message, fields? }`. */
export function errorResponses<C extends number>(...codes: C[]): Record<C, typeof apiErrorSchema> {
  return Object.fromEntries(codes.map((c) => [c, apiErrorSchema])) as Record<C, typeof apiErrorSchema>;
}

/** 401 on link lookups: a plain-text body the client routes on (spec section 4), or JSON for credential refusals. */
export const linkState401 = z
  .union([z.string(), apiErrorSchema])
  .describe(
    "text/plain 'Link Expired.', 'Link has been Cancelled.', 'Process has completed.' or 'Not Authorized'; JSON for a missing or wrong API key or session",
  );

/**
 * The original client sends `Content-Type: application/json` on calls without a body (PUT /api/linksteps, POST
 * /api/linksteps/script). Fastify refuses an empty JSON body; in this scope an empty body means "no body".
 */
export function allowEmptyJsonBodies(scope: FastifyInstance): void {
  const json = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    json(request, body as string, done);
  });
}

export const PATIENT_SECURITY = [{ apiKey: [], bearer: [] }];
export const API_KEY_SECURITY = [{ apiKey: [] }];
