import { useEffect, useRef, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { ModalBox } from '../shared/components/modal-box';
import { useTranslation } from 'react-i18next';

const WARN_BEFORE_MS = 2 * 60_000;
const ACTIVITY = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/**
 * Idle time-out: after `idleMinutes` without a key press, click or touch the console signs out (the server ends
 * the session on its own too); two minutes before, a dialog says so and offers to stay. Polling screens do not
 * count as activity — only the person does.
 */
export function IdleTimeout(props: {
  idleMinutes: number;
  /** Called when the person acts after 5 quiet minutes: keeps the server's session alive while they type. */
  onActive: () => void;
  onStay: () => void;
  onTimeout: () => void;
  now?: () => number;
}) {
  const { t } = useTranslation();
  const now = props.now ?? Date.now;
  const last = useRef(now());
  const [remaining, setRemaining] = useState<number | null>(null);
  const warning = remaining !== null;
  const idleMs = props.idleMinutes * 60_000;
  const { onTimeout, onActive } = props;
  const lastPing = useRef(now());
  const warningRef = useRef(false);
  useEffect(() => {
    warningRef.current = warning;
  }, [warning]);

  useEffect(() => {
    const touch = () => {
      if (warningRef.current) return;
      last.current = now();
      if (last.current - lastPing.current > 5 * 60_000) {
        lastPing.current = last.current;
        onActive();
      }
    };
    for (const e of ACTIVITY) window.addEventListener(e, touch, { passive: true });
    const timer = window.setInterval(() => {
      const idle = now() - last.current;
      if (idle >= idleMs) {
        window.clearInterval(timer);
        onTimeout();
      } else if (idle >= idleMs - WARN_BEFORE_MS) {
        setRemaining(Math.ceil((idleMs - idle) / 1000));
      }
    }, 1000);
    return () => {
      for (const e of ACTIVITY) window.removeEventListener(e, touch);
      window.clearInterval(timer);
    };
  }, [idleMs, onTimeout, onActive, now]);

  const stay = () => {
    last.current = now();
    setRemaining(null);
    props.onStay();
  };
  const minutes = remaining === null ? 0 : Math.floor(remaining / 60);
  const seconds = remaining === null ? 0 : remaining % 60;

  return (
    <Modal dialogAs={ModalBox} show={warning} onHide={stay} centered aria-labelledby="idle-title" backdrop="static">
      <Modal.Header>
        <Modal.Title id="idle-title" as="h2" className="h5">
          {t('idle.title')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="mb-0" role="timer" aria-live="off">
          {t('idle.body', { time: `${minutes}:${String(seconds).padStart(2, '0')}` })}
        </p>
      </Modal.Body>
      <Modal.Footer>
        <button type="button" className="btn btn-outline-secondary" onClick={props.onTimeout}>
          {t('layout.signOut')}
        </button>
        <button type="button" className="btn btn-primary" onClick={stay} autoFocus>
          {t('idle.stay')}
        </button>
      </Modal.Footer>
    </Modal>
  );
}
