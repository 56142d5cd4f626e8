/**
 * The contract's text, reflowed for a narrow screen (issue 16, item 1), made on the server (issue 30): pdf.js and its
 * worker are 439 KB that a phone no longer downloads just to read the contract; the frame loads them only to show the
 * printed pages. The rule is reflow-text.ts's. Runs in the document worker pool.
 */
import { readableAsText, reflowText, type ContractPara, type TextItem } from './reflow-text.js';

export type { ContractPara } from './reflow-text.js';

/**
 * The reflowed text of a PDF, or null when it has too little (a scan: the frame shows the pages). pdf.js's legacy build
 * (Node) reads the text only: no fonts, no rendering.
 */
export async function contractText(bytes: Uint8Array): Promise<ContractPara[] | null> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  try {
    const pages: TextItem[][] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      pages.push(content.items as TextItem[]);
    }
    const paras = reflowText(pages);
    return readableAsText(paras) ? paras : null;
  } finally {
    await doc.destroy();
  }
}
