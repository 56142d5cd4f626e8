import fs from 'node:fs/promises';
import type { Config } from '../../config.js';
import { cleanContractPdf } from './clean-contract-pdf.js';

/**
 * The contracts named by CONTRACT_PDF_PATH(_ES) pass the console upload's checks at start (issue 26): readable, within
 * CONTRACT_MAX_PAGES, and with nothing that runs or opens on a reader's device. Those files are served as they are,
 * so one that fails stops the start with what to do; the console's upload cleans a file instead.
 */
export async function checkContractFiles(
  config: Pick<Config, 'CONTRACT_PDF_PATH' | 'CONTRACT_PDF_PATH_ES' | 'CONTRACT_MAX_PAGES'>,
): Promise<void> {
  for (const name of ['CONTRACT_PDF_PATH', 'CONTRACT_PDF_PATH_ES'] as const) {
    const file = config[name];
    if (!file) continue;
    const r = await cleanContractPdf(new Uint8Array(await fs.readFile(file)), { maxPages: config.CONTRACT_MAX_PAGES });
    const fix = 'upload the contract in the console (Settings → Contract), which removes it, or export a plain PDF';
    if (!r.ok) {
      const why =
        r.problem === 'too_many_pages'
          ? `has ${r.pageCount} pages, more than CONTRACT_MAX_PAGES (${config.CONTRACT_MAX_PAGES})`
          : r.problem === 'active_content'
            ? `holds content that could run on a reader's device; ${fix}`
            : `is not a usable PDF (${r.problem.replace(/_/g, ' ')})`;
      throw new Error(`${name} (${file}) ${why}.`);
    }
    if (r.removed.length) throw new Error(`${name} (${file}) holds ${r.removed.join(', ')}; ${fix}.`);
  }
}
