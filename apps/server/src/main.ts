import { pino } from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import type { AppContext } from './context.js';
import { openDb } from './db/client.js';
import { migrate } from './db/migrate.js';
import { getOrCreateSecret } from './lib/secrets.js';
import { DataDirError, makePrivate } from './lib/private-files.js';
import { loadProviders } from './providers/index.js';
import { sideServers } from './side-servers.js';
import { startOutboxWorker } from './modules/outbox/index.js';
import { startWebhookWorker } from './modules/webhooks/index.js';
import { startReconcileWorker, linkPayments } from './modules/payments/index.js';
import { startMessagingWorker } from './modules/messaging/index.js';
import { startTamperWorker } from './modules/security/index.js';
import { linkPlans, startPlanWorker } from './modules/plans/index.js';
import { WEB_DIST } from './http/static-assets.js';
import { signingStepDocuments, checkContractFiles, cleanStoredContracts } from './modules/signing/index.js';
import { staffAccess } from './modules/staff/index.js';
import { runBootSeed, type BootSeedResult } from './seed/boot-seed.js';
import { resealTotpSecrets } from './modules/staff/index.js';
import { exposureWarning, providerLines } from './startup-report.js';

function privateDataDir(dir: string): void {
  try {
    makePrivate(dir);
  } catch (err) {
    if (!(err instanceof DataDirError)) throw err;
    console.error(`Start-up failed: ${err.message}`);
    process.exit(1);
  }
}

/** Boot: config → database → migrations → providers → HTTP. Fails fast with a readable message. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const log = pino({ level: config.LOG_LEVEL });
  try {
    await checkContractFiles(config);
  } catch (err) {
    console.error(`Start-up failed: ${(err as Error).message}`);
    process.exit(1);
  }
  // Everything the server writes is its user's alone: new folders 0700 and files 0600 (issue 26). PGlite sets its own
  // files to 0666 whatever the umask, so the data dir's folders (0700) are what keeps them private between the walks.
  process.umask(0o077);
  privateDataDir(config.dataDir);
  const db = await openDb({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    poolMax: config.DATABASE_POOL_MAX,
    warn: (message) => log.warn(message),
  });
  const applied = await migrate(db);
  if (applied.length) log.info({ applied }, 'migrations applied');
  // With PAYLINK_SECRETS_KEY: TOTP secrets sealed with the per-database or the previous key are sealed again with it.
  try {
    const resealed = await resealTotpSecrets({ db, config });
    if (resealed) log.info({ staffUsers: resealed }, 'two-factor secrets re-sealed with PAYLINK_SECRETS_KEY');
  } catch (err) {
    console.error(`Start-up failed: ${(err as Error).message}`);
    await db.close();
    process.exit(1);
  }
  let seed: BootSeedResult;
  try {
    seed = await runBootSeed(db, config);
  } catch (err) {
    console.error(`Start-up failed: ${(err as Error).message}`);
    await db.close();
    process.exit(1);
  }

  // Again once the database is open and migrated: the files PGlite has just created or restored from the template.
  privateDataDir(config.dataDir);

  const sessionSecret = await getOrCreateSecret(db, 'session', config.PAYLINK_SESSION_SECRET);
  const providers = await loadProviders({ config, db });
  const cleaned = await cleanStoredContracts(db, providers.storage);
  if (cleaned.length)
    log.warn({ languages: cleaned }, 'uploaded contracts had active content: replaced by clean copies');
  const plans = linkPlans({ db, config });
  const ctx: AppContext = {
    config,
    db,
    log,
    sessionKeys: { secret: new TextEncoder().encode(sessionSecret), ttlMinutes: config.SESSION_TTL_MINUTES },
    providers,
    stepDocuments: signingStepDocuments({ config, providers }),
    linkPayments: linkPayments({ db, providers, plans }),
    linkPlans: plans,
    staffAccess: staffAccess({ db, config }),
  };
  const app = await buildApp(ctx);
  await app.listen({ port: config.PORT, host: config.HOST });
  const outbox = startOutboxWorker(ctx);
  const webhooks = startWebhookWorker(ctx, { pollMs: config.OUTBOX_POLL_INTERVAL_MS });
  const reconciler = startReconcileWorker(
    {
      db,
      gateway: ctx.providers.gateway,
      log,
      practiceFallback: {
        name: config.PRACTICE_NAME,
        senderName: config.senderName,
        supportPhone: config.PRACTICE_PHONE,
        supportEmail: config.PRACTICE_EMAIL,
        logoUrl: config.PRACTICE_LOGO_URL ?? null,
      },
      timeZone: config.PRACTICE_TIME_ZONE,
      publicUrl: config.publicUrl,
      plans,
    },
    15_000,
  );
  const messaging = startMessagingWorker(ctx);
  const tamper = startTamperWorker(ctx, config.WEB_DIST_DIR ?? WEB_DIST);
  const planWorker = startPlanWorker(ctx);
  const side: { name: string; origin: string; server: import('fastify').FastifyInstance }[] = [];
  for (const s of sideServers.filter((x) => x.enabled(ctx))) {
    const server = await s.build(ctx);
    await server.listen({ port: s.port(ctx), host: config.HOST });
    side.push({ name: s.name, origin: s.origin(ctx), server });
  }

  const shutdown = async () => {
    await messaging.stop();
    await tamper.stop();
    await planWorker?.stop();
    await outbox.stop();
    await webhooks.stop();
    await reconciler.stop();
    for (const s of side) await s.server.close();
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  console.log(
    `\nPaylink is running (${config.mode} mode, ${db.kind === 'pglite' ? 'embedded PostgreSQL' : 'PostgreSQL'})`,
  );
  console.log(`  App:     ${config.publicUrl}`);
  console.log(`  API:     ${config.publicUrl}/api/docs`);
  for (const s of side) console.log(`  ${`${s.name}:`.padEnd(8)} ${s.origin}`);
  console.log(`  Listening on ${config.HOST}`);
  for (const line of providerLines(config)) console.log(line);
  const warning = exposureWarning(config);
  if (warning.length) console.error(`\n${warning.join('\n')}\n`);
  printBootBanner(config, seed);
}

/** Demo links, where sandbox codes and e-mails land, and how to reach the CLI. */
function printBootBanner(config: import('./config.js').Config, seed: BootSeedResult) {
  if (config.mode === 'sandbox')
    console.log(`  Outbox:  ${config.publicUrl}/dev/outbox  (sandbox SMS codes and e-mails)`);
  if (seed.demoLinks.length) {
    console.log(`\nDemo links${seed.demoLinksCreated ? ' (created now)' : ''}:`);
    for (const d of seed.demoLinks) {
      console.log(
        `  ${d.label.padEnd(34)} ${d.state.padEnd(9)} ${d.signInMethod.padEnd(5)} ${d.contact.padEnd(28)} ${d.url}`,
      );
    }
    console.log('  Sign in with the method shown: SMS links send a 6-digit code, e-mail links want the address shown;');
    console.log(
      `  read the code or the sign-in e-mail at ${config.publicUrl}/dev/outbox. Turn demo links off: PAYLINK_DEMO_LINKS=false`,
    );
  }
  if (seed.demoCoordinator) {
    console.log(`\nPractice console: ${config.publicUrl}/console`);
    console.log(`  demo coordinator: ${seed.demoCoordinator.email}`);
    console.log(
      seed.demoCoordinator.password
        ? `  password:         ${seed.demoCoordinator.password}`
        : '  password:         (changed since it was created)',
    );
  }
  console.log('\nCoordinator CLI:');
  if (seed.adminTokenFile) console.log(`  admin token: ${seed.adminTokenFile} (read by the CLI automatically)`);
  else console.log('  set PAYLINK_ADMIN_TOKEN (get one with: npm run paylink -- login --email <admin e-mail>)');
  console.log('  npm run paylink -- links create --first-name Ana --last-name Diaz --phone "(555) 010-9999"');
  console.log('  npm run paylink -- links list --status active     npm run paylink -- --help');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
