import { describe, expect, it } from 'vitest';
import { messageLanguage } from './message-language';

describe('messageLanguage', () => {
  it('maps the app language to the language of the message the server sends', () => {
    expect(messageLanguage('es')).toBe('es');
    expect(messageLanguage('es-MX')).toBe('es');
    expect(messageLanguage('en-US')).toBe('en');
    expect(messageLanguage('fr')).toBe('en');
    expect(messageLanguage(undefined)).toBe('en');
  });
});
