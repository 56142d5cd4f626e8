import { describe, expect, it } from 'vitest';
import { escapeHtml, escapeXml, joinHtml, markup, raw } from './escape.js';

describe('markup (the one HTML template)', () => {
  it('escapes every interpolated value by default, in text and attributes', () => {
    const name = `<img src=x onerror="alert('1')"> & co`;
    expect(markup`<p title="${name}">${name}</p>`.toString()).toBe(
      '<p title="&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt; &amp; co">' +
        '&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt; &amp; co</p>',
    );
  });

  it('keeps nested markup and raw() fragments as they are, and nothing else', () => {
    const inner = markup`<strong>${'a<b'}</strong>`;
    expect(markup`<p>${inner} ${raw('<br>')} ${'<br>'}</p>`.toString()).toBe(
      '<p><strong>a&lt;b</strong> <br> &lt;br&gt;</p>',
    );
  });

  it('renders lists, numbers, and nothing for null, undefined and false', () => {
    expect(markup`${['<a>', markup`<b>`]}|${3}|${null}|${undefined}|${false}`.toString()).toBe('&lt;a&gt;<b>|3|||');
    expect(joinHtml(['x&y', markup`<i>z</i>`], raw('<br>')).toString()).toBe('x&amp;y<br><i>z</i>');
    expect(joinHtml(['a', 'b'], ' · ').toString()).toBe('a · b');
  });

  it('has one HTML and one XML escaper', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
    expect(escapeXml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&apos;');
  });
});
