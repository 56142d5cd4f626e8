import { useId, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/** What FormField sets on the control itself. */
type Owned = 'id' | 'name' | 'className' | 'aria-invalid' | 'aria-describedby' | 'onChange' | 'onBlur' | 'children';
type Control =
  | ({ as?: 'input' } & Omit<ComponentPropsWithoutRef<'input'>, Owned>)
  | ({ as: 'textarea' } & Omit<ComponentPropsWithoutRef<'textarea'>, Owned>)
  | ({ as: 'select'; children: ReactNode } & Omit<ComponentPropsWithoutRef<'select'>, Owned | 'children'>);

export type FormFieldProps = Control & {
  /** Names the field's translated message, `validation.<name>`; the control's own name comes from `registration`. */
  name: string;
  label: string;
  /** What react-hook-form's `register(field)` returns. */
  registration: UseFormRegisterReturn;
  error?: FieldError | undefined;
  hint?: string;
  /** The wrapper's classes (a grid column); `mb-3` when not given. */
  className?: string;
};

/**
 * A labelled Bootstrap form control bound to react-hook-form: label, input (or textarea, select), help text and the
 * error, tied together by aria-describedby and aria-invalid. The error shown is the translation of
 * `validation.<name>` when there is one (the shared schemas' messages are English and name the API field), else the
 * schema's own message.
 */
export function FormField(props: FormFieldProps) {
  const { name, label, registration, error, hint, className, as = 'input', ...control } = props;
  const { t, i18n } = useTranslation();
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const key = `validation.${name}`;
  const message = error ? (i18n.exists(key) ? t(key) : error.message || t('validation.invalid')) : '';
  const a11y = {
    id,
    'aria-invalid': error ? (true as const) : undefined,
    'aria-describedby': [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined,
  };
  const invalid = error ? 'is-invalid' : '';
  return (
    <div className={className ?? 'mb-3'}>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      {as === 'select' ? (
        <select
          {...registration}
          {...a11y}
          {...(control as ComponentPropsWithoutRef<'select'>)}
          className={`form-select ${invalid}`}
        />
      ) : as === 'textarea' ? (
        <textarea
          {...registration}
          {...a11y}
          {...(control as ComponentPropsWithoutRef<'textarea'>)}
          className={`form-control ${invalid}`}
        />
      ) : (
        <input
          {...registration}
          {...a11y}
          {...(control as ComponentPropsWithoutRef<'input'>)}
          className={`form-control ${invalid}`}
        />
      )}
      {hint && (
        <div id={hintId} className="form-text">
          {hint}
        </div>
      )}
      {error && (
        <div id={errorId} className="invalid-feedback d-block">
          {message}
        </div>
      )}
    </div>
  );
}
