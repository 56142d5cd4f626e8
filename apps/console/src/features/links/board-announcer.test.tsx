import { act, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { BoardRow } from '../../shared/api/contract';
import { renderScreen } from '../../test/render';
import { BoardAnnouncer } from './board-announcer';

const row = (id: string, name: [string, string], reached: BoardRow['progress']['reached'], position: number) =>
  ({
    id,
    url: `https://pay.example/auth?id=${id}`,
    firstName: name[0],
    lastName: name[1],
    phone: '+15555550100',
    email: `${id}@example.com`,
    status: 'active',
    language: 'en',
    signInMethod: 'sms',
    amount: null,
    paymentTypeId: null,
    payer: null,
    payorName: null,
    progress: { completed: Math.max(0, position - 1), total: 6, reached, position },
    lastActivityAt: null,
    payment: { status: 'none', paidAt: null, cardBrand: null, cardLast4: null },
    coordinator: null,
    createdAt: '2026-11-27T10:00:00Z',
    expiresAt: '2026-12-04T10:00:00Z',
  }) as BoardRow;

const ana = (reached: BoardRow['progress']['reached'], position: number) =>
  row('a', ['Ana', 'Diaz'], reached, position);
const luis = (reached: BoardRow['progress']['reached'], position: number) =>
  row('l', ['Luis', 'Mora'], reached, position);

/** The announcer on a page whose board data a poll replaces (`poll`), as the board's query does. */
async function announcer(first: BoardRow[] | undefined, lng: 'en' | 'es' = 'en') {
  let setRows: (rows: BoardRow[]) => void = () => undefined;
  function Board() {
    const [rows, set] = useState(first);
    setRows = set;
    return <BoardAnnouncer rows={rows} />;
  }
  await renderScreen(<Board />, { lng });
  return { status: screen.getByRole('status'), poll: (next: BoardRow[]) => act(() => setRows(next)) };
}

describe('the board’s progress announcements', () => {
  it('is in the page before anything is said, says nothing on the first load, then tells a move', async () => {
    const { status, poll } = await announcer(undefined);
    expect(status.textContent).toBe('');
    poll([ana('contract', 4), luis('invoice', 2)]);
    expect(status.textContent).toBe('');
    // A poll with the same positions (a refetch for another change) says nothing.
    poll([ana('contract', 4), luis('invoice', 2)]);
    expect(status.textContent).toBe('');
    poll([ana('payment', 5), luis('invoice', 2)]);
    expect(status).toHaveTextContent(/^Ana Diaz reached Payment\.$/);
  });

  it('makes one announcement of several moves in one poll, in Spanish too; a new row is not a move', async () => {
    const { status, poll } = await announcer([ana('contract', 4), luis('invoice', 2)], 'es');
    expect(status.textContent).toBe('');
    poll([ana('payment', 5), luis('patientId', 3), row('n', ['Nora', 'Vega'], 'contract', 4)]);
    expect(status).toHaveTextContent(/^Ana Diaz llegó a Pago\. Luis Mora llegó a Identificación del paciente\.$/);
    poll([ana('done', 7), luis('patientId', 3)]);
    expect(status).toHaveTextContent(/^Ana Diaz terminó todos los pasos\.$/);
  });
});
