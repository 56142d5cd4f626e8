import { useEffect, useRef } from 'react';
import ModalDialog, { type ModalDialogProps } from 'react-bootstrap/ModalDialog';

/**
 * Every console dialog's box (react-bootstrap's `dialogAs`): keeps the `transitionend` events of what is inside it to
 * itself, so only the dialog's own fade, or react-bootstrap's stand-in after the fade's duration, ends a closing
 * dialog. One bubbling from a button cancelled the stand-in without ending the fade, and a fade the browser cancelled
 * (closed while still opening) reports nothing: the dialog stayed mounted, invisible, over the page
 * (react-bootstrap#6153; the patient app's payment dialog had it, decision 0220).
 */
export function ModalBox(props: ModalDialogProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    const stop = (e: Event) => e.stopPropagation();
    el?.addEventListener('transitionend', stop);
    return () => el?.removeEventListener('transitionend', stop);
  }, []);
  return <ModalDialog {...props} ref={box} />;
}
