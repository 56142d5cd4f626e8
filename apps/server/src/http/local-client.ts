import type { FastifyRequest } from 'fastify';

/**
 * This machine, and no one speaking for it: the socket's own address is loopback and no proxy forwarded the request.
 * A forwarded loopback address is never trusted (issue 26): behind a proxy on the same machine every client would
 * arrive from loopback, and the forwarded address is whatever the proxy was told.
 */
export function isLocalClient(request: FastifyRequest): boolean {
  const h = request.headers;
  if (h['x-forwarded-for'] !== undefined || h.forwarded !== undefined || h['x-real-ip'] !== undefined) return false;
  return isLoopback(request.socket.remoteAddress) && isLoopback(request.ip);
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopback(ip: string | undefined): boolean {
  if (!ip) return false;
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
