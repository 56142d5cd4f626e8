import { describe, expect, it } from 'vitest';
import { readableAsText, reflowText, type TextItem } from './reflow-text.js';

/** A pdf.js text item at a baseline `y` in a font of `size` points. */
const item = (str: string, y: number, size = 11, hasEOL = false): TextItem => ({
  str,
  transform: [size, 0, 0, size, 72, y],
  hasEOL,
});

describe("the contract's reflow (the server's and the signing frame's one rule)", () => {
  it('makes a heading of larger text, joins the lines of a paragraph and splits at a wider gap or a new page', () => {
    const paras = reflowText([
      [
        item('Patient Financial Agreement', 720, 16, true),
        item('The deposit secures the date', 690, 11),
        item(' of surgery and is applied', 690, 11, true),
        item('to the balance. Non-refund-', 677, 11, true),
        item('able after 14 days.', 664, 11, true),
        item('Cancellation', 630, 11, true),
        { str: '', transform: [11, 0, 0, 11, 72, 600], hasEOL: true },
        item('Small print', 80, 8, true),
      ],
      [item('Continued on page two.', 720, 11, true)],
    ]);
    expect(paras).toEqual([
      { kind: 'h', text: 'Patient Financial Agreement' },
      {
        kind: 'p',
        text: 'The deposit secures the date of surgery and is applied to the balance. Non-refund-able after 14 days.',
      },
      { kind: 'p', text: 'Cancellation' },
      { kind: 'small', text: 'Small print' },
      { kind: 'p', text: 'Continued on page two.' },
    ]);
  });

  it('skips marked-content items, which carry no text', () => {
    expect(reflowText([[{}, item('Only line', 700, 11, true)]])).toEqual([{ kind: 'p', text: 'Only line' }]);
  });

  it('reads a contract as text only when it has more than a few words (a scan keeps its printed pages)', () => {
    expect(readableAsText([{ kind: 'p', text: 'Page 1' }])).toBe(false);
    expect(readableAsText([{ kind: 'p', text: 'The deposit secures the date of surgery and is applied.' }])).toBe(true);
  });
});
