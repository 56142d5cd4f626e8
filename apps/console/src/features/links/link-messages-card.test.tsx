import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LinkMessage } from '../../shared/api/contract';
import { renderScreen } from '../../test/render';
import { MessageRow } from './link-messages-card';

const msg = (o: Partial<LinkMessage>): LinkMessage => ({
  id: 'm1',
  channel: 'sms',
  kind: 'link-send',
  to: '+13055559101',
  subject: null,
  status: 'sent',
  deliveryStatus: 'delivered',
  deliveryError: null,
  createdAt: '2026-11-23T09:59:00Z',
  deliveryUpdatedAt: null,
  ...o,
});

describe('a link’s messages in words (issue 29, item 4)', () => {
  it('names the staff e-mail when a link is paid, and writes the phone as (305) 555-9101', async () => {
    await renderScreen(
      <ul>
        <MessageRow m={msg({ id: 'a', channel: 'email', kind: 'staff-paid', to: 'billing@practice.test' })} />
        <MessageRow m={msg({ id: 'b' })} />
      </ul>,
    );
    const [paid, sent] = screen.getAllByRole('listitem');
    expect(paid).toHaveTextContent('Paid (note to staff) · e-mail');
    expect(paid).not.toHaveTextContent('staff-paid');
    expect(sent).toHaveTextContent('Link sent · SMS');
    expect(sent).toHaveTextContent('(305) 555-9101 ·');
    expect(sent).not.toHaveTextContent('+1305');
  });

  it('in Spanish; a kind without words is a message, not its code', async () => {
    await renderScreen(
      <ul>
        <MessageRow m={msg({ id: 'a', channel: 'email', kind: 'staff-paid', to: 'billing@practice.test' })} />
        <MessageRow m={msg({ id: 'b', kind: 'brand-new-kind' })} />
      </ul>,
      { lng: 'es' },
    );
    const [paid, other] = screen.getAllByRole('listitem');
    expect(paid).toHaveTextContent('Pagado (aviso al personal)');
    expect(other).toHaveTextContent('Mensaje · SMS');
    expect(other).not.toHaveTextContent('brand-new-kind');
  });
});
