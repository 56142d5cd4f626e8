import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The page's <h1>: takes focus when the page opens (screen readers announce the new page; keyboard users start at
 * the top of the content) and names the browser tab.
 */
export function PageTitle(props: { children: string; actions?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  useEffect(() => {
    document.title = `${props.children} · Paylink`;
  }, [props.children]);
  return (
    <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
      <h1 ref={heading} tabIndex={-1} className="h3 mb-0 page-title">
        {props.children}
      </h1>
      {props.actions && <div className="d-flex flex-wrap gap-2">{props.actions}</div>}
    </div>
  );
}
