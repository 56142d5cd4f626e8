// The server's module graph (issue 27; decision 0199). Layers, lowest first; imports go down or sideways within a
// module, never up:
//   platform   db, lib, http, messages (the outbox writer, practice details, e-mail layout), providers, config.ts,
//              context.ts
//   core       idempotency, app-config ← links ← auth (the patient's sign-in to a link), signing ← payments ← plans
//              ← refunds
//   operations outbox, messaging, webhooks, evidence, security, console (read models), vitals
//   staff      staff (the console's sign-in, staff users, tokens, the coordinator API), cli
//   root       app.ts, main.ts, side-servers.ts, startup-report.ts, seed (nothing imports them but the root)
// Edges that break a rule today are listed in .dependency-cruiser-known-violations.json and burn down as modules get
// their index.ts; `npm run lint` refuses any new one.
const SRC = '^apps/server/src/';
const M = `${SRC}modules/`;
const PLATFORM = `${SRC}(db|lib|http|messages|providers)/|${SRC}(config|context)\\.ts$`;
const CORE_BASE = `${M}(idempotency|app-config)/`;
const CORE = `${M}(auth|idempotency|app-config|links|signing|payments|plans|refunds)/`;
const OPERATIONS = `${M}(outbox|messaging|webhooks|evidence|security|console|vitals)/`;
const STAFF = `${M}staff/|${SRC}cli/`;
const ROOT = `${SRC}(app|main|side-servers|startup-report)\\.ts$|${SRC}seed/`;
const TESTS = '\\.test\\.ts$|^apps/server/test/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'platform-up',
      comment: 'Platform (db, lib, http, providers, config, context) serves every module and imports none of them.',
      severity: 'error',
      from: { path: PLATFORM, pathNot: TESTS },
      to: { path: `${M}|${SRC}cli/|${ROOT}|${SRC}sandbox/` },
    },
    {
      name: 'core-base-up',
      comment: 'Idempotency and app-config sit under links: they import no other module.',
      severity: 'error',
      from: { path: CORE_BASE, pathNot: TESTS },
      to: { path: `${M}(auth|links|signing|payments|plans|refunds)/|${OPERATIONS}|${STAFF}|${ROOT}` },
    },
    {
      name: 'links-up',
      comment: 'links is the bottom of the core: it asks signing and payments through ports in the context.',
      severity: 'error',
      from: { path: `${M}links/`, pathNot: TESTS },
      to: { path: `${M}(auth|signing|payments|plans|refunds)/|${OPERATIONS}|${STAFF}|${ROOT}` },
    },
    {
      name: 'auth-up',
      comment: "The patient's sign-in asks links about the link; nothing of signing, payments or refunds.",
      severity: 'error',
      from: { path: `${M}auth/`, pathNot: TESTS },
      to: { path: `${M}(signing|payments|plans|refunds)/|${OPERATIONS}|${STAFF}|${ROOT}` },
    },
    {
      name: 'signing-up',
      severity: 'error',
      from: { path: `${M}signing/`, pathNot: TESTS },
      to: { path: `${M}(payments|plans|refunds)/|${OPERATIONS}|${STAFF}|${ROOT}` },
    },
    {
      name: 'payments-up',
      severity: 'error',
      from: { path: `${M}payments/`, pathNot: TESTS },
      to: { path: `${M}(plans|refunds)/|${OPERATIONS}|${STAFF}|${ROOT}` },
    },
    {
      name: 'plans-up',
      comment: 'Payment plans sit on payments (a plan starts with the deposit) and under refunds.',
      severity: 'error',
      from: { path: `${M}plans/`, pathNot: TESTS },
      to: { path: `${M}refunds/|${OPERATIONS}|${STAFF}|${ROOT}` },
    },
    {
      name: 'core-up',
      comment:
        'The core (links, signing, payments, plans, refunds) imports neither practice operations nor staff access.',
      severity: 'error',
      from: { path: CORE, pathNot: TESTS },
      to: { path: `${OPERATIONS}|${STAFF}|${ROOT}` },
    },
    {
      name: 'operations-up',
      comment:
        'Practice operations (outbox, messaging, webhooks, evidence, security, console, vitals) import no staff access.',
      severity: 'error',
      from: { path: OPERATIONS, pathNot: TESTS },
      to: { path: `${STAFF}|${ROOT}` },
    },
    {
      name: 'staff-up',
      severity: 'error',
      from: { path: STAFF, pathNot: TESTS },
      to: { path: ROOT },
    },
    {
      name: 'not-the-root',
      comment: 'app.ts and main.ts compose everything; nothing but the root imports them (tests included).',
      severity: 'error',
      from: { pathNot: `${ROOT}|${TESTS}` },
      to: { path: `${SRC}(app|main)\\.ts$` },
    },
    {
      name: 'deep-import',
      comment: 'Another module is reached through its index.ts only; its other files are its own.',
      severity: 'error',
      from: { path: `${M}([^/]+)/`, pathNot: TESTS },
      to: { path: `${M}([^/]+)/`, pathNot: [`${M}$1/`, `${M}[^/]+/index\\.ts$`] },
    },
    {
      name: 'sandbox-protocol-only',
      comment: 'The sandbox gateway speaks the gateway protocol; its composer (side-servers.ts) hands it the rest.',
      severity: 'error',
      from: { path: `${SRC}sandbox/`, pathNot: TESTS },
      to: {
        path: SRC,
        pathNot: [`${SRC}sandbox/`, `${SRC}providers/gateway/converge-protocol\\.ts$`, `${SRC}lib/`],
      },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: SRC, pathNot: TESTS },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
  },
};
