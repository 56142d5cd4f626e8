import { useId, useState, type ReactNode } from 'react';
import Modal from 'react-bootstrap/Modal';
import { ModalBox } from './modal-box';
import { useTranslation } from 'react-i18next';
import { BusyButton } from './busy-button';

/**
 * A confirmation for actions that change a patient's link. With `askReason`, a reason (required) is typed first
 * and handed to onConfirm; it goes into the audit trail.
 */
export function ConfirmDialog(props: {
  show: boolean;
  title: string;
  body: string;
  confirmLabel: string;
  danger?: boolean;
  askReason?: boolean;
  busy?: boolean;
  error?: string | null;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
  /** More fields of the action (a date, an amount), shown under the body. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const titleId = useId();
  const reasonId = useId();
  const missing = props.askReason && reason.trim() === '';
  return (
    <Modal
      dialogAs={ModalBox}
      show={props.show}
      onHide={props.onCancel}
      aria-labelledby={titleId}
      centered
      onExited={() => {
        setReason('');
        setTouched(false);
      }}
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!missing) props.onConfirm(reason.trim());
        }}
      >
        <Modal.Header closeButton closeLabel={t('common.close')}>
          <Modal.Title id={titleId} as="h2" className="h5">
            {props.title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>{props.body}</p>
          {props.children}
          {props.askReason && (
            <div>
              <label htmlFor={reasonId} className="form-label">
                {t('confirm.reason')}
              </label>
              <textarea
                id={reasonId}
                className={`form-control ${touched && missing ? 'is-invalid' : ''}`}
                rows={2}
                maxLength={500}
                value={reason}
                aria-invalid={touched && missing ? true : undefined}
                aria-describedby={touched && missing ? `${reasonId}-error` : undefined}
                onChange={(e) => setReason(e.target.value)}
                required
              />
              {touched && missing && (
                <div id={`${reasonId}-error`} className="invalid-feedback">
                  {t('confirm.reasonRequired')}
                </div>
              )}
            </div>
          )}
          {props.error && (
            <div className="alert alert-danger mt-3 mb-0" role="alert">
              {props.error}
            </div>
          )}
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={props.onCancel}>
            {t('common.cancel')}
          </button>
          <BusyButton
            type="submit"
            className={`btn ${props.danger ? 'btn-danger' : 'btn-primary'}`}
            busy={!!props.busy}
          >
            {props.busy && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
            {props.confirmLabel}
          </BusyButton>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
