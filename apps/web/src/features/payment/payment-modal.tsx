/**
 * What a failed attempt shows (spec section 8). Three cases, told apart by what happened (decision 0033):
 * - 'declined' / 'error': the gateway answered → 'Card Declined' (an error: 'Payment not completed') with the
 *   selected message;
 * - 'threeDSFailed': 3-D Secure ended R, U or N → 'We were unable to process your payment' /
 *   'Transaction could not authenticate…' (no charge was attempted);
 * - 'unavailable': a gateway script could not be loaded or failed → the same heading, 'not charged, try again'.
 * OK (or Escape) closes it, and closing releases the submit lock.
 * A gateway *error* (the card was not charged, e.g. the processor did not answer) is titled neutrally ("Payment not
 * completed"); "Card Declined" is kept for declines (decision 0163). Tab stays on the OK button while the modal is
 * open, and once it has closed `onExited` lets the page put focus on a sensible control.
 */
import { useRef, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../../i18n';
import { ModalBox } from '../../components/modal-box';
import { declineMessageText } from './decline-message';
import type { PaymentOutcome } from './gateway/run-payment';

export type FailedOutcome = Exclude<PaymentOutcome, { kind: 'approved' }>;

export function PaymentModal(props: { outcome: FailedOutcome | null; onClose: () => void; onExited?: () => void }) {
  const { t } = useTranslation('payment');
  // While the modal fades out its content stays (the outcome is already null): focus stays on OK until `onExited`
  // moves it, instead of falling to <body> with the removed button (issue 29, item 5).
  const [last, setLast] = useState(props.outcome);
  if (props.outcome && props.outcome !== last) setLast(props.outcome);
  const outcome = props.outcome ?? last;
  const isDecline = outcome?.kind === 'declined' || outcome?.kind === 'error';
  const okButton = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      show={props.outcome !== null}
      onHide={props.onClose}
      onExited={() => props.onExited?.()}
      // The page decides where focus goes (the control that opened the modal is disabled by then).
      restoreFocus={false}
      centered
      // Closes for good even when OK is pressed while it is still fading in (see ModalBox).
      dialogAs={ModalBox}
      aria-labelledby="payment-modal-title"
      onKeyDown={(e: React.KeyboardEvent) => {
        // One control: Tab and Shift+Tab stay on it instead of leaving the modal.
        if (e.key === 'Tab') {
          e.preventDefault();
          okButton.current?.focus();
        }
      }}
    >
      {outcome && (
        <>
          <Modal.Header>
            <Modal.Title id="payment-modal-title" as="h2" className="h5">
              {outcome.kind === 'error'
                ? t('error.title')
                : outcome.kind === 'declined'
                  ? t('decline.title')
                  : t('threeDS.title')}
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>
            {isDecline ? (
              <>
                <p>{t('decline.line1')}</p>
                <p>{t('decline.line2')}</p>
                <p className="fw-semibold mb-0" data-testid="decline-message">
                  {declineMessageText(outcome.response, t)}
                </p>
              </>
            ) : (
              <p className="mb-0">{outcome.kind === 'threeDSFailed' ? t('threeDS.body') : t('unavailable')}</p>
            )}
          </Modal.Body>
          <Modal.Footer>
            <button ref={okButton} type="button" className="btn btn-primary px-4" onClick={props.onClose} autoFocus>
              {isDecline ? t('decline.ok') : t('threeDS.ok')}
            </button>
          </Modal.Footer>
        </>
      )}
    </Modal>
  );
}
