import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, stopServerProcesses } from '../../../test/support/server-process.js';
import { activeContentPdf } from '../../../test/support/signing-fixtures.js';
import { checkContractFiles } from './check-contract-files.js';
import { SAMPLE_CONTRACT, SAMPLE_CONTRACT_ES } from './documents.js';

/**
 * Issue 26: CONTRACT_PDF_PATH(_ES) files are served as they are, so they must pass what a console upload passes: an
 * operator who points them at a contract with scripts, or at a 100,000-page file, is stopped at start and told why.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-contract-files-'));
afterAll(async () => {
  await stopServerProcesses();
  fs.rmSync(dir, { recursive: true, force: true });
});
const file = (name: string, bytes: Uint8Array) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, bytes);
  return p;
};
async function pages(n: number) {
  const doc = await PDFDocument.create();
  for (let i = 0; i < n; i++) doc.addPage();
  return doc.save();
}

describe('the contract files named in the configuration (issue 26)', () => {
  it('accepts the bundled samples and a plain contract within the page limit', async () => {
    await expect(
      checkContractFiles({
        CONTRACT_PDF_PATH: SAMPLE_CONTRACT,
        CONTRACT_PDF_PATH_ES: file('plain.pdf', await pages(3)),
        CONTRACT_MAX_PAGES: 3,
      }),
    ).resolves.toBeUndefined();
  });

  it('names the setting, the file and the problem', async () => {
    const long = file('long.pdf', await pages(4));
    await expect(
      checkContractFiles({ CONTRACT_PDF_PATH: SAMPLE_CONTRACT, CONTRACT_PDF_PATH_ES: long, CONTRACT_MAX_PAGES: 3 }),
    ).rejects.toThrow(`CONTRACT_PDF_PATH_ES (${long}) has 4 pages, more than CONTRACT_MAX_PAGES (3).`);
    const broken = file('broken.pdf', Buffer.from('%PDF-1.7\nnot really'));
    await expect(
      checkContractFiles({
        CONTRACT_PDF_PATH: broken,
        CONTRACT_PDF_PATH_ES: SAMPLE_CONTRACT_ES,
        CONTRACT_MAX_PAGES: 100,
      }),
    ).rejects.toThrow(`CONTRACT_PDF_PATH (${broken}) is not a usable PDF (unreadable).`);
  });

  it('a server pointed at a contract with scripts does not start, and says what to do', async () => {
    const trapped = file('trapped.pdf', await activeContentPdf('Contract with scripts'));
    const started = startServerProcess({ CONTRACT_PDF_PATH: trapped }, 'paylink-contract-boot-');
    await expect(started).rejects.toThrow(
      `Start-up failed: CONTRACT_PDF_PATH (${trapped}) holds actions, attachments, forms, scripts; upload the ` +
        'contract in the console (Settings → Contract), which removes it, or export a plain PDF.',
    );
  });
});
