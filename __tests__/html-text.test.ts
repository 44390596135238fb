import { describe, expect, it } from '@jest/globals'
import { decodeEntities, htmlToText, inlineText } from '../scripts/html-text.js'

describe('htmlToText (the demo’s view of the job summary and the status comment)', () => {
  it('prints a heading, a paragraph and a table as aligned lines', () => {
    const html =
      '<h2>Mintlify agent</h2>\n<p>✅ <strong>Done</strong></p>\n' +
      '<table><tr><th>Job ID</th><td><code>job_1</code></td></tr>' +
      '<tr><th>Source repository</th><td>—</td></tr></table>\n'
    expect(htmlToText(html)).toBe(
      'Mintlify agent\n==============\n\n✅ Done\n\nJob ID             job_1\nSource repository  —'
    )
  })

  it('prints a link as text (url), and a link whose text is its address once', () => {
    expect(inlineText('<a href="https://github.com/acme/docs/pull/7">acme/docs#7</a>')).toBe(
      'acme/docs#7 (https://github.com/acme/docs/pull/7)'
    )
    expect(
      inlineText('<a href="https://github.com/acme/docs">https&#58;//github.com/acme/docs</a>')
    ).toBe('https://github.com/acme/docs')
    expect(inlineText('<a href="https://x.example/?a=1&amp;b=2">here</a>')).toBe(
      'here (https://x.example/?a=1&b=2)'
    )
  })

  it('decodes each entity once, and escaped markup stays text', () => {
    expect(inlineText('&lt;b&gt;bold&lt;/b&gt; &amp;lt; &#64;&#8203;octocat &#x23;1')).toBe(
      '<b>bold</b> &lt; @octocat #1'
    )
    expect(inlineText('<a href="https://a.example/">&lt;img src=x&gt;</a>')).toBe(
      '<img src=x> (https://a.example/)'
    )
    expect(decodeEntities('&unknown; &#1114112;')).toBe('&unknown; &#1114112;')
  })

  it('shows the prompt block with a margin, cut to a number of lines', () => {
    const html =
      '<details open><summary>The prompt</summary>\n<pre>one\n&#32;\n&lt;three&gt;\nfour</pre>\n' +
      '</details>\n<p>after</p>'
    expect(htmlToText(html, { maxPreLines: 3 })).toBe(
      'The prompt:\n│ one\n│\n│ <three>\n│ … 1 more lines\n\nafter'
    )
  })

  it('reads the status comment: a markdown heading, the table and notes, without the marker', () => {
    const body =
      '<!-- mintlify-agent-action project=p job=j -->\n### ✅ Ready\n\n' +
      '<table><tr><th>Agent job</th><td><code>j</code></td></tr></table>\n\n' +
      'A note &#64;&#8203;team.\n\n<sub>Written by the action.</sub>'
    expect(htmlToText(body)).toBe(
      '✅ Ready\n-------\n\nAgent job  j\n\nA note @team.\n\nWritten by the action.'
    )
  })
})
