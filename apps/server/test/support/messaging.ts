import type { AppContext } from '../../src/context.js';
import { staffToken } from '../../src/seed/seed-staff.js';
import { twilioSignature } from '../../src/modules/messaging/twilio-signature.js';

/** A coordinator with a name (messages name the sender) and their bearer header. */
export async function coordinator(ctx: AppContext, email = 'maria@practice.example', name = 'Maria Lopez') {
  const token = await staffToken(ctx.db, { email, role: 'coordinator' });
  await ctx.db.query('update staff_user set name = $2 where email = $1', [email, name]);
  const id = (await ctx.db.query<{ id: string }>('select id from staff_user where email = $1', [email])).rows[0]!.id;
  return { id, headers: { authorization: `Bearer ${token}` } };
}

/** A form POST as Twilio sends it, signed with `token` over PUBLIC_URL + path (or unsigned / wrongly signed). */
export function twilioForm(
  ctx: AppContext,
  path: string,
  fields: Record<string, string>,
  sign: { token: string } | 'none' | 'wrong' = { token: 'test-auth-token' },
) {
  const params = new URLSearchParams(fields);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (sign === 'wrong')
    headers['x-twilio-signature'] = twilioSignature('not-the-token', `${ctx.config.publicUrl}${path}`, params);
  else if (sign !== 'none')
    headers['x-twilio-signature'] = twilioSignature(sign.token, `${ctx.config.publicUrl}${path}`, params);
  return { method: 'POST' as const, url: path, headers, payload: params.toString() };
}
