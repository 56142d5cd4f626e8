import type { Empty, Route } from '@paylink/shared';
import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/** What a route adds to its table entry: documentation, refusals, guards. Method, URL and input schemas come from the table. */
export type RouteExtras = Omit<RouteShorthandOptions, 'schema'> & {
  schema?: Omit<FastifySchema, 'params' | 'querystring' | 'body'> & {
    /** Refusals (4xx/5xx) the route documents; the success answer is the table's. */
    response?: Record<number, unknown>;
  };
};

type Status<R extends Route> = R extends { status: infer S extends number } ? S : 200;

/** The fastify schema the table entry stands for: what types the handler's request and reply. */
export type SchemaOf<R extends Route, X extends RouteExtras = RouteExtras> = {
  params: R['params'];
  querystring: R['query'];
  body: R['body'];
  response: (R extends { response: z.ZodType } ? { [S in Status<R>]: R['response'] } : Empty) &
    NonNullable<NonNullable<X['schema']>['response']>;
};

export type RouteHandler<R extends Route, X extends RouteExtras = RouteExtras> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<R, X>,
  ZodTypeProvider
>;

/**
 * Registers a route of the shared table (packages/shared/src/routes, decision 0123): method, URL, params, query, body
 * and the success answer come from the table, so the server and the clients cannot drift apart; the handler's
 * request and reply are typed from those schemas.
 */
export function route<R extends Route, const X extends RouteExtras>(
  app: FastifyInstance,
  def: R,
  extras: X,
  handler: RouteHandler<R, X>,
): void {
  const { schema: docs = {}, ...options } = extras;
  const schema: FastifySchema & Record<string, unknown> = { ...docs };
  if (def.params) schema.params = def.params;
  if (def.query) schema.querystring = def.query;
  if (def.body) schema.body = def.body;
  // The success answer is validated and serialised (a 204 may document no body); the extras add the refusals.
  const success = def.response ? { [def.status ?? 200]: def.response } : {};
  if (def.response || docs.response) schema.response = { ...success, ...docs.response };
  app.route({ ...options, method: def.method, url: def.path, schema, handler: handler as RouteHandlerMethod });
}
