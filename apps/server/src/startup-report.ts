import type { Config } from './config.js';

/**
 * What the start log says about the outside services (issue 11, finding 7): which providers are real and which are
 * sandbox stand-ins, and a loud warning when sandbox sign-in codes could be read from another machine (finding 1).
 */
export function providerLines(config: Config): string[] {
  const s = config.sandbox;
  const row = (label: string, sandbox: boolean, real: string) =>
    `    ${label.padEnd(13)} ${sandbox ? 'SANDBOX (nothing leaves this machine)' : `real: ${real}`}`;
  return [
    '  Providers:',
    row('SMS', s.sms, `Twilio (${config.TWILIO_FROM ?? ''})`),
    row('E-mail', s.email, `SMTP ${config.SMTP_HOST ?? ''}:${config.SMTP_PORT}`),
    row('Captcha', s.captcha, 'Cloudflare Turnstile'),
    row('Card gateway', s.gateway, `Elavon Converge (${config.CONVERGE_ENV})`),
    `    ${'Storage'.padEnd(13)} ${config.STORAGE_DRIVER === 's3' ? `S3 bucket ${config.S3_BUCKET ?? ''}` : `local disk (${config.dataDir})`}`,
  ];
}

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Empty when the sandbox stays on this machine; otherwise the warning to print (stderr) at start. */
export function exposureWarning(config: Config): string[] {
  const sandboxed = Object.entries(config.sandbox)
    .filter(([, on]) => on)
    .map(([name]) => name);
  if (!sandboxed.length || isLoopbackHost(config.HOST)) return [];
  const bar = '!'.repeat(100);
  return [
    bar,
    `!! WARNING: sandbox providers (${sandboxed.join(', ')}) are on and the server listens on ${config.HOST}.`,
    '!! Sandbox SMS codes and sign-in e-mails are not sent: anyone who can reach this host could use them.',
    '!! The outbox (/dev/outbox) answers only this machine or a staff token, but do not expose a sandbox to',
    '!! patients. Configure real providers (.env.example) or unset HOST to listen on 127.0.0.1 only.',
    bar,
  ];
}
