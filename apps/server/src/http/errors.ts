import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { AppError, LinkStateError } from '../lib/errors.js';

function fieldsFromZod(err: ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of err.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** The single error handler: typed errors map to their status; anything unknown is logged and answered 500. */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof LinkStateError) {
    return reply.status(401).type('text/plain; charset=utf-8').send(error.body);
  }
  if (error instanceof AppError) {
    const retry = (error as AppError & { retryAfterSeconds?: number }).retryAfterSeconds;
    if (retry !== undefined) reply.header('retry-after', String(retry));
    else if (error.status === 503) reply.header('retry-after', '2');
    return reply.status(error.status).send({
      error: error.code,
      message: error.message,
      ...(error.fields ? { fields: error.fields } : {}),
      ...(retry !== undefined ? { retryAfterSeconds: retry } : {}),
    });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    for (const v of error.validation) {
      const where = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const key = where || (v.params?.issue as { path?: unknown[] } | undefined)?.path?.join('.') || '_';
      fields[key] ??= v.message ?? 'is invalid';
    }
    const first = Object.entries(fields)[0];
    const message = first ? `${first[0] === '_' ? '' : `${first[0]}: `}${first[1]}` : 'The request is invalid.';
    return reply.status(400).send({ error: 'invalid_request', message, fields });
  }
  if (error instanceof ZodError) {
    return reply
      .status(400)
      .send({ error: 'invalid_request', message: 'The request is invalid.', fields: fieldsFromZod(error) });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const messages: Record<string, string> = {
      FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
      FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the body as application/json.',
      FST_ERR_CTP_EMPTY_JSON_BODY: 'The JSON body is empty.',
      FST_ERR_CTP_INVALID_JSON_BODY: 'The body is not valid JSON.',
    };
    const message =
      (error.code && messages[error.code]) ||
      (error.message.includes('JSON') ? 'The body is not valid JSON.' : error.message);
    return reply.status(status).send({ error: status === 413 ? 'payload_too_large' : 'invalid_request', message });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({ error: 'internal', message: 'Something went wrong on our side. Please try again.' });
}
