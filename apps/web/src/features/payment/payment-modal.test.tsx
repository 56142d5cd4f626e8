/**
 * The failure dialog closes for good however fast OK is pressed (issue 29, item 5). react-bootstrap ends the fade-out
 * on the dialog's own `transitionend`, or on a stand-in event after the fade's duration if none came; but a
 * `transitionend` bubbling from inside the dialog (the OK button's own colour transition, the dialog box sliding)
 * cancelled that stand-in. When OK was pressed while the dialog was still fading in, the dialog's own fade was
 * cancelled rather than run, so no event ever came and the dialog stayed on screen, invisible, over the page.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nProvider } from '../../i18n';
import { createTestI18n } from '../../test/i18n';
import { PaymentModal, type FailedOutcome } from './payment-modal';

afterEach(cleanup);

const failed: FailedOutcome = { kind: 'threeDSFailed', result: { transStatus: 'N' } } as FailedOutcome;

function Page(props: { onExited: () => void }) {
  const [outcome, setOutcome] = useState<FailedOutcome | null>(failed);
  return <PaymentModal outcome={outcome} onClose={() => setOutcome(null)} onExited={props.onExited} />;
}

describe('PaymentModal', () => {
  it('goes away after OK even when a transition inside it ends first and the dialog itself never reports one', async () => {
    const i18n = await createTestI18n('en');
    let exited = 0;
    render(
      <I18nProvider i18n={i18n}>
        <Page onExited={() => exited++} />
      </I18nProvider>,
    );
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog.className).toContain('show'));
    const ok = screen.getByRole('button', { name: 'OK' });
    expect(ok).toHaveFocus();
    act(() => ok.click());
    // What the browser does as the dialog starts to fade out: the button's colour transition ends (it bubbles), and
    // the dialog's own fade, cancelled, reports nothing.
    ok.dispatchEvent(new Event('transitionend', { bubbles: true }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(exited).toBe(1);
  });
});
