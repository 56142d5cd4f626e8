import { afterEach, describe, expect, it } from 'vitest';
import { getCaptchaToken, widgetScriptSrc } from './turnstile';

afterEach(() => {
  document.head.querySelectorAll('script').forEach((s) => s.remove());
});

describe('Turnstile widget script', () => {
  it('asks for explicit rendering, keeping the URL the server configured', () => {
    expect(widgetScriptSrc('https://challenges.cloudflare.com/turnstile/v0/api.js')).toBe(
      'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
    );
    expect(widgetScriptSrc('http://127.0.0.1:7355/turnstile/v0/api.js?v=1')).toBe(
      'http://127.0.0.1:7355/turnstile/v0/api.js?v=1&render=explicit',
    );
  });

  it('loads the script from the configured URL (TURNSTILE_SCRIPT_URL), and refuses when there is none', async () => {
    const box = document.createElement('div');
    void getCaptchaToken({ siteKey: '0x4AAA', scriptUrl: 'http://widget.test/api.js' }, box, 'en').catch(() => {});
    const script = document.head.querySelector('script');
    expect(script?.src).toBe('http://widget.test/api.js?render=explicit');
    await expect(getCaptchaToken({ siteKey: '0x4AAA', scriptUrl: null }, box, 'en')).rejects.toThrow();
  });
});
