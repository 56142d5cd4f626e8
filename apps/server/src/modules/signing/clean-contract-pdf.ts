import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRef,
  PDFStream,
  PDFString,
  type PDFObject,
} from 'pdf-lib';
import { appendPages } from './pdf-structure.js';
import { ownBytes } from './pdf-writer.js';

/**
 * A practice's contract PDF as readers get it (issue 26; decision 0195): its pages, as they look, in a new file, and
 * nothing that can run or open on a reader's device. Staff open these in desktop readers that run PDF JavaScript and
 * launch attachments, and every signed copy starts from them.
 *
 * How: read the upload, take off the pages' and annotations' actions that are not a plain web link, drop attachments
 * and media annotations, detach form widgets from their fields (they keep their look, no longer fillable), then copy
 * the pages into a fresh document. Only what a page references is copied, so the old catalogue goes with everything
 * it carried (open actions, document scripts, embedded files, the form and XFA, outlines). A last walk over the new
 * file refuses it if anything active is still there.
 */

export type RemovedKind = 'scripts' | 'actions' | 'attachments' | 'media' | 'forms';

export type CleanProblem = 'unreadable' | 'encrypted' | 'no_pages' | 'too_many_pages' | 'active_content';

export type CleanResult =
  | { ok: true; bytes: Uint8Array; pageCount: number; removed: RemovedKind[] }
  | { ok: false; problem: CleanProblem; pageCount?: number };

const N = (s: string) => PDFName.of(s);
const A = N('A');
const AA = N('AA');
const S = N('S');
const JS = N('JS');
const URI = N('URI');
const NEXT = N('Next');
const SUBTYPE = N('Subtype');
const PARENT = N('Parent');
const ANNOTS = N('Annots');

/** Annotations that play media or hold files: removed with their appearance (they have no content of their own). */
const MEDIA = new Set(['Screen', 'Movie', 'Sound', 'RichMedia', '3D']);
/** Web and mail links stay: a reader's click opens a browser, nothing runs in the PDF reader. */
const SAFE_URI = /^(https?:|mailto:)/i;

function nameOf(o: PDFObject | undefined): string | undefined {
  return o instanceof PDFName ? o.decodeText() : undefined;
}

function textOf(o: PDFObject | undefined): string {
  return o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : '';
}

/** Every dictionary in an action chain (an action, or an array of them, each with its /Next). */
function actionDicts(doc: PDFDocument, o: PDFObject | undefined, seen = new Set<PDFObject>()): PDFDict[] {
  const v = o instanceof PDFRef ? doc.context.lookup(o) : o;
  if (!v || seen.has(v)) return [];
  seen.add(v);
  if (v instanceof PDFArray) return v.asArray().flatMap((x) => actionDicts(doc, x, seen));
  if (!(v instanceof PDFDict)) return [];
  return [v, ...actionDicts(doc, v.get(NEXT), seen)];
}

/** A link annotation's /A that only opens a web or mail address. */
function isSafeLink(doc: PDFDocument, action: PDFObject | undefined): boolean {
  const chain = actionDicts(doc, action);
  return (
    chain.length === 1 &&
    nameOf(chain[0]!.get(S)) === 'URI' &&
    SAFE_URI.test(textOf(doc.context.lookup(chain[0]!.get(URI))))
  );
}

function kindOfActions(doc: PDFDocument, o: PDFObject | undefined): RemovedKind {
  const values = (v: PDFObject | undefined): PDFObject[] => {
    const d = v instanceof PDFRef ? doc.context.lookup(v) : v;
    // An additional-actions dictionary (/AA) maps triggers to actions.
    if (d instanceof PDFDict && !d.has(S)) return d.entries().map(([, x]) => x);
    return [v!];
  };
  const chain = values(o).flatMap((x) => actionDicts(doc, x));
  return chain.some((d) => nameOf(d.get(S)) === 'JavaScript' || d.has(JS)) ? 'scripts' : 'actions';
}

/** Anything active left in a finished file: a script, or an action that launches, submits, imports or plays. */
function stillActive(doc: PDFDocument): boolean {
  const active = new Set([
    'JavaScript',
    'Launch',
    'SubmitForm',
    'ImportData',
    'Rendition',
    'RichMediaExecute',
    'GoToE',
  ]);
  const files = new Set(['Filespec', 'EmbeddedFile']);
  // Every indirect object is visited; inside one, its direct dictionaries and arrays (actions are often direct).
  const visit = (o: PDFObject): boolean => {
    if (o instanceof PDFArray) return o.asArray().some(visit);
    const d = o instanceof PDFDict ? o : o instanceof PDFStream ? o.dict : null;
    if (!d) return false;
    if (d.has(JS) || d.has(AA) || d.has(N('EmbeddedFiles')) || d.has(N('XFA'))) return true;
    if (active.has(nameOf(d.get(S)) ?? '') || files.has(nameOf(d.get(N('Type'))) ?? '')) return true;
    return d.entries().some(([, v]) => visit(v));
  };
  return doc.context.enumerateIndirectObjects().some(([, o]) => visit(o));
}

export async function cleanContractPdf(input: Uint8Array, opts: { maxPages: number }): Promise<CleanResult> {
  let src: PDFDocument;
  let pageCount: number;
  try {
    src = await PDFDocument.load(ownBytes(input), { updateMetadata: false });
    if (src.isEncrypted) return { ok: false, problem: 'encrypted' };
    pageCount = src.getPageCount();
    // pdf-lib is lenient: a damaged file may load and fail later, so reading a page is part of the check.
    if (pageCount > 0) src.getPage(0).getSize();
  } catch (err) {
    return { ok: false, problem: /encrypt/i.test((err as Error).message) ? 'encrypted' : 'unreadable' };
  }
  if (pageCount < 1) return { ok: false, problem: 'no_pages' };
  if (pageCount > opts.maxPages) return { ok: false, problem: 'too_many_pages', pageCount };

  const removed = new Set<RemovedKind>();
  const catalog = src.catalog;
  if (catalog.has(N('OpenAction'))) {
    const open = catalog.get(N('OpenAction'));
    // A plain "open at page n" is an array destination, not an action.
    if (!(catalog.lookup(N('OpenAction')) instanceof PDFArray)) removed.add(kindOfActions(src, open));
  }
  if (catalog.has(AA)) removed.add(kindOfActions(src, catalog.get(AA)));
  const names = catalog.lookupMaybe(N('Names'), PDFDict);
  if (names?.has(N('JavaScript'))) removed.add('scripts');
  if (names?.has(N('EmbeddedFiles'))) removed.add('attachments');
  if (catalog.has(N('AcroForm'))) removed.add('forms');

  try {
    for (const page of src.getPages()) {
      const node = page.node;
      if (node.has(AA)) {
        removed.add(kindOfActions(src, node.get(AA)));
        node.delete(AA);
      }
      const annots = node.lookupMaybe(ANNOTS, PDFArray);
      if (!annots) continue;
      const kept: PDFObject[] = [];
      for (const ref of annots.asArray()) {
        const annot = ref instanceof PDFRef ? src.context.lookup(ref) : ref;
        if (!(annot instanceof PDFDict)) continue;
        const subtype = nameOf(annot.get(SUBTYPE)) ?? '';
        if (subtype === 'FileAttachment') {
          removed.add('attachments');
          continue;
        }
        if (MEDIA.has(subtype)) {
          removed.add('media');
          continue;
        }
        if (annot.has(AA)) {
          removed.add(kindOfActions(src, annot.get(AA)));
          annot.delete(AA);
        }
        if (annot.has(A) && !isSafeLink(src, annot.get(A))) {
          removed.add(kindOfActions(src, annot.get(A)));
          annot.delete(A);
        }
        if (subtype === 'Widget' && annot.has(PARENT)) {
          // The field (and its scripts, calculations, submit targets) stays behind; the widget keeps its look.
          removed.add('forms');
          annot.delete(PARENT);
        }
        // Back-pointers to the old page would pull it into the copy.
        annot.delete(N('P'));
        kept.push(ref);
      }
      if (kept.length) node.set(ANNOTS, src.context.obj(kept));
      else node.delete(ANNOTS);
    }

    const out = await PDFDocument.create({ updateMetadata: false });
    const title = src.getTitle();
    if (title) out.setTitle(title);
    // The practice's language and tags, where it set them, come along (decision 0221): they are its words' structure.
    const lang = src.catalog.get(N('Lang'));
    if (lang instanceof PDFString || lang instanceof PDFHexString) out.setLanguage(lang.decodeText());
    await appendPages(out, src);
    if (stillActive(out)) return { ok: false, problem: 'active_content', pageCount };
    return { ok: true, bytes: await out.save(), pageCount, removed: [...removed].sort() };
  } catch {
    return { ok: false, problem: 'unreadable' };
  }
}
