import type { ButtonHTMLAttributes, MouseEvent } from 'react';

type BusyButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  /** Its request is running: the button looks disabled and a press does nothing, but it keeps the focus. */
  busy: boolean;
};

/**
 * A button that waits for its request without the `disabled` attribute (decision 0235). A focused button that
 * becomes disabled loses the focus to the page (Chromium's focus fix-up): a keyboard or screen-reader user who
 * pressed Save was left at the top of the page, and the next Tab went nowhere. This one is `aria-disabled` while busy
 * and refuses the press itself: a click, Enter or Space on it, and Enter in a field of its form (the browser submits a
 * form by clicking its submit button; cancelling that click cancels the submission).
 */
export function BusyButton({ busy, className, onClick, type = 'button', ...rest }: BusyButtonProps) {
  const press = (e: MouseEvent<HTMLButtonElement>) => {
    if (busy) {
      e.preventDefault();
      return;
    }
    onClick?.(e);
  };
  return (
    <button
      {...rest}
      type={type}
      className={busy ? `${className ?? ''} disabled`.trim() : className}
      aria-disabled={busy || undefined}
      onClick={press}
    />
  );
}
