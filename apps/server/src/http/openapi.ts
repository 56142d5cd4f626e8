import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

type Transform = typeof jsonSchemaTransform;
type Schema = Record<string, unknown> & { response?: Record<string, unknown>; security?: unknown[] };

const ERROR_BODY = {
  type: 'object',
  properties: { error: { type: 'string' }, message: { type: 'string' } },
  required: ['error', 'message'],
};

/** `post /api/admin/links/:id/cancel` → `postAdminLinksIdCancel`: a stable name for operations that set none. */
function operationIdFor(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '')
    .split(/[/{}:._-]+/)
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/**
 * The zod transform, then what Redocly's recommended rules ask of every operation: a unique operationId (a route may
 * set its own) and at least one documented refusal. Every /api route can refuse: 401 where it has credentials
 * (API key, session or staff token), otherwise 400 for input the shared schemas refuse.
 */
export const openApiTransform: Transform = (data) => {
  const out = jsonSchemaTransform(data);
  const schema = { ...(out.schema as Schema) };
  const method = Array.isArray(data.route.method) ? data.route.method[0]! : data.route.method;
  schema.operationId ??= operationIdFor(method, data.url);
  // A route without answers documented gets swagger's default success answer; keep one when adding refusals.
  const responses = { ...(schema.response ?? { '2xx': { description: 'Success' } }) };
  if (!Object.keys(responses).some((code) => code.startsWith('4'))) {
    const code = schema.security && schema.security.length > 0 ? 401 : 400;
    responses[code] = {
      description: code === 401 ? 'Missing or invalid credentials' : 'Invalid request',
      ...ERROR_BODY,
    };
  }
  schema.response = responses;
  return { ...out, schema } as ReturnType<Transform>;
};

/** OpenAPI 3.0 wants `nullable` beside a `type`: zod's nullable unions put it beside `anyOf`, so push it into each branch. */
export const openApiTransformObject: NonNullable<FastifyDynamicSwaggerOptions['transformObject']> = (input) => {
  const doc = 'openapiObject' in input ? input.openapiObject : input.swaggerObject;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (o.nullable === true && o.type === undefined && Array.isArray(o.anyOf)) {
      o.anyOf = (o.anyOf as Record<string, unknown>[]).map((branch) => ({ ...branch, nullable: true }));
      delete o.nullable;
    }
    Object.values(o).forEach(visit);
  };
  visit(doc);
  return doc;
};
