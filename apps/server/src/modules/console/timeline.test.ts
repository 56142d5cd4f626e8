import { describe, expect, it } from 'vitest';
import { PATIENT_READ_ACTIONS, STAFF_READ_ACTIONS } from '../../lib/audit.js';
import { describeEvent, type AuditRowForTimeline } from './timeline.js';

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
    expect(bad).toMatchObject({ note: '30003', noteKind: 'deliveryError' });
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

describe('payment plan events on the link timeline', () => {
  it('tells a card update, a refused one and the expiring-card notice (decision 0211)', () => {
    const updated = describeEvent(row('plan.card_updated', { brand: 'visa', last4: '0077', retrying: 1 }, 'link'));
    expect(updated).toMatchObject({ category: 'payment', actor: { type: 'patient' } });
    expect(updated.text.en).toBe("Replaced the plan's card with Visa ending 0077 (verified, nothing charged)");
    expect(updated.note).toMatch(/^1 declined installment\(s\) retried at once/);
    expect(describeEvent(row('plan.card_update_refused', { reason: 'declined' }, 'link')).text.es).toBe(
      'No se verificó una nueva tarjeta para el plan: se mantuvo la tarjeta registrada',
    );
    expect(describeEvent(row('plan.card_expiring_notified', { n: 2, dueOn: '2027-02-15' })).text.en).toBe(
      'Asked the patient for another card: the card expires before installment 2 (2027-02-15)',
    );
  });

  it('tells the agreement’s acceptance with its version, time, address and browser', () => {
    const e = describeEvent({
      ...row('plan.agreement_accepted', { version: '2026-11-27', language: 'en', userAgent: 'Mozilla/5.0' }, 'link'),
      ip: '203.0.113.9',
    });
    expect(e).toMatchObject({ category: 'payment', actor: { type: 'patient' }, note: 'Mozilla/5.0' });
    expect(e.text).toEqual({
      en: 'Accepted the card-on-file agreement (version 2026-11-27) on 2026-11-23 10:00:00 UTC from 203.0.113.9',
      es: 'Aceptó la autorización para guardar la tarjeta (versión 2026-11-27) el 2026-11-23 10:00:00 UTC desde 203.0.113.9',
    });
  });

  it('tells the practice’s actions on the plan, with the staff member’s note', () => {
    expect(
      describeEvent(
        row('plan.cancelled', { cancelled: [2, 3], cancelledCents: 100_000, reason: 'surgery off' }, 'staff'),
      ),
    ).toMatchObject({
      text: {
        en: 'Cancelled the rest of the payment plan ($1,000.00 not to be charged); the patient was told',
        es: 'Canceló el resto del plan de pagos ($1,000.00 que no se cobrarán); se avisó al paciente',
      },
      note: 'surgery off',
    });
    expect(
      describeEvent(row('installment.rescheduled', { n: 2, from: '2027-01-15', to: '2027-02-01' }, 'staff')).text.en,
    ).toBe('Moved installment 2 from 2027-01-15 to 2027-02-01');
    expect(describeEvent(row('plan.resumed', { renotice: [1] }, 'staff')).note).toMatch(/^new notice first/);
    expect(describeEvent(row('installment.charge_requested', { n: 1, amountCents: 5_000 }, 'staff')).text.es).toBe(
      'Pidió cobrar ahora la cuota 1 ($50.00)',
    );
  });

  it('tells the card, the start, the notices and the charges in words', () => {
    expect(describeEvent(row('plan.created', { totalCents: 200_000 }, 'staff')).text.en).toBe(
      'Set up a payment plan for $2,000.00',
    );
    expect(describeEvent(row('plan.card_stored', { brand: 'visa', last4: '0002' })).text.en).toBe(
      'Kept the card for the plan (Visa ending 0002)',
    );
    expect(describeEvent(row('plan.card_missing', {})).text.es).toBe(
      'El depósito se pagó pero no se guardó la tarjeta: el plan necesita una tarjeta',
    );
    const moved = describeEvent(
      row('installment.notified', { n: 1, amountCents: 50_000, dueOn: '2027-01-22', movedFrom: '2027-01-15' }),
    );
    expect(moved.text.en).toBe('Told the patient of charge 1 ($500.00 on 2027-01-22)');
    expect(moved.note).toMatch(/^due date moved from 2027-01-15/);
    expect(describeEvent(row('installment.paid', { n: 2, amountCents: 50_000, txnId: 'T-9' }))).toMatchObject({
      text: { en: 'Charged installment 2: $500.00', es: 'Cobró la cuota 2: $500.00' },
      note: 'T-9',
      noteKind: 'transaction',
    });
    expect(describeEvent(row('installment.declined', { n: 2, amountCents: 50_000, reason: 'DECLINED' }))).toMatchObject(
      {
        text: { en: 'Installment 2 ($500.00) was declined; it will be retried' },
        note: 'DECLINED',
        noteKind: 'gateway',
      },
    );
    expect(describeEvent(row('installment.failed', { n: 2, amountCents: 50_000, attempts: 3 })).text.en).toBe(
      'Installment 2 ($500.00) failed after 3 attempts',
    );
  });

  it('counts the patient’s plan read as a read, not an event', () => {
    expect(PATIENT_READ_ACTIONS).toContain('plan.read');
  });
});

describe('the timeline in Spanish (issue 29, item 11)', () => {
  it('tells refunds, reconciliation, receipts and notices in words, not raw action names', () => {
    const actions = [
      'payment.refund_requested',
      'installment.refund_requested',
      'payment.refund_refused',
      'payment.refund_outcome_unknown',
      'payment.refund_receipt_queued',
      'payment.refund_receipt_skipped',
      'payment.receipt_skipped',
      'payment.patient_notified',
      'payment.reconciled',
      'payment.second_approval_flagged',
      'payment.flagged_approval_reversal_requested',
      'payment.confirmation_refused',
      'payment.confirmation_repeated',
      'payment.confirmation_unknown',
      'installment.notice_undeliverable',
      'plan.card_update_started',
      'steps.read',
      'payment.voided',
      'payment.refunded',
      'payment.flagged_approval_voided',
      'payment.flagged_approval_refunded',
      'payment.reconciliation_flagged',
      'payment.needs_attention',
      'auth.sms.locked',
      'auth.email.mismatch',
      'auth.session.refreshed',
    ];
    for (const action of actions) {
      const e = describeEvent(row(action, { amountCents: 12_050, n: 2, kind: 'return', channel: 'email' }));
      expect(e.text.es, action).not.toBe(e.text.en);
      expect(e.text.en, action).not.toBe(action.replace(/[._]/g, ' '));
    }
    expect(describeEvent(row('payment.refund_requested', { amountCents: 12_050, kind: 'void' })).text.es).toBe(
      'Anuló el pago ($120.50)',
    );
  });

  it('sends codes, not English, as notes: the console words them (noteKind)', () => {
    expect(describeEvent(row('payment.failure_logged', { kind: 'declined' }))).toMatchObject({
      note: 'declined',
      noteKind: 'failure',
    });
    expect(describeEvent(row('auth.sms.failed', { reason: 'wrong-code' }))).toMatchObject({
      note: 'wrong-code',
      noteKind: 'signIn',
    });
    expect(describeEvent(row('link.cancelled', { reason: 'Duplicate link' }, 'staff'))).toMatchObject({
      note: 'Duplicate link',
      noteKind: 'text',
    });
    expect(describeEvent(row('link.created', {}))).toMatchObject({ note: null, noteKind: 'text' });
  });
});

describe('no codes on the timeline (issue 29, item 4)', () => {
  it('says what a payment step and a return to the steps were, in both languages', () => {
    const asked = describeEvent(row('payment.session_requested', { amountCents: 50_000 }, 'link'));
    expect(asked.text).toEqual({
      en: 'Asked the card gateway for a payment form ($500.00)',
      es: 'Pidió a la pasarela un formulario de pago ($500.00)',
    });
    expect(describeEvent(row('steps.continue_check', {}, 'link')).text.en).toBe('Came back to continue the steps');
  });

  it('an action without words reads "Other event" and keeps its code as the note', () => {
    const e = describeEvent(row('something.new_here', {}));
    expect(e.text).toEqual({ en: 'Other event', es: 'Otro evento' });
    expect(e.note).toBe('something.new_here');
  });
});
