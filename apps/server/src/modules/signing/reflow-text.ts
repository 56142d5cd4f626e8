/**
 * The contract's text reflowed for a narrow screen (issue 16, item 1): pdf.js text items become lines (same baseline),
 * lines become paragraphs (a larger gap, a new page or another font size) and headings (larger than the body text).
 * One rule for both places that read a contract: the server (contract-text.ts, in the document worker pool) and the
 * signing frame (assets/signing/sign.ts, bundled in by browser-script.ts) when the server sent no text. No imports:
 * it runs in the browser as it is.
 */
export interface ContractPara {
  kind: 'h' | 'small' | 'p';
  text: string;
}

/** What pdf.js's getTextContent gives per item (marked-content items have no `str`). */
export interface TextItem {
  str?: string;
  transform?: number[];
  hasEOL?: boolean;
}

interface Line {
  y: number;
  size: number;
  text: string;
  page: number;
}

export function reflowText(pagesItems: TextItem[][]): ContractPara[] {
  const lines: Line[] = [];
  pagesItems.forEach((items, pageIndex) => {
    let cur: Line | null = null;
    for (const item of items) {
      if (typeof item.str !== 'string' || !item.transform) continue;
      const t = item.transform;
      const size = Math.hypot(t[2]!, t[3]!) || Math.abs(t[3]!) || 10;
      const y = t[5]!;
      if (item.str.trim() !== '') {
        if (!cur || Math.abs(y - cur.y) > size * 0.5) {
          cur = { y, size, text: '', page: pageIndex };
          lines.push(cur);
        }
        cur.text += item.str;
        cur.size = Math.max(cur.size, size);
      }
      if (item.hasEOL) cur = null;
    }
  });
  const weight = new Map<number, number>();
  for (const l of lines) weight.set(Math.round(l.size), (weight.get(Math.round(l.size)) || 0) + l.text.length);
  const body = [...weight.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] || 11;
  const paras: ContractPara[] = [];
  let prev: Line | null = null;
  let para: ContractPara | null = null;
  for (const l of lines) {
    const kind = l.size > body * 1.04 ? 'h' : l.size < body * 0.9 ? 'small' : 'p';
    const gap = prev && prev.page === l.page ? prev.y - l.y : Infinity;
    if (!para || kind !== para.kind || Math.abs(l.size - prev!.size) > 0.5 || gap > l.size * 1.6 || gap < 0) {
      para = { kind, text: l.text.trim() };
      paras.push(para);
    } else {
      para.text += (para.text.endsWith('-') ? '' : ' ') + l.text.trim();
    }
    prev = l;
  }
  return paras;
}

/** A PDF with a text layer can be read as text; a scan (or next to no text) keeps the printed pages only. */
export function readableAsText(paras: ContractPara[]): boolean {
  return paras.reduce((n, p) => n + p.text.length, 0) > 40;
}
