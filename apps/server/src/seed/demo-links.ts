import { randomBytes } from 'node:crypto';
import { createLinkBodySchema, stepRoutesFor, type CreateLinkBody } from '@paylink/shared';
import type { Config } from '../config.js';
import type { Db, Queryable } from '../db/client.js';
import {
  createLink,
  applyLinkChange,
  completeByPayment,
  writeStepList,
  linkState,
  personalLinkUrl,
  type LinkRow,
} from '../modules/links/index.js';
import { SYSTEM_ACTOR } from '../lib/audit.js';
import { samplePatient } from './sample-links.js';

export interface DemoLink {
  label: string;
  id: string;
  url: string;
  signInMethod: 'sms' | 'email';
  contact: string;
  state: string;
}

const DEMOS: {
  label: string;
  state: 'active' | 'expired' | 'cancelled' | 'completed';
  input: Partial<CreateLinkBody>;
}[] = [
  { label: 'Patient pays (deposit)', state: 'active', input: {} },
  {
    label: 'Payor pays',
    state: 'active',
    input: {
      firstName: 'Sofia',
      lastName: 'Ramirez',
      email: 'sofia.ramirez@example.com',
      phone: '(555) 010-2233',
      signInMethod: 'email',
      payorName: 'James Carter',
      payorEmail: 'james.carter@example.com',
      procedureDescription: 'Breast augmentation: partial payment by payor',
    },
  },
  {
    label: 'Locked (partial payment, Spanish)',
    state: 'active',
    input: {
      firstName: 'Lucia',
      lastName: 'Fernandez',
      phone: '(555) 010-3344',
      email: 'lucia.fernandez@example.com',
      isPaymentLinkLocked: true,
      language: 'es',
      procedureDescription: 'Abdominoplasty: partial payment',
    },
  },
  { label: 'Expired', state: 'expired', input: { firstName: 'Ethan', lastName: 'Brooks', phone: '(555) 010-4455' } },
  { label: 'Cancelled', state: 'cancelled', input: { firstName: 'Olivia', lastName: 'Chen', phone: '(555) 010-5566' } },
  { label: 'Completed', state: 'completed', input: { firstName: 'Noah', lastName: 'Patel', phone: '(555) 010-6677' } },
];

async function makeCompleted(tx: Queryable, link: LinkRow) {
  await tx.query(
    `insert into payment (link_id, payment_type_id, payment_source_id, amount_cents, status, transaction_id,
       approval_code, card_brand, card_last4, paid_at)
     values ($1, 1, 1, 50000, 'approved', $2, 'DEMO01', 'visa', '4242', now())`,
    [link.id, `DEMO-${randomBytes(6).toString('hex').toUpperCase()}`],
  );
  // Through the lifecycle like any link: every step done (demo data has no documents), then completed by the payment.
  await writeStepList(tx, {
    actor: SYSTEM_ACTOR,
    link,
    routes: stepRoutesFor(1),
    replacing: [],
    documents: null,
    allCompleted: true,
    details: { demo: true },
  });
  await completeByPayment(tx, { actor: SYSTEM_ACTOR, link, by: 'demo' });
}

/**
 * The sandbox's first start: one link per situation a tester wants to see. Runs once per database, even when two
 * processes boot together (advisory lock + boot_task row).
 */
export async function seedDemoLinks(db: Db, config: Config): Promise<{ created: boolean }> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock(7243002)');
    const done = await tx.query('select 1 from boot_task where name = $1', ['demo_links']);
    if (done.rowCount > 0) return { created: false };
    for (const [i, demo] of DEMOS.entries()) {
      const input = createLinkBodySchema.parse({ ...samplePatient, ...demo.input });
      const { link } = await createLink({
        tx,
        actor: SYSTEM_ACTOR,
        publicUrl: config.publicUrl,
        input,
        defaultExpiryDays: config.LINK_DEFAULT_EXPIRY_DAYS,
        demoLabel: demo.label,
      });
      // One transaction = one now(): spread created_at so lists show the demos in this order.
      await tx.query('update link set created_at = now() - make_interval(secs => $2) where id = $1', [
        link.id,
        DEMOS.length - i,
      ]);
      if (demo.state === 'expired') {
        await applyLinkChange(tx, { actor: SYSTEM_ACTOR, link, change: { kind: 'expire' }, backdateDays: 1 });
      } else if (demo.state === 'cancelled') {
        await applyLinkChange(tx, { actor: SYSTEM_ACTOR, link, change: { kind: 'cancel' } });
      } else if (demo.state === 'completed') {
        await makeCompleted(tx, link);
      }
    }
    await tx.query('insert into boot_task (name) values ($1)', ['demo_links']);
    return { created: true };
  });
}

/** The demo links still in the database, in creation order, for the start-up banner. */
export async function listDemoLinks(db: Queryable, publicUrl: string): Promise<DemoLink[]> {
  const r = await db.query<LinkRow>('select * from link where demo_label is not null order by created_at, id');
  return r.rows.map((l) => ({
    label: l.demo_label!,
    id: l.id,
    url: personalLinkUrl(publicUrl, l.id),
    signInMethod: l.sign_in_method,
    contact: l.sign_in_method === 'sms' ? l.phone : l.email,
    state: linkState(l),
  }));
}
