import { z } from 'zod';
import { formatUsd } from './amounts.js';
import { knownCardBrandName } from './display.js';
import type { Language } from './ids.js';
import { planEverySchema } from './plans.js';

/**
 * The patient's side of a payment plan (issue 28): the schedule they agree to on the payment page, and the
 * card-on-file agreement they accept with its own checkbox before the deposit stores their card. The agreement's
 * words live here once: the payment page shows them, and the server writes the same words into the receipt, the
 * timeline and the dispute evidence pack, under the version the patient accepted.
 */

/**
 * Bumped whenever the words below change; stored with every acceptance. 2026-12-02: "I authorize" (US spelling,
 * issue 41) and the declined payments named (decision 0249); the words of 2026-11-27 ("I authorise") stay below for
 * the acceptances made under them.
 */
export const CARD_ON_FILE_AGREEMENT_VERSION = '2026-12-02';
/** Days before each charge that the patient is told (card-network rules for instalments). */
export const PLAN_NOTICE_DAYS = 7;

export const patientPlanInstallmentSchema = z.object({
  n: z.number().int(),
  dueOn: z.string().describe('YYYY-MM-DD'),
  amount: z.number().describe('US dollars.'),
  status: z.enum(['scheduled', 'notified', 'paid', 'failed', 'cancelled', 'refunded']),
});

/** The brands a payment page may name (the web app's card types and the server's brand names), and nothing else. */
const PAGE_CARD_BRANDS = [
  'American Express',
  'Diners Club Carte Blanche',
  'Diners Club International',
  'Diners Club',
  'JCB',
  'Laser',
  'Visa Electron',
  'Visa',
  'Mastercard',
  'Maestro',
  'Discover',
  'UnionPay',
];
const PAGE_CARD_LABEL = new RegExp(`^(${PAGE_CARD_BRANDS.join('|')}) (ending in|terminada en) \\d{4}$`);

/** GET /api/plans/:linkId — 404 when the link has no plan. */
export const patientPlanSchema = z.object({
  kind: z.enum(['single', 'installments']),
  /** Dollars: the quote. */
  total: z.number(),
  /** Dollars paid as the deposit; null until it is paid. */
  deposit: z.number().nullable(),
  /** Dollars: total − the paid deposit, or total − the chosen amount before it is paid. */
  balance: z.number(),
  /** true until the deposit is paid: the amounts follow the amount chosen on the patient information page. */
  projected: z.boolean(),
  installments: z.array(patientPlanInstallmentSchema),
  /**
   * The plan's shape: the patient information page projects the charges from the amount being typed with it
   * (planSchedule), before anything is chosen (issue 41, item 5). Optional for the pages' older fixtures.
   */
  shape: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('single'), dueOn: z.string() }),
      z.object({
        kind: z.literal('installments'),
        count: z.number().int(),
        every: planEverySchema,
        firstDueOn: z.string(),
      }),
    ])
    .optional(),
  noticeDays: z.number().int(),
  /**
   * The charges still to come as the agreement words them, in each language, formatted once by the server: every
   * browser then shows (and sends back) the same words, whatever its own date and currency formats (decision 0214).
   */
  scheduleLines: z.object({ en: z.array(z.string()), es: z.array(z.string()) }),
  /**
   * The declined payments no longer tried automatically (status failed), worded the same way: a new card is kept for
   * them too, charged when the practice charges them (decisions 0211, 0247). Optional for the pages' older fixtures.
   */
  failedLines: z.object({ en: z.array(z.string()), es: z.array(z.string()) }).optional(),
  /** The card kept for the plan once the deposit stored it. */
  card: z.object({ brand: z.string().nullable(), last4: z.string() }).nullable(),
  practice: z.object({ name: z.string(), phone: z.string(), email: z.string() }),
  agreement: z.object({
    version: z.string(),
    /** When this link's patient accepted this version; null when not yet (or an older version). */
    acceptedAt: z.string().nullable(),
  }),
});
export type PatientPlan = z.infer<typeof patientPlanSchema>;

/** POST /api/plans/:linkId/agreement */
export const planAgreementBodySchema = z
  .object({
    version: z.string().min(1).max(40),
    accepted: z.literal(true, { error: 'The card-on-file agreement must be accepted' }),
    /** The page's language, which the words below are in; the link's language when absent. */
    lang: z.enum(['en', 'es']).optional(),
    /**
     * The agreement exactly as the page showed it (`agreementText`): the server checks it against the plan and keeps
     * it with the acceptance. Without it (an API client) the server keeps its own words for the link's language.
     */
    text: z.string().min(1).max(10_000).optional(),
    /**
     * The card as the page named it ("Visa ending in 4242"), only to check the words the page showed: a brand from
     * the fixed list and four digits. What is kept names the card the server stored (decision 0240).
     */
    cardLabel: z
      .string()
      .max(60)
      .regex(PAGE_CARD_LABEL, 'The card is named by its brand and last four digits')
      .nullable()
      .optional(),
  })
  .strict();
export const planAgreementResultSchema = z.object({ version: z.string(), acceptedAt: z.string() });

/**
 * POST /api/plans/:linkId/card/session — a gateway session that verifies and stores a new card without charging it
 * (decision 0211). `updateId` is the merchant transaction id the verification carries.
 */
export const cardUpdateSessionSchema = z.object({ sessionToken: z.string(), updateId: z.string() });
/** POST /api/plans/:linkId/card — the browser reports the gateway's verification; the server asks the gateway. */
export const cardUpdateBodySchema = z
  .object({
    updateId: z.string().regex(/^[A-Za-z0-9]{16,40}$/, 'Invalid update id'),
    transactionId: z.string().min(1).max(100),
  })
  .strict();
export const cardUpdateResultSchema = z.object({
  card: z.object({ brand: z.string().nullable(), last4: z.string().nullable() }),
  /** Declined instalments waiting for a retry: the scheduler's next pass charges them to the new card. */
  retrying: z.number().int(),
});
export type CardUpdateResult = z.infer<typeof cardUpdateResultSchema>;

export interface AgreementFacts {
  practice: string;
  practicePhone: string;
  practiceEmail: string;
  /** Lines such as "January 15, 2027: $1,500.00", in the patient's language. */
  schedule: string[];
  /** Declined payments the practice charges (status failed), in the same words; absent or empty when none. */
  failed?: string[];
  noticeDays: number;
  /** "Visa ending in 4242", or null before a card is entered. */
  card: string | null;
}

/**
 * One line of a plan's schedule as the agreement words it: "January 15, 2027: $1,500.00" in en-US, "15 de enero de
 * 2027: $1,500.00" in es-US. The due date is a calendar day, so it is formatted in UTC.
 */
export function planScheduleLine(i: { dueOn: string; amountCents: number }, locale: string): string {
  const date = new Date(`${i.dueOn}T00:00:00Z`).toLocaleDateString(locale, { dateStyle: 'long', timeZone: 'UTC' });
  return `${date}: ${formatUsd(i.amountCents, locale)}`;
}

/** The words standing for the card before the server knows which card the patient pays with. */
export const AGREEMENT_CARD_PLACEHOLDER: Record<Language, string> = {
  en: 'the card I enter below',
  es: 'la tarjeta que ingrese abajo',
};

/**
 * The card as the agreement names it, from what the gateway answered for the stored card: a brand from the fixed
 * list (or just "the card") and the last four. Null without four digits: the words keep the placeholder.
 */
export function agreementCardLabel(brand: string | null, last4: string | null, lang: Language): string | null {
  if (!last4 || !/^\d{4}$/.test(last4)) return null;
  const name = knownCardBrandName(brand);
  if (lang === 'es') return `${name ?? 'la tarjeta'} terminada en ${last4}`;
  return `${name ?? 'the card'} ending in ${last4}`;
}

/**
 * Words accepted before the card was stored (they carry the placeholder) with the stored card named in its place:
 * only the placeholder in the first paragraph, where the agreement says which card is kept.
 */
export function nameAgreementCard(text: string, lang: Language, label: string): string {
  const words = agreementWords(text);
  const [intro, ...rest] = words.paragraphs;
  if (intro === undefined) return text;
  const slot =
    lang === 'es'
      ? ` a guardar ${AGREEMENT_CARD_PLACEHOLDER.es} con `
      : ` to keep ${AGREEMENT_CARD_PLACEHOLDER.en} on `;
  const named = lang === 'es' ? ` a guardar ${label} con ` : ` to keep ${label} on `;
  if (!intro.includes(slot)) return text;
  return agreementText({ title: words.title, paragraphs: [intro.replace(slot, named), ...rest] });
}

type AgreementBuilder = Record<Language, (f: AgreementFacts) => { title: string; paragraphs: string[] }>;

/**
 * The agreement's first paragraph and the charges it lists. With only declined payments left (no scheduled charge),
 * the card is kept for those, charged when the practice charges them; with both, the declined ones follow the
 * schedule in a paragraph of their own.
 */
function enCharges(f: AgreementFacts, authorize: string, failed: string[]): string[] {
  const keep = `I ${authorize} ${f.practice} to keep ${f.card ?? AGREEMENT_CARD_PLACEHOLDER.en} on file with its card processor and to charge it`;
  const one = failed.length === 1;
  if (failed.length > 0 && f.schedule.length === 0) {
    return [
      `${keep} for the ${one ? 'payment' : 'payments'} of my plan that ${one ? 'was' : 'were'} declined, when ${f.practice} charges ${one ? 'it' : 'them'}:`,
      ...failed,
    ];
  }
  const schedule = [`${keep} for the balance of my quote on this schedule:`, ...f.schedule];
  if (failed.length === 0) return schedule;
  return [
    ...schedule,
    `And for the declined ${one ? 'payment' : 'payments'} of ${failed.join('; ')}, when ${f.practice} charges ${one ? 'it' : 'them'}.`,
  ];
}

function esCharges(f: AgreementFacts, failed: string[]): string[] {
  const keep = `Autorizo a ${f.practice} a guardar ${f.card ?? AGREEMENT_CARD_PLACEHOLDER.es} con su procesador de pagos y a cobrar en ella`;
  const one = failed.length === 1;
  if (failed.length > 0 && f.schedule.length === 0) {
    return [
      `${keep} ${one ? 'el pago' : 'los pagos'} de mi plan que ${one ? 'fue rechazado' : 'fueron rechazados'}, cuando ${f.practice} ${one ? 'lo cobre' : 'los cobre'}:`,
      ...failed,
    ];
  }
  const schedule = [`${keep} el saldo de mi presupuesto según este calendario:`, ...f.schedule];
  if (failed.length === 0) return schedule;
  return [
    ...schedule,
    `Y ${one ? 'el pago rechazado' : 'los pagos rechazados'} del ${failed.join('; ')}, cuando ${f.practice} ${one ? 'lo cobre' : 'los cobre'}.`,
  ];
}

/**
 * The words a page lists under the agreement's first paragraph: the schedule, or the declined payments when nothing
 * else is left to charge (see enCharges).
 */
export function agreementListedLines(f: Pick<AgreementFacts, 'schedule' | 'failed'>): string[] {
  return f.schedule.length === 0 && (f.failed?.length ?? 0) > 0 ? f.failed! : f.schedule;
}

/** The card-on-file agreement's words of one version, paragraph by paragraph, in the patient's language. */
function agreementOfVersion(authorize: string, namesFailed: boolean): AgreementBuilder {
  return {
    en: (f) => ({
      title: 'Card-on-file agreement',
      paragraphs: [
        ...enCharges(f, authorize, namesFailed ? (f.failed ?? []) : []),
        `I will be told by text or e-mail ${f.noticeDays} days before each charge, with the amount, the date and the card's last four digits, and a link to see the plan or change the card.`,
        `Only the card processor keeps my card number; ${f.practice} keeps a token that can charge this card for this plan only.`,
        `I can cancel the remaining charges, or ask about them, by contacting ${f.practice}${f.practicePhone ? ` at ${f.practicePhone}` : ''}${f.practiceEmail ? ` or ${f.practiceEmail}` : ''} before a charge date. Cancelling the charges does not cancel what I owe under my contract.`,
      ],
    }),
    es: (f) => ({
      title: 'Autorización para guardar la tarjeta',
      paragraphs: [
        ...esCharges(f, namesFailed ? (f.failed ?? []) : []),
        `Me avisarán por mensaje de texto o correo electrónico ${f.noticeDays} días antes de cada cobro, con el monto, la fecha y los últimos cuatro dígitos de la tarjeta, y un enlace para ver el plan o cambiar la tarjeta.`,
        `Solo el procesador de pagos guarda el número de mi tarjeta; ${f.practice} guarda un código que sirve para cobrar esta tarjeta únicamente para este plan.`,
        `Puedo cancelar los cobros pendientes, o preguntar por ellos, comunicándome con ${f.practice}${f.practicePhone ? ` al ${f.practicePhone}` : ''}${f.practiceEmail ? ` o a ${f.practiceEmail}` : ''} antes de la fecha de un cobro. Cancelar los cobros no cancela lo que debo según mi contrato.`,
      ],
    }),
  };
}

/**
 * Every version's words: an acceptance kept without its words (an API client's, or one from before decision 0214)
 * is rebuilt in the words of its own version, never in newer ones.
 */
const AGREEMENT_VERSIONS: Record<string, AgreementBuilder> = {
  '2026-11-27': agreementOfVersion('authorise', false),
  [CARD_ON_FILE_AGREEMENT_VERSION]: agreementOfVersion('authorize', true),
};

/** The card-on-file agreement as it reads now (CARD_ON_FILE_AGREEMENT_VERSION). */
export const cardOnFileAgreement: AgreementBuilder = AGREEMENT_VERSIONS[CARD_ON_FILE_AGREEMENT_VERSION]!;

/** The words of the version an acceptance was made under; an unknown version reads as the first one there was. */
export function cardOnFileAgreementOfVersion(version: string): AgreementBuilder {
  return AGREEMENT_VERSIONS[version] ?? AGREEMENT_VERSIONS['2026-11-27']!;
}

/**
 * The agreement as one text, the way it is kept with an acceptance and hashed: the title, then each paragraph (the
 * schedule's lines included), separated by blank lines.
 */
export function agreementText(words: { title: string; paragraphs: string[] }): string {
  return [words.title, ...words.paragraphs].join('\n\n');
}

/** The reverse of agreementText, for a record that shows the kept words paragraph by paragraph. */
export function agreementWords(text: string): { title: string; paragraphs: string[] } {
  const [title = '', ...paragraphs] = text.split('\n\n');
  return { title, paragraphs };
}
