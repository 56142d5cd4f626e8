import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { listDemoLinks, seedDemoLinks, type DemoLink } from './demo-links.js';
import { ensureDemoCoordinator } from './seed-demo-coordinator.js';
import { seedPractice } from './seed-practice.js';
import { ensureConfiguredAdmin, ensureSandboxAdminToken } from './seed-staff.js';

export interface BootSeedResult {
  adminTokenFile: string | null;
  demoLinksCreated: boolean;
  demoLinks: DemoLink[];
  /** Sandbox mode: the console's demo coordinator (password null when someone changed it since). */
  demoCoordinator: { email: string; password: string | null } | null;
}

/** Demo links: on in sandbox mode unless PAYLINK_DEMO_LINKS=false; off in production unless PAYLINK_DEMO_LINKS=true. */
function demoLinksEnabled(config: Config): boolean {
  return config.PAYLINK_DEMO_LINKS ? config.PAYLINK_DEMO_LINKS === 'true' : config.mode === 'sandbox';
}

/** Everything boot writes after migrations: practice row, first admin, sandbox admin token, demo links. */
export async function runBootSeed(db: Db, config: Config): Promise<BootSeedResult> {
  await seedPractice(db, config);
  const admin = await ensureConfiguredAdmin(db, config);
  const tokenFile = config.mode === 'sandbox' ? (await ensureSandboxAdminToken(db, config, admin)).path : null;
  const demoCoordinator = await ensureDemoCoordinator(db, config);
  let created = false;
  if (demoLinksEnabled(config)) created = (await seedDemoLinks(db, config)).created;
  return {
    adminTokenFile: tokenFile,
    demoLinksCreated: created,
    demoLinks: demoLinksEnabled(config) ? await listDemoLinks(db, config.publicUrl) : [],
    demoCoordinator,
  };
}
