import { CONTROL_CHARS_MESSAGE } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import { controlCharField } from '../lib/control-chars.js';
import { badRequest } from '../lib/errors.js';

/**
 * Finding 3 of issue 11: a NUL or other control character in any parsed input (params, query, body) is refused with
 * a 400 naming the field, before validation or any database call (PostgreSQL refuses NUL in text and jsonb and would
 * turn it into a 500). The shared schemas say the same for their fields; this hook also covers routes whose schemas
 * do not, and the side servers.
 */
export function refuseControlChars(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const field = controlCharField(request);
    if (field) throw badRequest(`${field}: ${CONTROL_CHARS_MESSAGE}`, { [field]: CONTROL_CHARS_MESSAGE });
  });
}
