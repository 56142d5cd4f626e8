import { describe, expect, it } from 'vitest';
import { describeEvent, STAFF_READ_ACTIONS, type AuditRowForTimeline } from './timeline.js';

const row = (
  action: string,
  details: Record<string, unknown>,
  actor: AuditRowForTimeline['actor_type'] = 'system',
) => ({
  id: 1,
  at: '2026-11-23T10:00:00.000Z',
  actor_type: actor,
  actor_id: null,
  action,
  details,
  staff_name: actor === 'staff' ? 'Dana Cruz' : null,
  staff_email: null,
});

describe('messaging events on the link timeline', () => {
  it('tells a reminder by the step it named, in both languages', () => {
    const e = describeEvent(row('link.reminded', { channel: 'sms', kind: 'stalled', step: '/patientcontract' }));
    expect(e.category).toBe('message');
    expect(e.text.en).toBe('Sent a reminder by SMS (next step: Contract)');
    expect(e.text.es).toBe('Envió un recordatorio por SMS (siguiente paso: Contrato)');
    const first = describeEvent(row('link.reminded', { channel: 'email', kind: 'unopened', step: null }));
    expect(first.text.en).toBe('Sent a reminder by e-mail (next step: Patient information)');
  });

  it('a send carries its message’s delivery status now', () => {
    const e = describeEvent({ ...row('link.sent', { channel: 'email' }, 'staff'), delivery_status: 'accepted' });
    expect(e.text).toEqual({
      en: 'Sent the link by e-mail — accepted by the mail server',
      es: 'Envió el enlace por correo electrónico — aceptado por el servidor de correo',
    });
    expect(describeEvent(row('link.sent', { channel: 'sms' }, 'staff')).text.en).toBe('Sent the link by SMS');
  });

  it('tells a final delivery status with the provider error', () => {
    const ok = describeEvent(row('message.delivery', { kind: 'link-send', channel: 'sms', status: 'delivered' }));
    expect(ok.text).toEqual({ en: 'The link message was delivered', es: 'El mensaje con el enlace: entregado' });
    const bad = describeEvent(
      row('message.delivery', { kind: 'link-reminder', status: 'undelivered', errorCode: '30003' }),
    );
    expect(bad.text.en).toBe('The reminder was not delivered');
    expect(bad.note).toBe('error 30003');
  });

  it('shows the reminders switch as a staff action; reading the messages is a staff read', () => {
    expect(describeEvent(row('link.reminders_off', {}, 'staff'))).toMatchObject({
      category: 'staff_action',
      actor: { type: 'staff', name: 'Dana Cruz' },
      text: { en: 'Turned reminders off' },
    });
    expect(describeEvent(row('link.messages_read', {}, 'staff')).category).toBe('staff_read');
    // The board's change feed ignores staff reads: the detail page reading messages must not wake itself up.
    expect(STAFF_READ_ACTIONS).toContain('link.messages_read');
  });
});
