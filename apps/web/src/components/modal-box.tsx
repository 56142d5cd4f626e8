/**
 * The box of a react-bootstrap modal (its `dialogAs`) that keeps the transitions inside it to itself (issue 29, item 5;
 * decision 0220).
 *
 * react-bootstrap ends a modal's fade on the `transitionend` of the modal element itself, or, if none came within the
 * fade's duration, on a stand-in it fires then. But any `transitionend` bubbling up from inside the modal (a button's
 * colour or focus transition, the box sliding in) counts as "one came" and cancels the stand-in, while not ending the
 * fade (react-bootstrap/dom-helpers#184, react-bootstrap#6153). When the modal is closed while it is still fading in
 * (OK pressed at once), the browser cancels the fade instead of running one: the modal element reports nothing and the
 * modal stays mounted for good, invisible, over the page. Stopping those events at the box lets only the modal's own
 * fade, or the stand-in, end it.
 */
import { useEffect, useRef } from 'react';
import ModalDialog, { type ModalDialogProps } from 'react-bootstrap/ModalDialog';

const keepInside = (e: Event) => e.stopPropagation();

export function ModalBox(props: ModalDialogProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    el?.addEventListener('transitionend', keepInside);
    return () => el?.removeEventListener('transitionend', keepInside);
  }, []);
  return <ModalDialog {...props} ref={box} />;
}
