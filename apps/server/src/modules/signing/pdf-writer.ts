import { PDFDocument, PDFFont, PDFPage, StandardFonts, rgb } from 'pdf-lib';

/**
 * A copy with its own ArrayBuffer. pdf-lib reads `bytes.buffer` from offset 0, so a Node Buffer that is a slice of the
 * shared pool (small reads, Buffer.concat) would be parsed from the wrong place.
 */
export const ownBytes = (bytes: Uint8Array): Uint8Array => new Uint8Array(bytes);

const PAGE: [number, number] = [612, 792]; // US Letter
const MARGIN = 54;

/** A tiny flowing-text layout on pdf-lib: wraps lines, starts new pages, and never throws on characters a standard
 * font cannot encode (they become '?', which keeps any name from breaking a signed PDF). */
export class PdfWriter {
  page!: PDFPage;
  y = 0;
  private charsets = new Map<PDFFont, Set<number>>();

  private constructor(
    readonly doc: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
    readonly italic: PDFFont,
  ) {}

  static async create(doc: PDFDocument): Promise<PdfWriter> {
    const w = new PdfWriter(
      doc,
      await doc.embedFont(StandardFonts.Helvetica),
      await doc.embedFont(StandardFonts.HelveticaBold),
      await doc.embedFont(StandardFonts.TimesRomanItalic),
    );
    w.newPage();
    return w;
  }

  get width() {
    return PAGE[0] - 2 * MARGIN;
  }

  newPage() {
    this.page = this.doc.addPage(PAGE);
    this.y = PAGE[1] - MARGIN;
  }

  ensure(height: number) {
    if (this.y - height < MARGIN) this.newPage();
  }

  safe(font: PDFFont, s: string): string {
    let set = this.charsets.get(font);
    if (!set) {
      set = new Set(font.getCharacterSet());
      this.charsets.set(font, set);
    }
    return [...s.normalize('NFC')].map((c) => (set!.has(c.codePointAt(0)!) ? c : '?')).join('');
  }

  wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    for (const para of this.safe(font, text).split('\n')) {
      let line = '';
      for (const word of para.split(/\s+/)) {
        const next = line ? `${line} ${word}` : word;
        if (font.widthOfTextAtSize(next, size) <= width || !line) line = next;
        else {
          lines.push(line);
          line = word;
        }
        // A single word wider than the line (a hash, a long user agent) is cut by characters.
        while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
          let cut = line.length - 1;
          while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
          lines.push(line.slice(0, cut));
          line = line.slice(cut);
        }
      }
      lines.push(line);
    }
    return lines;
  }

  text(
    text: string,
    opts: { size?: number; font?: 'regular' | 'bold' | 'italic'; indent?: number; gap?: number; color?: number } = {},
  ) {
    const size = opts.size ?? 11;
    const font = opts.font === 'bold' ? this.bold : opts.font === 'italic' ? this.italic : this.font;
    const indent = opts.indent ?? 0;
    const lineHeight = size * 1.35;
    for (const line of this.wrap(text, font, size, this.width - indent)) {
      this.ensure(lineHeight);
      this.y -= lineHeight;
      const c = opts.color ?? 0;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y + size * 0.25, size, font, color: rgb(c, c, c) });
    }
    this.y -= opts.gap ?? 4;
  }

  /** Label on the left, value on the right, on one row (the value wraps). */
  row(label: string, value: string, opts: { size?: number; labelWidth?: number } = {}) {
    const size = opts.size ?? 10;
    const labelWidth = opts.labelWidth ?? 150;
    const lines = this.wrap(value, this.font, size, this.width - labelWidth);
    const lineHeight = size * 1.4;
    this.ensure(lineHeight * lines.length);
    this.page.drawText(this.safe(this.bold, label), {
      x: MARGIN,
      y: this.y - lineHeight + size * 0.25,
      size,
      font: this.bold,
    });
    for (const line of lines) {
      this.y -= lineHeight;
      this.page.drawText(line, { x: MARGIN + labelWidth, y: this.y + size * 0.25, size, font: this.font });
    }
    this.y -= 3;
  }

  rule() {
    this.ensure(10);
    this.y -= 5;
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: MARGIN + this.width, y: this.y },
      thickness: 0.6,
      color: rgb(0.6, 0.6, 0.6),
    });
    this.y -= 8;
  }

  space(h: number) {
    this.y -= h;
  }

  get margin() {
    return MARGIN;
  }
}
