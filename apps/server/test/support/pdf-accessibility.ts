import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFArray, PDFBool, PDFDict, PDFDocument, PDFHexString, PDFName, PDFString, type PDFObject } from 'pdf-lib';

const textOf = (o: PDFObject | undefined) =>
  o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : undefined;

export interface PdfAccessibility {
  /** poppler's `pdfinfo` says "Tagged: yes". */
  tagged: boolean;
  /** The catalogue's /Lang. */
  lang: string | undefined;
  /** /ViewerPreferences /DisplayDocTitle: a reader's window shows the title, not the file name. */
  displayDocTitle: boolean;
  title: string;
  /**
   * The structure tree as poppler reads it (`pdfinfo -struct-text`): each element's type and, under it, the text its
   * marked content holds. Text only appears when the content is linked to the element (MCID, parent tree), so this is
   * what a screen reader gets.
   */
  structure: string;
  /** Every element's type, depth-first (from the file itself). */
  types: string[];
  /** The /Lang of elements that say theirs (content in another language than the file's). */
  elementLangs: string[];
  /** The /Alt of every Figure. */
  figureAlts: string[];
  /** The page text as `pdftotext` extracts it (reading order). */
  text: string;
}

/** What a screen reader and a text extractor get from a PDF (issue 29, item 9; decision 0221). */
export async function pdfAccessibility(bytes: Uint8Array): Promise<PdfAccessibility> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-pdf-'));
  const file = path.join(dir, 'doc.pdf');
  fs.writeFileSync(file, bytes);
  try {
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    const structure = execFileSync('pdfinfo', ['-struct-text', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    const lang = doc.catalog.get(PDFName.of('Lang'));
    const prefs = doc.catalog.lookupMaybe(PDFName.of('ViewerPreferences'), PDFDict);
    const types: string[] = [];
    const figureAlts: string[] = [];
    const elementLangs = new Set<string>();
    const walk = (o: PDFObject | undefined) => {
      const v = o ? doc.context.lookup(o) : undefined;
      if (v instanceof PDFArray) return v.asArray().forEach(walk);
      if (!(v instanceof PDFDict)) return;
      const s = v.get(PDFName.of('S'));
      if (s instanceof PDFName) {
        types.push(s.decodeText());
        const l = textOf(v.get(PDFName.of('Lang')));
        if (l) elementLangs.add(l);
        const alt = v.get(PDFName.of('Alt'));
        if (s.decodeText() === 'Figure') figureAlts.push(textOf(alt) ?? '');
      }
      if (s instanceof PDFName || v.get(PDFName.of('Type'))?.toString() === '/StructTreeRoot')
        walk(v.get(PDFName.of('K')));
    };
    walk(doc.catalog.get(PDFName.of('StructTreeRoot')));
    return {
      tagged: /^Tagged:\s+yes$/m.test(info),
      lang: textOf(lang),
      displayDocTitle: prefs?.get(PDFName.of('DisplayDocTitle')) === PDFBool.True,
      title: doc.getTitle() ?? '',
      structure,
      types,
      elementLangs: [...elementLangs],
      figureAlts,
      text,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether `needles` occur in `haystack` in this order (a RegExp needle matches where the previous one ended). */
export function inOrder(haystack: string, needles: (string | RegExp)[]): boolean {
  let at = 0;
  for (const n of needles) {
    if (typeof n === 'string') {
      const i = haystack.indexOf(n, at);
      if (i < 0) return false;
      at = i + n.length;
    } else {
      const m = new RegExp(n.source, n.flags.replace('g', '')).exec(haystack.slice(at));
      if (!m) return false;
      at += m.index + m[0].length;
    }
  }
  return true;
}
