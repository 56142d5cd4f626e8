import type { Frame, Page } from 'playwright-core';
import { eventually } from './wait.js';

/**
 * Where keyboard focus is, as a keyboard user sees it (issue 29, items 5 and 6): the focused element of the innermost
 * focused frame (the 3-D Secure challenge is another site's page in a frame), its name, and its focus outline.
 */
export interface Focused {
  /** The URL of the frame whose element has focus (the page's own URL when no frame has it). */
  frameUrl: string;
  /** True when the page itself does not hold focus (it went to the browser's own controls). */
  outsidePage: boolean;
  /** document.activeElement is <body> (or nothing): focus was dropped. */
  body: boolean;
  tag: string;
  role: string;
  text: string;
  outline: string;
  /** A solid or auto outline at least 2 px wide. */
  visible: boolean;
}

async function describe(frame: Frame): Promise<Omit<Focused, 'frameUrl' | 'outsidePage'>> {
  return frame.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) {
      return { body: true, tag: el?.tagName.toLowerCase() ?? '', role: '', text: '', outline: '', visible: false };
    }
    const cs = getComputedStyle(el);
    const width = parseFloat(cs.outlineWidth) || 0;
    return {
      body: false,
      tag: el.tagName.toLowerCase(),
      role: el.getAttribute('role') ?? '',
      text: (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 120),
      outline: `${cs.outlineStyle} ${cs.outlineWidth} ${cs.outlineColor}`,
      visible: (cs.outlineStyle === 'solid' || cs.outlineStyle === 'auto') && width >= 2,
    };
  });
}

/** The focused element, looking into the focused frame (if any) the way the browser does. */
export async function focused(page: Page): Promise<Focused> {
  let frame = page.mainFrame();
  const outsidePage = !(await frame.evaluate(() => document.hasFocus()));
  for (;;) {
    const isFrame = await frame.evaluate(() => document.activeElement?.tagName === 'IFRAME');
    if (!isFrame) break;
    let next: Frame | undefined;
    for (const child of frame.childFrames()) {
      if (await child.evaluate(() => document.hasFocus()).catch(() => false)) next = child;
    }
    if (!next) break;
    frame = next;
  }
  return { frameUrl: frame.url(), outsidePage, ...(await describe(frame)) };
}

const show = (f: Focused) =>
  f.body ? `<body> in ${f.frameUrl}` : `<${f.tag}${f.role ? ` role=${f.role}` : ''}> "${f.text}" (${f.outline})`;

/**
 * Waits until focus is on an element (never <body>) with a visible outline that `match` accepts; fails with where
 * focus was. Every step of the keyboard journeys calls this.
 */
export async function expectVisibleFocus(
  page: Page,
  what: string,
  match: (f: Focused) => boolean = () => true,
): Promise<Focused> {
  let last: Focused | undefined;
  try {
    return await eventually(
      async () => {
        last = await focused(page);
        return !last.outsidePage && !last.body && last.visible && match(last) ? last : undefined;
      },
      { message: what },
    );
  } catch (e) {
    throw new Error(`${what}: focus is on ${last ? show(last) : 'nothing'}`, { cause: e });
  }
}
