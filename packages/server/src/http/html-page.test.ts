import { describe, expect, it } from 'vitest';
import { escapeHtml, renderHtmlPage } from './html-page.js';

describe('html page shell', () => {
  it('escapeHtml covers the five special characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('escapes the title and the home link, and carries no script', () => {
    const html = renderHtmlPage({
      title: '<b>',
      styles: 'p{}',
      homeHref: 'https://x.example/"',
      footerNote: 'note',
      body: '<h1>Hi</h1>',
    });
    expect(html).toContain('<title>&lt;b&gt; · Coffer</title>');
    expect(html).toContain('<style>p{}</style>');
    expect(html.match(/href="https:\/\/x\.example\/&quot;"/g)).toHaveLength(2);
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).not.toContain('<script');
  });
});
