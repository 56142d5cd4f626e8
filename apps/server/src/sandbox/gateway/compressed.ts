import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { acceptedEncoding } from '../../lib/compress-response.js';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What the sandbox gateway sends to browsers, compressed as the apps' own files are (issue 30): Brotli or gzip by
 * Accept-Encoding. Its two scripts are fixed for the life of the process: compressed once (Brotli 11) with an ETag;
 * asked with the `?v=` of their current text they are kept for good (immutable), otherwise revalidated.
 */
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
