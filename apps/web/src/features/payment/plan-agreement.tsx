/**
 * The card-on-file agreement of a link with a payment plan (issue 28, decision 0208): the schedule, the card that
 * will be kept, the notice before each charge, how to cancel and whom to contact, in the shared contract's words
 * (the version the server stores is the version of these words), with its own checkbox: the spec's terms box is
 * about today's charge, this one about the charges to come.
 */
import { agreementListedLines, cardOnFileAgreement, type PatientPlan } from '@paylink/shared';

export interface PlanAgreementProps {
  plan: PatientPlan;
  lang: 'en' | 'es';
  /** "Visa ending in 4242" once a whole card number is typed, else null. */
  card: string | null;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
  id: string;
  agreeLabel: string;
  scheduleLabel: string;
}

/** The agreement's words for this plan and card, in the page's language: what the page shows and sends when accepted. */
export function planAgreementWords(plan: PatientPlan, lang: 'en' | 'es', card: string | null) {
  // The server's lines, not this browser's formats: the words sent back must be the server's (decision 0214).
  const facts = {
    practice: plan.practice.name,
    practicePhone: plan.practice.phone,
    practiceEmail: plan.practice.email,
    schedule: plan.scheduleLines[lang],
    // A declined payment left open: the new card is kept for it too (update-card page, decision 0249).
    failed: plan.failedLines?.[lang] ?? [],
    noticeDays: plan.noticeDays,
    card,
  };
  // The lines listed under the first paragraph: the schedule, or the declined payments when nothing else is left.
  return { schedule: agreementListedLines(facts), words: cardOnFileAgreement[lang](facts) };
}

export function PlanAgreement(props: PlanAgreementProps) {
  const { schedule, words } = planAgreementWords(props.plan, props.lang, props.card);
  // The words are [intro, ...schedule lines, ...the rest]: the schedule is shown as a list.
  const [intro, ...rest] = words.paragraphs;
  const lines = rest.slice(0, schedule.length);
  const after = rest.slice(schedule.length);
  const textId = `${props.id}-text`;
  return (
    <fieldset className="form-section plan-agreement" disabled={props.disabled} data-testid="plan-agreement">
      <legend className="h5">{words.title}</legend>
      <div id={textId}>
        <p>{intro}</p>
        <ul className="plan-schedule" aria-label={props.scheduleLabel}>
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        {after.map((p) => (
          <p key={p}>{p}</p>
        ))}
      </div>
      <div className="form-check">
        <input
          id={props.id}
          type="checkbox"
          className="form-check-input"
          checked={props.checked}
          aria-describedby={textId}
          onChange={(e) => props.onChange(e.target.checked)}
        />
        <label className="form-check-label" htmlFor={props.id}>
          {props.agreeLabel}
        </label>
      </div>
    </fieldset>
  );
}
