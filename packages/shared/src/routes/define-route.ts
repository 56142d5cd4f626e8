import type { z } from 'zod';

/**
 * The route table's building blocks (decision 0123). Two halves, so the browser never pays for zod:
 * - an endpoint ({ method, path }, plain data, no zod): what the clients import and `call()` takes;
 * - a route (`defineRoute({ ...endpoint, params?, query?, body?, response })`): the endpoint plus its zod schemas,
 *   what the server registers from (validation, handler types and the OpenAPI document).
 * A client finds a route's types from its endpoint's method and path alone (`RouteOf`), with a type-only import.
 * This file holds no zod at run time (`import type` only).
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Endpoint<M extends HttpMethod = HttpMethod, P extends string = string> {
  readonly method: M;
  readonly path: P;
}

export interface RouteSchemas {
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** The success answer's body; left out only by a 204 that documents no body. */
  readonly response?: z.ZodType;
  /** The success status when it is not 200 (201 created, 204 no content). */
  readonly status?: 200 | 201 | 202 | 204;
}

export type Route = Endpoint & RouteSchemas;

/** An endpoint table: names to `{ method, path }`, checked, kept literal. */
export function defineEndpoints<const T extends Record<string, Endpoint>>(endpoints: T): T {
  return endpoints;
}

/** A route: an endpoint of the table plus its schemas. */
export function defineRoute<const R extends Route>(route: R): R {
  return route;
}

/** The route (with schemas) of `routes` that answers `endpoint`: found by method and path. */
export type RouteOf<E extends Endpoint, Routes extends Route> = Extract<
  Routes,
  { readonly method: E['method']; readonly path: E['path'] }
>;

/** The empty object type, spelled so the linter knows it is meant. */
export type Empty = Record<never, never>;

type Output<S> = S extends z.ZodType ? z.output<S> : never;
/** `{ [key]: input }`, optional when the schema accepts nothing (an all-optional object or an optional body). */
type Part<K extends string, S> = S extends z.ZodType
  ? undefined extends z.input<S>
    ? { [P in K]?: z.input<S> }
    : Empty extends z.input<S>
      ? { [P in K]?: z.input<S> }
      : { [P in K]: z.input<S> }
  : unknown;

/** What a client sends: the inputs (before transforms) of the route's params, query and body; absent ones left out. */
export type RequestOf<R extends Route> = Part<'params', R['params']> &
  Part<'query', R['query']> &
  Part<'body', R['body']>;

/** What a client gets back: the success answer (undefined for 204). */
export type ResponseOf<R extends Route> = R extends { status: 204 } ? undefined : Output<R['response']>;

/** `/api/patients/:linkId/notoken` + { linkId } → `/api/patients/<encoded>/notoken`. */
export function fillPath(path: string, params?: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${path}: the path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}
