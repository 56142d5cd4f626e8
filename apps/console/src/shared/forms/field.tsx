import { useId, type ReactNode } from 'react';
import type { FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/**
 * A labelled Bootstrap form field. The error shown is the translation of `validation.<name>` when there is one
 * (the shared schemas' messages are English and name the API field), else the schema's own message.
 */
export function Field(props: {
  name: string;
  label: string;
  error?: FieldError | undefined;
  hint?: string;
  children: (a11y: {
    id: string;
    'aria-invalid': true | undefined;
    'aria-describedby': string | undefined;
    className: string;
  }) => ReactNode;
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const key = `validation.${props.name}`;
  const message = props.error ? (i18n.exists(key) ? t(key) : props.error.message || t('validation.invalid')) : '';
  const describedBy = [props.hint ? hintId : '', props.error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={props.className ?? 'mb-3'}>
      <label htmlFor={id} className="form-label">
        {props.label}
      </label>
      {props.children({
        id,
        'aria-invalid': props.error ? true : undefined,
        'aria-describedby': describedBy,
        className: props.error ? 'is-invalid' : '',
      })}
      {props.hint && (
        <div id={hintId} className="form-text">
          {props.hint}
        </div>
      )}
      {props.error && (
        <div id={errorId} className="invalid-feedback d-block">
          {message}
        </div>
      )}
    </div>
  );
}
