import { findControlChars } from '@paylink/shared';

/**
 * The first parsed input (params, query, body) holding a NUL or other control character, by field name; null when
 * there is none. The app's guard (http/control-chars.ts) and the sandbox gateway both refuse such requests.
 */
export function controlCharField(request: { params: unknown; query: unknown; body: unknown }): string | null {
  for (const part of [request.params, request.query, request.body]) {
    const hit = findControlChars(part);
    if (hit) return hit;
  }
  return null;
}
