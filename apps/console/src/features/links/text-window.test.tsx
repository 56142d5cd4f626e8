import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../../test/render';
import { TextWindow } from './link-messages-card';

describe('the link page’s text window (issue 29, item 2)', () => {
  it('shows the patient’s zone, where it came from, and the next time in that zone', async () => {
    await renderScreen(
      <TextWindow
        reminders={{
          timeZone: 'America/New_York',
          timeZoneSource: 'area-code',
          nextTextAt: '2026-11-28T13:00:00.000Z',
        }}
      />,
    );
    const p = screen.getByTestId('text-window');
    expect(p).toHaveTextContent(
      'Patient’s time zone for texts: America/New_York (from the phone’s area code) · Paylink may text from Nov 28, 2026, 8:00 AM EST',
    );
    expect(p.querySelector('time')).toHaveAttribute('datetime', '2026-11-28T13:00:00.000Z');
  });

  it('speaks Spanish; no phone, no time', async () => {
    await renderScreen(
      <TextWindow reminders={{ timeZone: 'America/Chicago', timeZoneSource: 'practice', nextTextAt: null }} />,
      { lng: 'es' },
    );
    expect(screen.getByTestId('text-window')).toHaveTextContent(
      'Zona horaria del paciente para los SMS: America/Chicago (la zona horaria de la práctica) · sin teléfono para SMS',
    );
  });
});
