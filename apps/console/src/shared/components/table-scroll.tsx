import type { ReactNode } from 'react';

/**
 * A table that may scroll sideways on a small screen: the scroll box is focusable and named, so keyboard users can
 * scroll it too (WCAG 2.1.1; axe scrollable-region-focusable).
 */
export function TableScroll(props: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className={props.className ?? 'table-responsive'} tabIndex={0} role="region" aria-label={props.label}>
      {props.children}
    </div>
  );
}
