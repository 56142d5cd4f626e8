import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { contractText } from './contract-text.js';
import { contractTextInWorker } from './document-worker-pool.js';

const SAMPLE = fileURLToPath(new URL('../../../assets/sample-contract.pdf', import.meta.url));

describe("the contract's text made on the server (issue 30)", () => {
  it('reflows the sample contract into headings and paragraphs, as the frame did with pdf.js', async () => {
    const paras = (await contractText(new Uint8Array(fs.readFileSync(SAMPLE))))!;
    expect(paras.length).toBeGreaterThan(8);
    expect(paras.find((p) => p.kind === 'h')?.text).toMatch(/Patient Financial Agreement and Consent/);
    // Lines of one paragraph are joined: no paragraph is a bare line break.
    expect(paras.every((p) => p.text.trim().length > 0)).toBe(true);
  });

  it('answers null for a PDF without text (a scan: the frame shows the pages), through the worker pool', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([612, 792]);
    const blank = await doc.save();
    expect(await contractTextInWorker(blank, 'blank-test')).toBeNull();
    expect(await contractTextInWorker(new TextEncoder().encode('not a pdf'), 'broken-test')).toBeNull();
  });
});
