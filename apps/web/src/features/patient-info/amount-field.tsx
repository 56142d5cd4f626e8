/**
 * The payment amount (spec section 5): whole dollars, digits only. Keys other than 0-9 and Backspace are refused
 * (keyboard movement, Tab, Enter and shortcuts still work, so the page stays usable by keyboard); pasted or
 * autofilled text is reduced to its digits. The hint under the field names the range; out of range, the field is
 * marked invalid and the feedback card says so (announced).
 *
 * A decimal point or comma is refused with "whole dollars only" instead of being dropped ("150.00" would otherwise
 * become $15,000), and the amount is shown as dollars beside the field before AGREE (decision 0161).
 */
import { useId, useState } from 'react';
import { useTranslation } from '../../i18n';
import { digitsOnly, dollarsToCents, formatUsd, isAmountInRange, type AmountRule } from '@paylink/shared';

const EDITING_KEYS = new Set([
  'Backspace',
  'Tab',
  'Enter',
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Home',
  'End',
  'Delete',
  'Escape',
]);

/** Whether a key press may reach the field. */
function isAllowedAmountKey(e: { key: string; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean }) {
  if (e.ctrlKey || e.metaKey || e.altKey) return true;
  return /^[0-9]$/.test(e.key) || EDITING_KEYS.has(e.key);
}

export type AmountVerdict = 'empty' | 'valid' | 'outOfRange';
export function amountVerdict(amount: string, rule: AmountRule): AmountVerdict {
  if (amount === '') return 'empty';
  return isAmountInRange(Number(amount), rule) ? 'valid' : 'outOfRange';
}

export function AmountField(props: {
  value: string;
  onChange: (digits: string) => void;
  rule: AmountRule;
  disabled?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const hintId = `${id}-hint`;
  const wholeId = `${id}-whole`;
  const shownId = `${id}-shown`;
  const [refusedSeparator, setRefusedSeparator] = useState(false);
  const verdict = amountVerdict(props.value, props.rule);
  const invalid = verdict === 'outOfRange';
  const locale = i18n.resolvedLanguage === 'es' ? 'es-US' : 'en-US';
  const formatted = props.value === '' ? '' : formatUsd(dollarsToCents(Number(props.value)), locale);
  return (
    <div className="mb-3">
      <label htmlFor={id} className="form-label">
        {t('patientInfo.amount')}
      </label>
      <div className="input-group">
        <span className="input-group-text" aria-hidden="true">
          $
        </span>
        <input
          id={id}
          name="paymentAmount"
          className={`form-control form-control-lg ${invalid ? 'is-invalid' : ''}`}
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          maxLength={9}
          value={props.value}
          disabled={props.disabled}
          aria-invalid={invalid || undefined}
          aria-describedby={[formatted ? shownId : '', refusedSeparator ? wholeId : '', hintId]
            .filter(Boolean)
            .join(' ')}
          onKeyDown={(e) => {
            if (e.key === '.' || e.key === ',') setRefusedSeparator(true);
            if (!isAllowedAmountKey(e)) e.preventDefault();
          }}
          onChange={(e) => {
            // A pasted "150.00" or "1,500" is refused whole: dropping the separator would change the amount.
            if (/[.,]/.test(e.target.value)) {
              setRefusedSeparator(true);
              return;
            }
            setRefusedSeparator(false);
            props.onChange(digitsOnly(e.target.value));
          }}
        />
        {formatted && (
          <span className="input-group-text amount-formatted" id={shownId} data-testid="amount-formatted">
            {formatted}
          </span>
        )}
      </div>
      {refusedSeparator && (
        <div id={wholeId} className="feedback-card" role="alert" data-testid="amount-whole-dollars">
          {t('patientInfo.wholeDollarsOnly')}
        </div>
      )}
      {/* The feedback card is role="alert" (announced on its own): no live region around it. */}
      <div id={hintId}>
        {invalid ? (
          <div className="feedback-card" role="alert" data-testid="amount-feedback">
            {t(props.rule.hintKey)}
          </div>
        ) : (
          <div className="form-text">{t(props.rule.hintKey)}</div>
        )}
      </div>
    </div>
  );
}
