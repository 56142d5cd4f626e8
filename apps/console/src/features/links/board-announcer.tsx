import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BoardRow } from '../../shared/api/contract';
import { useStepLabel } from '../../shared/components/link-labels';

type Seen = Map<string, number>;
export interface ProgressMove {
  name: string;
  reached: BoardRow['progress']['reached'];
}

/**
 * The rows that moved to a later step since the board was last seen: a row seen before whose step position grew.
 * Rows seen for the first time (first load, another page or filter) move nothing. Updates `seen`.
 */
export function progressMoves(seen: Seen, rows: BoardRow[]): ProgressMove[] {
  const moves: ProgressMove[] = [];
  for (const r of rows) {
    const before = seen.get(r.id);
    if (before !== undefined && r.progress.position > before)
      moves.push({ name: `${r.firstName} ${r.lastName}`, reached: r.progress.reached });
    seen.set(r.id, r.progress.position);
  }
  return moves;
}

/**
 * The board's progress announcements (issue 29, item 10): a polite status region, in the page from the start, that
 * says "Ana Diaz reached Payment" when a poll moves a patient to a later step. Not on the first load; several moves
 * in one poll are one announcement.
 */
export function BoardAnnouncer(props: { rows: BoardRow[] | undefined }) {
  const { t } = useTranslation();
  const stepLabel = useStepLabel();
  const seen = useRef<Seen>(new Map());
  const [message, setMessage] = useState('');
  const { rows } = props;
  useEffect(() => {
    if (!rows) return;
    const moves = progressMoves(seen.current, rows);
    if (moves.length === 0) return;
    setMessage(
      moves
        .map((m) =>
          m.reached === 'done'
            ? t('announce.finished', { name: m.name })
            : t('announce.reached', { name: m.name, step: stepLabel(m.reached) }),
        )
        .join(' '),
    );
    // stepLabel and t change with the language only; a language switch announces nothing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rows]);
  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="visually-hidden" data-testid="board-announcer">
      {message}
    </div>
  );
}
