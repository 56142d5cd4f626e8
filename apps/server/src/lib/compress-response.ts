import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Answers made per request (the signing frame's pages, the sandbox gateway's challenge page) compressed by
 * Accept-Encoding when worth it (issue 30). Fixed files are compressed once elsewhere (static-assets.ts, the
 * gateway's scripts); this is for what changes per request, at a quick Brotli level.
 */
export type Encoding = 'br' | 'gzip';

/** Brotli, else gzip, when the browser accepts it (q=0 refuses). */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | undefined {
  const accepts = (name: string) =>
    String(header ?? '')
      .split(',')
      .map((p) => p.trim().toLowerCase())
      .some((p) => p.split(';')[0] === name && !/;\s*q=0(\.0*)?$/.test(p));
  return accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : undefined;
}

/** An onSend step: a text payload of 1 KB or more, compressed (Brotli 5 or gzip 6) when the browser accepts it. */
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
