import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import { controlCharField } from '../../lib/control-chars.js';
import { compressDynamic } from '../../lib/compress-response.js';
import { ERROR_CODE, convergeError } from '../../providers/gateway/converge-protocol.js';

/**
 * The sandbox gateway's HTTP shell: form bodies, CORS and security headers for the app's origin only, no caching
 * (but for its versioned scripts), compressed answers,
 * and errors in Converge's shape that never echo their cause.
 */
export async function sandboxShell(opts: { logger: FastifyBaseLogger; publicUrl: string }): Promise<FastifyInstance> {
  const app = Fastify({ loggerInstance: opts.logger, bodyLimit: 64 * 1024 });
  await app.register(formbody);
  await app.register(cors, {
    origin: [opts.publicUrl],
    methods: ['GET', 'POST', 'OPTIONS'],
    allowedHeaders: ['content-type', 'authorization'],
  });
  // The same security headers as the app (issue 11, finding 6); its scripts are loaded and its challenge page is
  // framed by the app's origin only.
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", "'unsafe-inline'"],
        'style-src': ["'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'form-action': ["'self'"],
        'frame-ancestors': [opts.publicUrl],
        'base-uri': ["'none'"],
        'object-src': ["'none'"],
      },
    },
    frameguard: false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
  // Nothing kept by default; the scripts say otherwise (compressed.ts). Pages and answers compressed (issue 30).
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return compressDynamic(request, reply, payload);
  });
  // Control characters never reach the database (PostgreSQL refuses NUL); errors never echo their cause.
  app.addHook('preValidation', async (request, reply) => {
    const field = controlCharField(request);
    if (field) {
      return reply
        .status(400)
        .send(
          convergeError(ERROR_CODE.requiredField, 'Invalid Field', `${field} must not contain control characters.`),
        );
    }
  });
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'sandbox gateway error');
    return reply
      .status(status)
      .send(
        status === 500
          ? convergeError('5000', 'Internal Error', 'The gateway could not process the request. Please try again.')
          : convergeError(ERROR_CODE.requiredField, 'Invalid Request', 'The request could not be read.'),
      );
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  return app;
}
