import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFObjectCopier,
  PDFOperator,
  PDFOperatorNames,
  PDFRef,
  PDFString,
  type PDFObject,
  type PDFPage,
} from 'pdf-lib';

/**
 * The tagging layer under PdfWriter (issue 29, item 9; decision 0221): pdf-lib draws but has no tagged-PDF API, so this
 * keeps a document's structure tree (StructTreeRoot → Document → H1, P, Table, Figure …), wraps what is drawn in
 * marked-content sequences (`/P <</MCID n>> BDC … EMC`) linked to their element through the parent tree and each page's
 * /StructParents, and marks decoration (rules, page footers) as /Artifact. One per document, shared by every writer on
 * it; a document loaded with a tree of its own (a signed copy of our invoice, a practice's tagged contract) is
 * extended, never rebuilt.
 */
export type StructType =
  'Document' | 'Sect' | 'H1' | 'H2' | 'H3' | 'P' | 'Table' | 'THead' | 'TBody' | 'TR' | 'TH' | 'TD' | 'Figure';

const N = (s: string) => PDFName.of(s);
const K = N('K');
const S = N('S');
const PG = N('Pg');
const MCID = N('MCID');
const TYPE = N('Type');
const NUMS = N('Nums');
const KIDS = N('Kids');
const STRUCT_PARENTS = N('StructParents');
const STRUCT_TREE_ROOT = N('StructTreeRoot');
const PARENT_TREE = N('ParentTree');
const NEXT_KEY = N('ParentTreeNextKey');
const MAX_MCID = 100_000;

/** A structure element: its dictionary (to add kids to) and its reference (what kids and the parent tree point at). */
export interface StructElem {
  dict: PDFDict;
  ref: PDFRef;
}

interface PageMarks {
  /** The page's entry in the parent tree: MCID → the element that owns that marked content. */
  owners: PDFArray;
  next: number;
}

const trees = new WeakMap<PDFDocument, PdfStructure>();

export class PdfStructure {
  private pages = new Map<string, PageMarks>();
  private nums: PDFArray;
  private limits: PDFArray | null = null;
  private nextKey: number;

  private constructor(
    readonly doc: PDFDocument,
    readonly root: PDFDict,
    /** Where new content goes: the tree's Document element. */
    readonly document: StructElem,
  ) {
    const ctx = doc.context;
    let tree = root.lookupMaybe(PARENT_TREE, PDFDict);
    if (!tree) {
      tree = ctx.obj({ Nums: [] });
      root.set(PARENT_TREE, ctx.register(tree));
    }
    this.nextKey = Math.max(
      root.lookupMaybe(NEXT_KEY, PDFNumber)?.asNumber() ?? 0,
      maxKey(tree) + 1,
      maxStructParents(doc) + 1,
    );
    const nums = tree.lookupMaybe(NUMS, PDFArray);
    const kids = tree.lookupMaybe(KIDS, PDFArray);
    if (nums || !kids) {
      this.nums = nums ?? ctx.obj([]);
      if (!nums) tree.set(NUMS, this.nums);
    } else {
      // A large tree split into kids: ours is one more leaf, its limits kept as keys are added.
      this.limits = ctx.obj([this.nextKey, this.nextKey]);
      this.nums = ctx.obj([]);
      kids.push(ctx.register(ctx.obj({ Limits: this.limits, Nums: this.nums })));
    }
  }

  /** The document's structure, read from its catalogue or started: /MarkInfo, /StructTreeRoot, /Lang if missing. */
  static of(doc: PDFDocument, lang?: string): PdfStructure {
    const known = trees.get(doc);
    if (known) return known;
    const ctx = doc.context;
    const catalog = doc.catalog;
    if (lang && !catalog.has(N('Lang'))) doc.setLanguage(lang);
    catalog.set(N('MarkInfo'), ctx.obj({ Marked: true }));
    let root = catalog.lookupMaybe(STRUCT_TREE_ROOT, PDFDict);
    if (!root) {
      root = ctx.obj({ Type: 'StructTreeRoot', K: [] });
      catalog.set(STRUCT_TREE_ROOT, ctx.register(root));
    }
    let rootRef = catalog.get(STRUCT_TREE_ROOT);
    if (!(rootRef instanceof PDFRef)) {
      rootRef = ctx.register(root);
      catalog.set(STRUCT_TREE_ROOT, rootRef);
    }
    let document: StructElem | null = null;
    const top = kidsOf(root);
    const only = top.length === 1 ? ctx.lookup(top[0]) : undefined;
    if (top[0] instanceof PDFRef && only instanceof PDFDict && nameOf(only.get(S)) === 'Document') {
      document = { dict: only, ref: top[0] };
    }
    if (!document) {
      const dict = ctx.obj({ Type: 'StructElem', S: 'Document', P: rootRef, K: [] });
      document = { dict, ref: ctx.register(dict) };
      appendKid(root, document.ref);
    }
    const s = new PdfStructure(doc, root, document);
    trees.set(doc, s);
    return s;
  }

  /** The catalogue's language (what an element need not repeat). */
  get lang(): string | undefined {
    const l = this.doc.catalog.get(N('Lang'));
    return l instanceof PDFString || l instanceof PDFHexString ? l.decodeText() : undefined;
  }

  element(
    type: StructType,
    parent: StructElem,
    opts: { alt?: string; lang?: string; attributes?: Record<string, unknown> } = {},
  ): StructElem {
    const ctx = this.doc.context;
    const dict = ctx.obj({ Type: 'StructElem', S: type, P: parent.ref, K: [] });
    if (opts.alt !== undefined) dict.set(N('Alt'), PDFHexString.fromText(opts.alt));
    if (opts.lang && opts.lang !== this.lang) dict.set(N('Lang'), PDFString.of(opts.lang));
    if (opts.attributes) dict.set(N('A'), ctx.obj(opts.attributes as never));
    const ref = ctx.register(dict);
    appendKid(parent.dict, ref);
    return { dict, ref };
  }

  /** Draws inside a marked-content sequence that belongs to `elem` (its next MCID on this page). */
  mark(page: PDFPage, elem: StructElem, draw: () => void) {
    const marks = this.marksOf(page);
    const mcid = marks.next++;
    page.pushOperators(
      PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [elem.dict.lookup(S, PDFName), `<</MCID ${mcid}>>`]),
    );
    draw();
    page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
    this.own(page, marks, mcid, elem);
  }

  /** Draws decoration a reader skips: rules and boxes (Layout), page numbers and running footers (Pagination). */
  artifact(page: PDFPage, draw: () => void, type: 'Layout' | 'Pagination' = 'Layout') {
    page.pushOperators(
      PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [N('Artifact'), `<</Type /${type}>>`]),
    );
    draw();
    page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
  }

  /**
   * Pages copied in from another PDF (a signed document in the evidence pack, an ID uploaded as a PDF) keep the
   * structure they had: their elements are rebuilt under `parent`, pointing at the copies, and the copies get parent
   * tree entries for the marked content they already carry. A page from an untagged file stays untagged (nothing to
   * bring), and never keeps a /StructParents that would point into our parent tree by accident.
   */
  adopt(src: PDFDocument, pairs: { from: PDFPage; to: PDFPage }[], parent: StructElem) {
    const byRef = new Map(pairs.map((p) => [p.from.ref.toString(), p.to]));
    untag(pairs.map((p) => p.to));
    const srcRoot = src.catalog.lookupMaybe(STRUCT_TREE_ROOT, PDFDict);
    if (!srcRoot) return;
    const copier = PDFObjectCopier.for(src.context, this.doc.context);
    const srcRoles = srcRoot.lookupMaybe(N('RoleMap'), PDFDict);
    if (srcRoles) {
      let roles = this.root.lookupMaybe(N('RoleMap'), PDFDict);
      if (!roles) {
        roles = this.doc.context.obj({});
        this.root.set(N('RoleMap'), roles);
      }
      for (const [k, v] of srcRoles.entries()) if (!roles.has(k)) roles.set(k, copier.copy(v));
    }
    const seen = new Set<PDFObject>();
    const walk = (srcElem: PDFDict, into: StructElem, inheritedPg: PDFObject | undefined) => {
      if (seen.has(srcElem)) return;
      seen.add(srcElem);
      const pg = srcElem.get(PG) ?? inheritedPg;
      const type = srcElem.get(S);
      const isRoot = !(type instanceof PDFName);
      const here: StructElem = isRoot ? into : this.copyElement(srcElem, into, copier);
      for (const kid of kidsOf(srcElem)) {
        const k = src.context.lookup(kid);
        if (k instanceof PDFNumber) this.linkExisting(byRef, pg, k.asNumber(), here);
        else if (k instanceof PDFDict) {
          const kt = nameOf(k.get(TYPE));
          if (kt === 'MCR') {
            const mcid = k.lookupMaybe(MCID, PDFNumber)?.asNumber();
            if (mcid !== undefined && !k.has(N('Stm'))) this.linkExisting(byRef, k.get(PG) ?? pg, mcid, here);
          } else if (kt !== 'OBJR') walk(k, here, pg);
        }
      }
    };
    walk(srcRoot, parent, undefined);
  }

  private copyElement(srcElem: PDFDict, parent: StructElem, copier: PDFObjectCopier): StructElem {
    const ctx = this.doc.context;
    const dict = ctx.obj({ Type: 'StructElem', P: parent.ref, K: [] });
    // A whole document inside ours is a part of it.
    if (nameOf(srcElem.get(S)) === 'Document') dict.set(S, N('Part'));
    for (const key of ['S', 'Alt', 'ActualText', 'E', 'Lang', 'T', 'A', 'C', 'ID']) {
      const v = srcElem.get(N(key));
      if (v && !dict.has(N(key))) dict.set(N(key), copier.copy(v));
    }
    const ref = ctx.register(dict);
    appendKid(parent.dict, ref);
    return { dict, ref };
  }

  private linkExisting(byRef: Map<string, PDFPage>, pg: PDFObject | undefined, mcid: number, elem: StructElem) {
    const page = pg instanceof PDFRef ? byRef.get(pg.toString()) : undefined;
    // A page's marked-content ids count up from 0; a wild one (a hostile file) is not worth a huge parent-tree array.
    if (!page || !Number.isInteger(mcid) || mcid < 0 || mcid > MAX_MCID) return;
    const marks = this.marksOf(page);
    marks.next = Math.max(marks.next, mcid + 1);
    this.own(page, marks, mcid, elem);
  }

  private own(page: PDFPage, marks: PageMarks, mcid: number, elem: StructElem) {
    while (marks.owners.size() <= mcid) marks.owners.push(PDFNull);
    marks.owners.set(mcid, elem.ref);
    appendKid(elem.dict, this.doc.context.obj({ Type: 'MCR', Pg: page.ref, MCID: mcid }));
  }

  private marksOf(page: PDFPage): PageMarks {
    const id = page.ref.toString();
    let marks = this.pages.get(id);
    if (marks) return marks;
    if (page.node.has(STRUCT_PARENTS)) {
      throw new Error('PdfStructure: this page is tagged by its own file; add content on a new page');
    }
    const ctx = this.doc.context;
    const key = this.nextKey++;
    marks = { owners: ctx.obj([]), next: 0 };
    page.node.set(STRUCT_PARENTS, PDFNumber.of(key));
    this.nums.push(PDFNumber.of(key));
    this.nums.push(ctx.register(marks.owners));
    this.limits?.set(1, PDFNumber.of(key));
    this.root.set(NEXT_KEY, PDFNumber.of(this.nextKey));
    this.pages.set(id, marks);
    return marks;
  }
}

/**
 * Appends all of `src`'s pages to `out` with the structure they carry (see `adopt`). `out` becomes tagged only if it
 * was, or if `src` is: an untagged file's pages are copied as they are.
 */
export async function appendPages(out: PDFDocument, src: PDFDocument): Promise<PDFPage[]> {
  const from = src.getPages();
  const copies = await out.copyPages(src, src.getPageIndices());
  for (const p of copies) out.addPage(p);
  if (trees.has(out) || src.catalog.has(STRUCT_TREE_ROOT)) {
    const s = PdfStructure.of(out);
    s.adopt(
      src,
      copies.map((to, i) => ({ from: from[i]!, to })),
      s.document,
    );
  } else untag(copies);
  return copies;
}

/** Drops the keys that tied copied pages to their old file's parent tree. */
function untag(pages: PDFPage[]) {
  for (const page of pages) {
    page.node.delete(STRUCT_PARENTS);
    for (const a of page.node.Annots()?.asArray() ?? []) {
      const annot = page.doc.context.lookup(a);
      if (annot instanceof PDFDict) annot.delete(N('StructParent'));
    }
  }
}

function nameOf(o: PDFObject | undefined): string | undefined {
  return o instanceof PDFName ? o.decodeText() : undefined;
}

/** An element's (or the root's) kids as a list, whether /K holds one kid or an array. */
function kidsOf(d: PDFDict): PDFObject[] {
  const k = d.get(K);
  if (!k) return [];
  const v = k instanceof PDFRef ? d.context.lookup(k) : k;
  return v instanceof PDFArray ? v.asArray() : [k];
}

function appendKid(d: PDFDict, kid: PDFObject) {
  const k = d.get(K);
  const v = k instanceof PDFRef ? d.context.lookup(k) : k;
  if (v instanceof PDFArray) v.push(kid);
  else d.set(K, d.context.obj(k ? [k, kid] : [kid]));
}

/** The largest key in a number tree (a foreign file's parent tree may be split into kids). */
function maxKey(tree: PDFDict, seen = new Set<PDFDict>()): number {
  if (seen.has(tree)) return -1;
  seen.add(tree);
  let max = -1;
  const nums = tree.lookupMaybe(NUMS, PDFArray);
  for (let i = 0; nums && i < nums.size(); i += 2) {
    const n = nums.lookup(i);
    if (n instanceof PDFNumber) max = Math.max(max, n.asNumber());
  }
  const kids = tree.lookupMaybe(KIDS, PDFArray);
  for (let i = 0; kids && i < kids.size(); i++) {
    const kid = kids.lookup(i);
    if (kid instanceof PDFDict) max = Math.max(max, maxKey(kid, seen));
  }
  return max;
}

function maxStructParents(doc: PDFDocument): number {
  let max = -1;
  for (const page of doc.getPages()) {
    const n = page.node.get(STRUCT_PARENTS);
    if (n instanceof PDFNumber) max = Math.max(max, n.asNumber());
    for (const a of page.node.Annots()?.asArray() ?? []) {
      const m = doc.context.lookupMaybe(a, PDFDict)?.get(N('StructParent'));
      if (m instanceof PDFNumber) max = Math.max(max, m.asNumber());
    }
  }
  return max;
}
