/**
 * Keyboard focus for what appears on its own (issue 29, item 5; decision 0220): a status that has to be read, and the
 * 3-D Secure challenge, a lightbox that the gateway's SDK adds to the page.
 */

/** Moves focus to `el` on the next frame (after React has drawn it); null is left alone. */
export function focusSoon(el: HTMLElement | null | undefined): void {
  requestAnimationFrame(() => el?.focus());
}

/** A frame someone can see (the SDK's hidden device-fingerprint frame is not a challenge). */
const shown = (frame: HTMLIFrameElement) => frame.offsetWidth > 1 && frame.offsetHeight > 1;

/** The child of <body> that holds `node`. */
function topOf(node: Element): HTMLElement | null {
  let top: Element = node;
  while (top.parentElement && top.parentElement !== document.body) top = top.parentElement;
  return top.parentElement === document.body && top instanceof HTMLElement ? top : null;
}

/**
 * Keeps keyboard focus in the challenge while `flow` runs (the SDK's `web3dsFlow`). The SDK, Elavon's or the
 * sandbox's, adds its lightbox (a visible frame) to <body> by itself, so this does not depend on what the SDK does:
 * - every other child of <body> (the app) is made `inert` while the lightbox is there: Tab and a screen reader's
 *   virtual cursor cannot reach the dimmed page;
 * - focus goes to the frame at once and again each time a page has loaded in it (the issuer's page cannot take focus
 *   from inside another site's frame by itself); Tab out of the frame comes back to it;
 * - when the flow ends, the page's children are live again and focus goes back to the element that had it before
 *   (the payment page's status), or to `fallback` when that is gone.
 */
export async function withContainedChallenge<T>(
  flow: () => Promise<T>,
  fallback: () => HTMLElement | null = () => null,
): Promise<T> {
  const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const inerted: HTMLElement[] = [];
  const edges: HTMLElement[] = [];
  let lightbox: HTMLElement | null = null;
  const focusFrame = (frame: HTMLIFrameElement) => {
    frame.focus();
    frame.contentWindow?.focus();
  };
  const open = (frame: HTMLIFrameElement) => {
    const top = topOf(frame);
    if (!top || lightbox || !shown(frame)) return;
    lightbox = top;
    for (const child of Array.from(document.body.children)) {
      if (child !== top && child instanceof HTMLElement && !child.inert) {
        child.inert = true;
        inerted.push(child);
      }
    }
    // Tab past the frame's last control (or Shift+Tab before its first) lands on an edge of the lightbox that sends
    // focus back into the frame, instead of leaving it on <body>.
    for (const where of ['beforebegin', 'afterend'] as const) {
      const edge = document.createElement('span');
      edge.tabIndex = 0;
      edge.className = 'visually-hidden';
      edge.addEventListener('focus', () => focusFrame(frame));
      top.insertAdjacentElement(where, edge);
      edges.push(edge);
    }
    focusFrame(frame);
    frame.addEventListener('load', () => focusFrame(frame));
  };
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      for (const n of Array.from(r.addedNodes)) {
        if (!(n instanceof Element)) continue;
        const frame = n instanceof HTMLIFrameElement ? n : n.querySelector('iframe');
        if (frame) open(frame);
      }
    }
  });
  observer.observe(document.body, { childList: true, subtree: true });
  try {
    return await flow();
  } finally {
    observer.disconnect();
    for (const el of inerted) el.inert = false;
    for (const el of edges) el.remove();
    if (lightbox) {
      const back = before && before.isConnected && before !== document.body ? before : fallback();
      back?.focus();
    }
  }
}
