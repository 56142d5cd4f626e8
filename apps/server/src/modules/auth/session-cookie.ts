import type { FastifyReply } from 'fastify';
import type { SessionResult } from '@paylink/shared';
import type { Config } from '../../config.js';
import { SESSION_COOKIE } from '../../http/guards.js';

/**
 * The session cookie (docs/decisions/0011): HttpOnly (page scripts never read it), SameSite=Strict, Path=/api (only
 * API calls carry it), Secure on https, and it dies with the token.
 */
export function setSessionCookie(reply: FastifyReply, config: Config, s: { token: string; expiresAt: Date }) {
  reply.setCookie(SESSION_COOKIE, s.token, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/api',
    secure: config.publicUrl.startsWith('https:'),
    maxAge: Math.max(0, Math.floor((s.expiresAt.getTime() - Date.now()) / 1000)),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config) {
  reply.clearCookie(SESSION_COOKIE, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/api',
    secure: config.publicUrl.startsWith('https:'),
  });
}

export function sessionAnswer(s: { token: string; expiresAt: Date }): SessionResult {
  return { token: s.token, expiresAt: s.expiresAt.toISOString() };
}
