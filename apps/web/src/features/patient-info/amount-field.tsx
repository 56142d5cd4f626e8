/**
 * The payment amount (spec section 5): whole dollars, digits only. Keys other than 0-9 and Backspace are refused
 * (keyboard movement, Tab, Enter and shortcuts still work, so the page stays usable by keyboard); pasted or
 * autofilled text is reduced to its digits. The hint under the field names the range; out of range, the field is
 * marked invalid and the feedback card says so (announced).
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { digitsOnly, isAmountInRange, type AmountRule } from '@paylink/shared';

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
export function isAllowedAmountKey(e: { key: string; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean }) {
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
  const { t } = useTranslation();
  const id = useId();
  const hintId = `${id}-hint`;
  const verdict = amountVerdict(props.value, props.rule);
  const invalid = verdict === 'outOfRange';
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
          aria-describedby={hintId}
          onKeyDown={(e) => {
            if (!isAllowedAmountKey(e)) e.preventDefault();
          }}
          onChange={(e) => props.onChange(digitsOnly(e.target.value))}
        />
      </div>
      <div id={hintId} aria-live="polite">
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
