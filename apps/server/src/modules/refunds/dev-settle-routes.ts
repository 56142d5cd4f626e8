import { z } from 'zod';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { AppError, notFound } from '../../lib/errors.js';
import { settleSandboxBatch } from '../../providers/gateway/sandbox.js';

import { isLocalClient } from '../../http/local-client.js';

/**
 * Sandbox only: close the sandbox gateway's batch now (its ccsettle call), so a sale can be partly refunded without
 * waiting the 24 hours the sandbox otherwise takes — for people trying refunds and for browser tests. Like the dev
 * outbox: loopback or a staff token, 404 outside sandbox mode or with the real gateway.
 */
export async function devSettleRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const sandboxOnly = async (request: FastifyRequest) => {
    if (ctx.config.mode !== 'sandbox' || !ctx.config.sandbox.gateway) throw notFound();
    if (isLocalClient(request)) return;
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (bearer && (await ctx.staffAccess.verifyToken(bearer))) return;
    throw new AppError('sandbox_local_only', 'Settling the sandbox batch is allowed only on this machine.');
  };
  r.post(
    '/api/dev/gateway/settle',
    {
      schema: {
        hide: true,
        body: z
          .object({ transactionId: z.string().max(100).optional() })
          .strict()
          .nullish(),
      },
      onRequest: sandboxOnly,
    },
    async (request) => {
      const settled = await settleSandboxBatch({
        db: ctx.db,
        origin: ctx.config.gatewayOrigin,
        txnId: request.body?.transactionId,
      });
      return { settled };
    },
  );
}
