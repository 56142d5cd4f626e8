import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * How a built web app is served (issue 17), for any Vite dist (the patient app at `/`, the console at `/console/`):
 * - Brotli / gzip siblings written at build (scripts/compress-dist.ts) are chosen by `Accept-Encoding`
 *   (`preCompressed`), with `Vary: Accept-Encoding`; identity when the client takes neither.
 * - Hashed files under `assets/` never change under their name: cached for a year, `immutable`.
 * - Everything else (index.html, /locales/…, icons) is `no-cache`: a browser may keep it but revalidates with the
 *   ETag / Last-Modified each time, so a deploy is picked up at once and an unchanged file costs a 304.
 */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

export function cacheControlFor(filePath: string): string {
  const p = filePath.replace(/\\/g, '/').replace(/\.(br|gz)$/, '');
  return /\/assets\/[^/]+$/.test(p) ? IMMUTABLE : REVALIDATE;
}

export async function registerStaticDist(
  app: FastifyInstance,
  opts: { root: string; prefix?: string; decorateReply?: boolean },
) {
  await app.register(fastifyStatic, {
    root: opts.root,
    prefix: opts.prefix ?? '/',
    decorateReply: opts.decorateReply ?? true,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    etag: true,
    lastModified: true,
    setHeaders: (reply: FastifyReply, filePath: string) => {
      reply.header('cache-control', cacheControlFor(filePath));
    },
  });
}
