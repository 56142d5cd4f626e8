import { describe, expect, it } from 'vitest';
import { renderEmail } from './email-layout.js';
import { signInCodeSms } from '../modules/auth/sign-in-messages.js';

const practice = {
  name: 'Clinic <A&B>',
  supportPhone: '(555) 010-0123',
  supportEmail: 'billing@clinic.example',
  logoUrl: null,
};

describe('renderEmail', () => {
  it('escapes every text it puts into HTML, and keeps the text version readable', () => {
    const { html, text } = renderEmail({
      lang: 'en',
      practice,
      title: 'Receipt <script>',
      paragraphs: ['Paid "$250" & thanks'],
      action: { label: 'Open', url: 'https://pay.example.com/x?a=1&b=2' },
    });
    expect(html).not.toContain('<script>');
    expect(html).toContain('Receipt &lt;script&gt;');
    expect(html).toContain('Clinic &lt;A&amp;B&gt;');
    expect(html).toContain('Paid &quot;$250&quot; &amp; thanks');
    expect(html).toContain('href="https://pay.example.com/x?a=1&amp;b=2"');
    expect(text).toContain('Paid "$250" & thanks');
    expect(text).toContain('Open: https://pay.example.com/x?a=1&b=2');
    expect(text).toContain('Questions? Contact us: (555) 010-0123 · billing@clinic.example');
  });

  it('writes the footer in the e-mail language', () => {
    const es = renderEmail({ lang: 'es', practice, title: 'Recibo', paragraphs: ['Gracias'] });
    expect(es.html).toContain('<html lang="es">');
    expect(es.text).toContain('Recibe este correo de Clinic <A&B> en relación con su enlace de pago personal.');
    expect(es.text).toContain('¿Preguntas? Contáctenos:');
    expect(es.text).not.toContain('Questions?');
    const en = renderEmail({ lang: 'en', practice: { name: 'Clinic' }, title: 'Receipt', paragraphs: [] });
    expect(en.text).toContain('You are receiving this e-mail from Clinic');
    expect(en.text).not.toContain('Contact us'); // no contact details on file
  });

  it('adds the origin-bound code line on https so browsers autofill the code on our site only', () => {
    const sms = signInCodeSms({
      lang: 'en',
      practiceName: 'Clinic',
      code: '012345',
      minutes: 10,
      publicUrl: 'https://pay.example.com',
    });
    expect(sms).toMatch(/\n\n@pay\.example\.com #012345$/);
    expect(sms.length).toBeLessThan(160);
    for (const publicUrl of ['http://localhost:8080', 'https://pay.example.com:8443']) {
      expect(
        signInCodeSms({ lang: 'en', practiceName: 'Clinic', code: '012345', minutes: 10, publicUrl }),
      ).not.toContain('@');
    }
    const longHost = `https://${'a'.repeat(60)}.example.com`;
    const long = signInCodeSms({
      lang: 'es',
      practiceName: 'Clinic',
      code: '012345',
      minutes: 10,
      publicUrl: longHost,
    });
    expect(long).not.toContain('@');
  });

  it('keeps the code SMS in one segment even for a long practice name', () => {
    const long = 'The Extraordinarily Long Name Of A Cosmetic Surgery Practice LLC';
    for (const lang of ['en', 'es'] as const) {
      const sms = signInCodeSms({ lang, practiceName: long, code: '012345', minutes: 10 });
      expect(sms.length).toBeLessThan(160);
      expect(sms).toContain('012345');
      expect(sms).toMatch(/^The Extraordinarily Long Name Of A Cosme: /);
    }
  });
});
