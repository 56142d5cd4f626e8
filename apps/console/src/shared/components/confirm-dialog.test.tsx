/**
 * A console dialog closes for good however fast it is answered (the patient app's fix of issue 29, item 5, decision
 * 0220, for the console's dialogs): react-bootstrap ends the fade-out on the dialog's own `transitionend`, or on a
 * stand-in after the fade's duration; a `transitionend` bubbling from inside the dialog (a button's colour transition)
 * cancelled that stand-in, and a fade the browser cancelled reports nothing, so the dialog stayed mounted, invisible,
 * over the page, and the page behind took no clicks.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../i18n';
import { ConfirmDialog } from './confirm-dialog';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(cleanup);

function Page(props: { onConfirm: () => void }) {
  const [show, setShow] = useState(true);
  return (
    <ConfirmDialog
      show={show}
      title="Cancel the link?"
      body="The patient can no longer pay."
      confirmLabel="Cancel the link"
      onConfirm={() => {
        props.onConfirm();
        setShow(false);
      }}
      onCancel={() => setShow(false)}
    />
  );
}

describe('ConfirmDialog', () => {
  it('goes away after Confirm even when a transition inside it ends first and the dialog never reports one', async () => {
    let confirmed = 0;
    render(<Page onConfirm={() => confirmed++} />);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog.className).toContain('show'));
    const confirm = screen.getByRole('button', { name: 'Cancel the link' });
    act(() => confirm.click());
    confirm.dispatchEvent(new Event('transitionend', { bubbles: true }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(confirmed).toBe(1);
  });
});
