import { describe, expect, it } from 'vitest';
import { challengePage, webSdkScript } from './browser-scripts.js';

describe('sandbox 3-D Secure lightbox (issue 16, item 9)', () => {
  it('the challenge page speaks one language: the payment page’s', () => {
    const es = challengePage({ id: 'x', last4: '0077', amount: '$500.00', lang: 'es' });
    expect(es).toContain('<html lang="es">');
    expect(es).toContain('>Autenticar</button>');
    expect(es).toContain('>Fallar la autenticación</button>');
    expect(es).not.toMatch(/Authenticate|verify it's you|Confirm the payment/);
    const en = challengePage({ id: 'x', last4: '0077', amount: '$500.00' });
    expect(en).toContain('<html lang="en">');
    expect(en).toContain('>Authenticate</button>');
    expect(en).not.toMatch(/Confirme|Puede volver|Autenticar/);
    expect(challengePage({ id: 'x', last4: '1', amount: '$1', done: 'failed', lang: 'es' })).toContain(
      'La autenticación falló.',
    );
  });

  it('the SDK opens the challenge in the page language over a dimmed backdrop', () => {
    const sdk = webSdkScript('https://gw.example');
    expect(sdk).toContain("'lng=' + (es ? 'es' : 'en')");
    expect(sdk).toMatch(/background:rgba\(0,0,0,\.6\)/);
  });
});
