import { describe, expect, it } from 'vitest';
import { fillSlots, renderFirstScreen, type FirstScreenTemplates } from './first-screen.js';

const templates: FirstScreenTemplates = {
  en: {
    pages: { authSms: '<h>%%practiceMark%%|%%practiceName%%|%%phone%%|%%footerHelp%%</h>', authEmail: '%%lang%%' },
    logo: '<img src="%%logoUrl%%">',
    monogram: '<span>%%initial%%</span>',
    help: '<p>%%contacts%%</p>',
    helpPhone: '<a href="%%tel%%">%%phone%%</a>',
    helpEmail: '<a href="mailto:%%email%%">%%email%%</a>',
    helpBetween: ' · ',
  },
};
const practice = { name: 'Clinic', logoUrl: null, supportPhone: '', supportEmail: '' };

describe('the first screen filled (decision 0226)', () => {
  it('a logo instead of the monogram; no help line without contacts; one contact without the joint', () => {
    expect(
      renderFirstScreen(templates, 'en', 'authSms', { practice: { ...practice, logoUrl: 'https://x/l.png?a=1&b=2' } }),
    ).toBe('<h><img src="https://x/l.png?a=1&amp;b=2">|Clinic||</h>');
    expect(
      renderFirstScreen(templates, 'en', 'authSms', { practice: { ...practice, supportEmail: 'a@b.c' }, phone: 'x' }),
    ).toBe('<h><span>C</span>|Clinic|x|<p><a href="mailto:a@b.c">a@b.c</a></p></h>');
  });

  it('values are text, filled in one pass: a value holding a slot or markup stays text', () => {
    expect(fillSlots('%%a%%%%b%%', { a: '%%b%%<i>', b: 'B' })).toBe('%%b%%&lt;i&gt;B');
    expect(fillSlots('%%a%%', { a: { html: '<i>' } })).toBe('<i>');
  });

  it('no template for the language or page: null', () => {
    expect(renderFirstScreen(templates, 'es', 'authSms', { practice })).toBeNull();
    expect(renderFirstScreen({}, 'en', 'authEmail', { practice })).toBeNull();
  });
});
