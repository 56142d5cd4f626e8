import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What the sandbox gateway sends to browsers, compressed as the apps' own files are (issue 30): Brotli or gzip by
 * Accept-Encoding. Its two scripts are fixed for the life of the process: compressed once (Brotli 11) with an ETag;
 * asked with the `?v=` of their current text they are kept for good (immutable), otherwise revalidated.
 */
type Encoding = 'br' | 'gzip';

/** Brotli, else gzip, when the browser accepts it (q=0 refuses). */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | undefined {
  const accepts = (name: string) =>
    String(header ?? '')
      .split(',')
      .map((p) => p.trim().toLowerCase())
      .some((p) => p.split(';')[0] === name && !/;\s*q=0(\.0*)?$/.test(p));
  return accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : undefined;
}

export interface FixedAsset {
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
  type: string;
}

export function fixedAsset(text: string, type: string): FixedAsset {
  const body = Buffer.from(text, 'utf8');
  return {
    body,
    br: brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(body, { level: 9 }),
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    type,
  };
}

/** Sends a fixed asset: immutable when asked with its current version, else revalidated by ETag. */
export function sendFixed(
  request: FastifyRequest<{ Querystring: { v?: string } }>,
  reply: FastifyReply,
  asset: FixedAsset,
  version: string,
) {
  reply
    .header('cache-control', request.query.v === version ? 'public, max-age=31536000, immutable' : 'no-cache')
    .header('vary', 'accept-encoding')
    .header('etag', asset.etag)
    .type(asset.type);
  if (request.headers['if-none-match'] === asset.etag) return reply.status(304).send();
  const encoding = acceptedEncoding(request.headers['accept-encoding']);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding ? asset[encoding] : asset.body);
}

/** Pages and answers made per request (the 3-D Secure challenge page): compressed when worth it (≥ 1 KB). */
export function compressDynamic(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  if (typeof payload !== 'string' || payload.length < 1024 || reply.hasHeader('content-encoding')) return payload;
  const type = String(reply.getHeader('content-type') ?? '');
  if (!/^(text\/|application\/(json|javascript|xml))/.test(type)) return payload;
  const encoding = acceptedEncoding(request.headers['accept-encoding']);
  reply.header('vary', 'accept-encoding');
  if (!encoding) return payload;
  reply.header('content-encoding', encoding);
  reply.removeHeader('content-length');
  return encoding === 'br'
    ? brotliCompressSync(payload, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
    : gzipSync(payload, { level: 6 });
}
