/**
 * The production rehearsal by hand (issue 25, decision 0189): starts every stand-in (Twilio, SMTP, Turnstile, the
 * Converge gateway, S3) and the compiled server in PAYLINK_MODE=production pointed at them, then proves the path a
 * patient's sign-in takes: /healthz, an admin signs in with two-factor, creates a link through the staff API, the
 * patient API asks for an SMS code (with a Turnstile token), Twilio's stand-in receives it, its signed status callbacks
 * are accepted by the webhook and the message's delivery status becomes `delivered`, the code signs in, the real
 * Converge adapter gets a session token from the gateway stand-in, an e-mail sign-in link arrives at the SMTP stand-in,
 * and a coordinator created by the admin signs in to the console with a two-factor code.
 *
 *   npm run build && node --import tsx scripts/rehearsal.ts [--keep] [--local-storage]
 *
 * --keep leaves everything running and prints the URLs and credentials (Ctrl-C stops): open the link in a browser and
 * read the SMS code on the console here. Exits non-zero when a check fails.
 */
import { smsCode } from '../e2e/support/outbox.js';
import { startRehearsal } from '../e2e/support/rehearsal.js';
import { startProduct } from '../e2e/support/server.js';
import { admin, createLink } from '../e2e/support/admin.js';
import { convergeEndpoints, createConvergeGateway } from '../apps/server/src/providers/gateway/converge.js';

const keep = process.argv.includes('--keep');
const step = (what: string) => console.log(`\n▸ ${what}`);
const check = (ok: unknown, what: string) => {
  if (!ok) throw new Error(`FAILED: ${what}`);
  console.log(`  ✓ ${what}`);
};

const rehearsal = await startRehearsal({ storage: process.argv.includes('--local-storage') ? 'local' : 's3' });
const { stand } = rehearsal;
let product: Awaited<ReturnType<typeof startProduct>> | undefined;
let failed = false;
try {
  step('stand-ins');
  console.log(`  Twilio     ${stand.twilio.baseUrl}  (account ${stand.twilio.accountSid})`);
  console.log(`  SMTP       ${stand.smtp.host}:${stand.smtp.port}  (AUTH ${stand.smtp.user})`);
  console.log(`  Turnstile  ${stand.turnstile.scriptUrl}, ${stand.turnstile.verifyUrl}`);
  console.log(`  Converge   ${stand.gateway.origin}  (merchant ${stand.gateway.credentials.merchantId})`);
  console.log(`  S3         ${stand.s3 ? `${stand.s3.endpoint}/${stand.s3.bucket}` : 'off: local storage'}`);

  step('the product, compiled, in production mode (startProduct → serveArgs)');
  product = await startProduct(rehearsal.env);
  const health = await fetch(`${product.baseUrl}/healthz`);
  check(health.ok, `GET /healthz → ${health.status} ${await health.text()}`);
  const banner = product.output();
  check(/production mode/.test(banner), 'the server says it runs in production mode');
  for (const line of banner.split('\n').filter((l) => /^\s+(SMS|E-mail|Captcha|Gateway|Card|Storage)/i.test(l))) {
    console.log(`    ${line.trim()}`);
  }
  const outbox = await fetch(`${product.baseUrl}/api/dev/outbox?to=x`);
  check(outbox.status === 404, `the sandbox outbox is off (GET /api/dev/outbox → ${outbox.status})`);

  step('staff: the configured admin signs in (console sign-in, two-factor enrolment, CLI token)');
  const staff = await rehearsal.signInStaff(product);
  check(
    staff.token.startsWith('plk_'),
    `a staff token (${staff.token.slice(0, 8)}…) and ${staff.recoveryCodes.length} recovery codes`,
  );

  step('a link, created through the staff API');
  const link = await createLink(product, { signInMethod: 'sms' });
  check(link.id, `link ${link.id} for ${link.phone}: ${link.url}`);

  step('the patient asks for a sign-in code (Turnstile token from the stand-in widget)');
  const headers = { 'x-api-key': rehearsal.apiKey, 'content-type': 'application/json' };
  const options = await (await fetch(`${product.baseUrl}/api/auth/options?linkId=${link.id}`, { headers })).json();
  check(
    options.captchaSiteKey === stand.turnstile.siteKey,
    `the sign-in options name the site key (${options.captchaSiteKey})`,
  );
  const config = await (await fetch(`${product.baseUrl}/api/config`, { headers })).json();
  check(
    config.captchaScriptUrl === stand.turnstile.scriptUrl,
    `the browser loads the widget from ${config.captchaScriptUrl}`,
  );
  const refused = await fetch(`${product.baseUrl}/api/auth/sms/send`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ linkId: link.id, captchaToken: 'forged' }),
  });
  check(
    refused.status === 400,
    `a forged captcha token is refused (${refused.status} ${(await refused.json()).error})`,
  );
  const since = new Date();
  const sent = await fetch(`${product.baseUrl}/api/auth/sms/send`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ linkId: link.id, captchaToken: stand.turnstile.issueToken() }),
  });
  check(sent.status === 200, `POST /api/auth/sms/send → ${sent.status} ${await sent.text()}`);
  const last = stand.turnstile.verifications.at(-1)!;
  check(last.success, `siteverify at the stand-in said success (remoteip ${last.remoteip})`);

  step('the SMS at the Twilio stand-in');
  const sms = await rehearsal.sms.waitFor(link.phone, { since });
  const raw = stand.twilio.messages.find((m) => m.sid === sms.id)!;
  check(true, `${raw.sid} to ${raw.to} from ${raw.from}: ${JSON.stringify(raw.body)}`);
  check(raw.statusCallback === `${product.baseUrl}/api/webhooks/twilio/status`, `StatusCallback ${raw.statusCallback}`);

  step("Twilio's signed status callbacks reach the webhook");
  const callbacks = await stand.twilio.waitForCallbacks(raw.sid);
  for (const c of callbacks) check(c.httpStatus === 204, `${c.status} → our webhook answered ${c.httpStatus}`);
  const forged = await fetch(raw.statusCallback!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'bm90LWEtc2lnbmF0dXJl' },
    body: new URLSearchParams({ MessageSid: raw.sid, MessageStatus: 'failed' }).toString(),
  });
  check(forged.status === 403, `a callback with a wrong signature is refused (${forged.status})`);

  step('the code signs the patient in');
  const verify = await fetch(`${product.baseUrl}/api/auth/sms/verify`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ linkId: link.id, code: smsCode(sms) }),
  });
  check(verify.status === 200, `POST /api/auth/sms/verify with ${smsCode(sms)} → ${verify.status}`);
  const session = (await verify.json()) as { token?: string };

  step('the real Converge adapter at the gateway stand-in');
  // The session token needs every step before payment done (the browser journey's part): here the same adapter the
  // product runs, with the product's settings, asks for one and queries a transaction id.
  const env = rehearsal.env;
  const converge = createConvergeGateway({
    credentials: { merchantId: env.CONVERGE_MERCHANT_ID!, userId: env.CONVERGE_USER_ID!, pin: env.CONVERGE_PIN! },
    endpoints: convergeEndpoints('production', env.CONVERGE_API_BASE),
  });
  const gwToken = await converge.createSessionToken({ amountCents: 12_500, merchantTxnId: 'rehearsal-by-hand-0001' });
  check(gwToken.length > 16, `transaction_token → a session token (${gwToken.length} characters)`);
  check((await converge.queryTransaction('000000-NO-SUCH-TXN')) === null, 'txnquery of an unknown id → none');
  check(
    config.gateway.checkoutJsUrl === env.CONVERGE_CHECKOUT_JS_URL,
    `the payment page loads Checkout.js from ${config.gateway.checkoutJsUrl}`,
  );
  const checkout = await fetch(config.gateway.checkoutJsUrl);
  check(checkout.ok && /ConvergeEmbeddedPayment/.test(await checkout.text()), `Checkout.js answers ${checkout.status}`);
  void session;

  step('what the console shows: the delivery state from the callbacks');
  const { messages } = await admin<{ messages: { kind: string; deliveryStatus: string | null }[] }>(
    product,
    'GET',
    `/links/${link.id}/messages`,
  );
  const signInCode = messages.find((m) => m.kind === 'signin-code');
  check(signInCode?.deliveryStatus === 'delivered', `GET /api/admin/links/:id/messages: ${JSON.stringify(signInCode)}`);

  step('e-mail: a sign-in link through SMTP with AUTH');
  const emailLink = await createLink(product, { signInMethod: 'email' });
  const mailSince = new Date();
  const emailSend = await fetch(`${product.baseUrl}/api/auth/email/send`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ linkId: emailLink.id, email: emailLink.email, captchaToken: stand.turnstile.issueToken() }),
  });
  check(emailSend.status === 200, `POST /api/auth/email/send → ${emailSend.status}`);
  const mail = await rehearsal.mail.waitFor(emailLink.email, { since: mailSince });
  const received = rehearsal.mail.raw(emailLink.email)!;
  check(/oobCode=/.test(mail.text), `"${mail.subject}" to ${mail.to}, signed in to SMTP as ${received.user}`);

  step('a coordinator, created by the admin, signs in to the console with a two-factor code');
  const coordinator = await rehearsal.addStaff(product, staff);
  const code = await coordinator.nextCode();
  const consoleSignIn = await fetch(`${product.baseUrl}/api/admin/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-paylink-console': '1', origin: product.baseUrl },
    body: JSON.stringify({ email: coordinator.email, password: coordinator.password, code }),
  });
  const signedIn = (await consoleSignIn.json()) as { status?: string; session?: { user?: { role?: string } } };
  check(
    signedIn.status === 'signed_in' && signedIn.session?.user?.role === 'coordinator',
    `${coordinator.email} → ${consoleSignIn.status} ${signedIn.status} (${signedIn.session?.user?.role})`,
  );

  if (keep) {
    console.log(`\nRunning. Patient link: ${link.url}\nConsole: ${product.baseUrl}/console`);
    console.log(`  admin ${staff.email} / ${staff.password}; authenticator secret ${staff.totpSecret}`);
    console.log(`  recovery codes: ${staff.recoveryCodes.join(' ')}`);
    console.log('SMS and e-mails are printed here as they arrive. Ctrl-C stops.');
    let seenSms = stand.twilio.messages.length;
    let seenMail = stand.smtp.mails.length;
    setInterval(() => {
      for (const m of stand.twilio.messages.slice(seenSms)) console.log(`SMS to ${m.to}: ${m.body}`);
      for (const m of stand.smtp.mails.slice(seenMail)) console.log(`E-mail to ${m.to.join(', ')}: ${m.subject}`);
      seenSms = stand.twilio.messages.length;
      seenMail = stand.smtp.mails.length;
    }, 500);
    await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
  }
} catch (err) {
  failed = true;
  console.error(`\n${(err as Error).message}`);
  if (product) console.error(`\nServer output:\n${product.output().slice(-4000)}`);
} finally {
  await product?.stop();
  await rehearsal.stop();
}
console.log(failed ? '\nThe rehearsal FAILED.' : '\nThe rehearsal passed.');
process.exit(failed ? 1 : 0);
