/**
 * PCI DSS 6.4.3 (issue 11): Subresource Integrity and the script inventory of the patient app's build, before
 * precompression (`npm run build` runs it: scripts/build.ts). See apps/server/src/modules/security/script-inventory.ts.
 *   node --import tsx scripts/script-inventory.ts [dist-dir]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildScriptInventory } from '../apps/server/src/http/script-inventory.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.resolve(process.argv[2] ?? path.join(root, 'apps/web/dist'));
const inventory = buildScriptInventory(dist);
const scripts = inventory.assets.filter((a) => a.kind === 'script').length;
console.log(
  `script inventory: ${scripts} scripts and ${inventory.assets.length - scripts} stylesheets with SRI, ` +
    `${inventory.inlineScripts.length} inline script(s) by CSP hash → ${path.relative(root, dist)}/script-inventory.json`,
);
