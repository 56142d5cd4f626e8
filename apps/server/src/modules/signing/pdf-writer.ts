import { PDFDocument, PDFFont, PDFImage, PDFPage, StandardFonts, rgb } from 'pdf-lib';
import { appendPages, PdfStructure, type StructElem, type StructType } from './pdf-structure.js';

/**
 * A copy with its own ArrayBuffer. pdf-lib reads `bytes.buffer` from offset 0, so a Node Buffer that is a slice of the
 * shared pool (small reads, Buffer.concat) would be parsed from the wrong place.
 */
export const ownBytes = (bytes: Uint8Array): Uint8Array => new Uint8Array(bytes);

const PAGE: [number, number] = [612, 792]; // US Letter
const MARGIN = 54;

/** The /Lang a document (or an element in another language) carries. */
export const PDF_LANG = { en: 'en-US', es: 'es-US' } as const;

type TextOpts = {
  size?: number;
  font?: 'regular' | 'bold' | 'italic';
  indent?: number;
  gap?: number;
  color?: number;
  /** What the text is to a screen reader: a paragraph unless it says otherwise. */
  tag?: 'P' | 'H1' | 'H2' | 'H3';
};

/**
 * A tiny flowing-text layout on pdf-lib: wraps lines, starts new pages, and never throws on characters a standard
 * font cannot encode (they become '?', which keeps any name from breaking a signed PDF).
 *
 * Everything it draws is tagged (decision 0221): headings, paragraphs, tables and figures become structure elements of
 * the document's tree (pdf-structure.ts), rules are artifacts, and the file says its language and shows its title.
 */
export class PdfWriter {
  page!: PDFPage;
  y = 0;
  private charsets = new Map<PDFFont, Set<number>>();
  /** Consecutive `row` calls are one table; anything else drawn ends it. */
  private rows: StructElem | null = null;

  private constructor(
    readonly doc: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
    readonly italic: PDFFont,
    readonly tags: PdfStructure,
    /** The language of what this writer adds (the file's own /Lang is kept when it has one). */
    readonly lang: string,
  ) {}

  /** `firstPage: false` when the first thing added is another file's pages (`append`) or starts with `newPage`. */
  static async create(
    doc: PDFDocument,
    opts: { lang: keyof typeof PDF_LANG; firstPage?: boolean },
  ): Promise<PdfWriter> {
    const lang = PDF_LANG[opts.lang];
    doc.catalog.getOrCreateViewerPreferences().setDisplayDocTitle(true);
    const w = new PdfWriter(
      doc,
      await doc.embedFont(StandardFonts.Helvetica),
      await doc.embedFont(StandardFonts.HelveticaBold),
      await doc.embedFont(StandardFonts.TimesRomanItalic),
      PdfStructure.of(doc, lang),
      lang,
    );
    if (opts.firstPage !== false) w.newPage();
    return w;
  }

  /** A new element at the top of this writer's content (in the writer's language when the file's is another). */
  private block(type: StructType, opts: { alt?: string; attributes?: Record<string, unknown> } = {}) {
    this.rows = null;
    return this.tags.element(type, this.tags.document, { ...opts, lang: this.lang });
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

  text(text: string, opts: TextOpts = {}) {
    const size = opts.size ?? 11;
    const font = opts.font === 'bold' ? this.bold : opts.font === 'italic' ? this.italic : this.font;
    const indent = opts.indent ?? 0;
    const lineHeight = size * 1.35;
    const elem = this.block(opts.tag ?? 'P');
    for (const line of this.wrap(text, font, size, this.width - indent)) {
      this.ensure(lineHeight);
      this.y -= lineHeight;
      const c = opts.color ?? 0;
      this.tags.mark(this.page, elem, () =>
        this.page.drawText(line, { x: MARGIN + indent, y: this.y + size * 0.25, size, font, color: rgb(c, c, c) }),
      );
    }
    this.y -= opts.gap ?? 4;
  }

  /** A heading (H1 for the document's title, H2 for its sections), bold unless told otherwise. */
  heading(text: string, level: 1 | 2 | 3, opts: Omit<TextOpts, 'tag'> = {}) {
    this.text(text, { font: 'bold', ...opts, tag: `H${level}` });
  }

  /** Label on the left, value on the right, on one row (the value wraps): a table row with the label as its header. */
  row(label: string, value: string, opts: { size?: number; labelWidth?: number } = {}) {
    const size = opts.size ?? 10;
    const labelWidth = opts.labelWidth ?? 150;
    const lines = this.wrap(value, this.font, size, this.width - labelWidth);
    const lineHeight = size * 1.4;
    this.ensure(lineHeight * lines.length);
    const table = this.rows ?? this.block('Table');
    this.rows = table;
    const tr = this.tags.element('TR', table);
    const th = this.tags.element('TH', tr, { attributes: { O: 'Table', Scope: 'Row' } });
    const td = this.tags.element('TD', tr);
    if (label) {
      this.tags.mark(this.page, th, () =>
        this.page.drawText(this.safe(this.bold, label), {
          x: MARGIN,
          y: this.y - lineHeight + size * 0.25,
          size,
          font: this.bold,
        }),
      );
    }
    for (const line of lines) {
      this.y -= lineHeight;
      this.tags.mark(this.page, td, () =>
        this.page.drawText(line, { x: MARGIN + labelWidth, y: this.y + size * 0.25, size, font: this.font }),
      );
    }
    this.y -= 3;
  }

  /**
   * A table with column headers: `widths` are shares of the line (they add up to 1); each row is as tall as its
   * longest cell, and a row that does not fit starts a new page.
   */
  table(header: string[], rows: string[][], opts: { widths: number[]; size?: number; gap?: number }) {
    const size = opts.size ?? 9;
    const lineHeight = size * 1.35;
    const table = this.block('Table');
    const xs = opts.widths.map((_, i) => MARGIN + this.width * opts.widths.slice(0, i).reduce((a, b) => a + b, 0));
    const draw = (cells: string[], type: 'TH' | 'TD', parent: StructElem) => {
      const font = type === 'TH' ? this.bold : this.font;
      const tr = this.tags.element('TR', parent);
      const wrapped = cells.map((c, i) => this.wrap(c, font, size, this.width * opts.widths[i]! - 6));
      const height = Math.max(...wrapped.map((l) => l.length)) * lineHeight;
      this.ensure(height);
      wrapped.forEach((lines, i) => {
        const cell = this.tags.element(type, tr, type === 'TH' ? { attributes: { O: 'Table', Scope: 'Column' } } : {});
        lines.forEach((line, n) => {
          if (!line) return;
          const y = this.y - (n + 1) * lineHeight + size * 0.25;
          this.tags.mark(this.page, cell, () => this.page.drawText(line, { x: xs[i]!, y, size, font }));
        });
      });
      this.y -= height + 2;
    };
    draw(header, 'TH', this.tags.element('THead', table));
    const body = this.tags.element('TBody', table);
    for (const r of rows) draw(r, 'TD', body);
    this.y -= opts.gap ?? 4;
  }

  /** An image with its description for screen readers (a signature, a photo of an ID). */
  image(img: PDFImage, opts: { width: number; height: number; alt: string }) {
    this.ensure(opts.height);
    const { width, height } = opts;
    const x = MARGIN;
    const y = this.y - height;
    const figure = this.block('Figure', {
      alt: opts.alt,
      attributes: { O: 'Layout', BBox: [x, y, x + width, y + height], Placement: 'Block' },
    });
    this.tags.mark(this.page, figure, () => this.page.drawImage(img, { x, y, width, height }));
    this.y = y;
  }

  rule() {
    this.rows = null;
    this.ensure(10);
    this.y -= 5;
    this.tags.artifact(this.page, () =>
      this.page.drawLine({
        start: { x: MARGIN, y: this.y },
        end: { x: MARGIN + this.width, y: this.y },
        thickness: 0.6,
        color: rgb(0.6, 0.6, 0.6),
      }),
    );
    this.y -= 8;
  }

  /** Another PDF's pages, appended as they are, with the structure they carry (an untagged file adds none). */
  async append(src: PDFDocument) {
    this.rows = null;
    await appendPages(this.doc, src);
  }

  /** A running footer on every page of the file (a page-number artifact, skipped by screen readers). */
  footer(label: (page: number, pages: number) => string) {
    const all = this.doc.getPages();
    all.forEach((p, i) =>
      this.tags.artifact(
        p,
        () =>
          p.drawText(this.safe(this.font, label(i + 1, all.length)), {
            x: 36,
            y: 18,
            size: 7,
            font: this.font,
            color: rgb(0.45, 0.45, 0.45),
          }),
        'Pagination',
      ),
    );
  }

  space(h: number) {
    this.y -= h;
  }

  get margin() {
    return MARGIN;
  }
}
