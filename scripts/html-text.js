// @ts-check
// The job summary and the status comment as a terminal shows them: the HTML the action writes
// (headings, paragraphs, a table, links, a <details> block with the prompt) and the markdown
// around it, turned into plain text. Only the Node standard library, so `npm run demo` works on a
// fresh clone. It reads the action's own markup; it is not a general HTML parser.

/** @type {Record<string, string>} */
const NAMED_ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/**
 * Decodes the entities the action writes (`&amp;`, `&#58;`, `&#x3a;`…). The zero-width spaces
 * it puts after `@` and `#` to keep GitHub from reading a mention or a reference are dropped:
 * they mean nothing in a terminal, and they would ride along when the text is copied.
 *
 * @param {string} text
 * @returns {string}
 */
export function decodeEntities(text) {
  return text
    .replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z]+));/gi, (whole, dec, hex, name) => {
      if (name !== undefined) return NAMED_ENTITIES[name.toLowerCase()] ?? whole
      const code = dec !== undefined ? Number(dec) : parseInt(hex, 16)
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole
    })
    .replaceAll('\u200b', '')
}

/**
 * A run of inline markup as text: links as `text (url)` (or the URL alone when it is the text),
 * `<br>` as a line break, every other tag dropped, entities decoded once.
 *
 * @param {string} html
 * @returns {string}
 */
export function inlineText(html) {
  let out = ''
  /** @type {{ href: string, start: number } | undefined} */
  let link
  for (const [token] of html.matchAll(/<[^>]*>|[^<]+|</g)) {
    if (token === '<' || !token.startsWith('<')) {
      out += decodeEntities(token)
      continue
    }
    const href = /^<a\s[^>]*?\bhref="([^"]*)"/i.exec(token)?.[1]
    if (href !== undefined) {
      link = { href: decodeEntities(href), start: out.length }
    } else if (/^<\/a\s*>$/i.test(token) && link) {
      const text = out.slice(link.start).trim()
      const shown = text === '' || text === link.href ? link.href : `${text} (${link.href})`
      out = out.slice(0, link.start) + shown
      link = undefined
    } else if (/^<br\s*\/?>$/i.test(token)) {
      out += '\n'
    }
  }
  return out.replace(/[ \t]+/g, ' ').trim()
}

/**
 * @param {string} text
 * @param {number} level 1 to 6
 * @returns {string} the text underlined, `=` for the top two levels and `-` below
 */
function heading(text, level) {
  return `${text}\n${(level <= 2 ? '=' : '-').repeat(Math.max(3, [...text].length))}`
}

/**
 * A table's rows as aligned lines: every column but the last padded to its widest cell.
 *
 * @param {string} html the inside of a `<table>`
 * @returns {string}
 */
function tableText(html) {
  const rows = [...html.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/gi)].map(([, row = '']) =>
    [...row.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/gi)].map(([, cell = '']) =>
      inlineText(cell).replace(/\n/g, ' ')
    )
  )
  /** @type {number[]} */
  const widths = []
  for (const row of rows) {
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, [...cell].length)
    })
  }
  return rows
    .map((row) =>
      row
        .map((cell, index) =>
          index === row.length - 1
            ? cell
            : cell + ' '.repeat((widths[index] ?? 0) - [...cell].length)
        )
        .join('  ')
        .trimEnd()
    )
    .join('\n')
}

/**
 * Preformatted text with a margin, cut to `maxLines`.
 *
 * @param {string} html the inside of a `<pre>`
 * @param {number} maxLines
 * @returns {string}
 */
function preText(html, maxLines) {
  const lines = decodeEntities(html.replace(/<[^>]*>/g, '')).split('\n')
  const shown = lines.slice(0, maxLines).map((line) => `│ ${line}`.trimEnd())
  if (lines.length > maxLines) shown.push(`│ … ${lines.length - maxLines} more lines`)
  return shown.join('\n')
}

/** The block elements the action writes, each matched whole; whatever lies between is text. */
const BLOCK =
  /<!--[\s\S]*?-->|<table[^>]*>([\s\S]*?)<\/table>|<details[^>]*>\s*(?:<summary>([\s\S]*?)<\/summary>)?([\s\S]*?)<\/details>|<pre[^>]*>([\s\S]*?)<\/pre>|<h([1-6])[^>]*>([\s\S]*?)<\/h\5>|<p[^>]*>([\s\S]*?)<\/p>|<[uo]l[^>]*>([\s\S]*?)<\/[uo]l>|<hr\s*\/?>/gi

/**
 * Markdown text between blocks: a `#` heading, or paragraphs split at blank lines.
 *
 * @param {string} text
 * @returns {string[]}
 */
function looseText(text) {
  /** @type {string[]} */
  const blocks = []
  for (const paragraph of text.split(/\n[ \t]*\n/)) {
    /** @type {string[]} */
    let lines = []
    const flush = () => {
      const joined = lines.join('\n').trim()
      if (joined !== '') blocks.push(joined)
      lines = []
    }
    for (const line of paragraph.split('\n')) {
      const title = /^(#{1,6})\s+(.*)$/.exec(line.trim())
      if (title) {
        flush()
        blocks.push(heading(inlineText(title[2] ?? ''), title[1]?.length ?? 1))
      } else {
        lines.push(inlineText(line))
      }
    }
    flush()
  }
  return blocks
}

/**
 * The action's HTML (and the markdown around it) as readable text: headings underlined, a table
 * as aligned `Name  value` lines, links as `text (url)`, entities decoded, HTML comments left out,
 * blocks apart by a blank line.
 *
 * @param {string} html
 * @param {{ maxPreLines?: number }} [options] how many lines of a `<pre>` block to show
 * @returns {string}
 */
export function htmlToText(html, options = {}) {
  const maxPreLines = options.maxPreLines ?? Number.POSITIVE_INFINITY
  /** @type {string[]} */
  const blocks = []
  let at = 0
  for (const match of html.matchAll(BLOCK)) {
    blocks.push(...looseText(html.slice(at, match.index)))
    at = match.index + match[0].length
    const [whole, table, summary, details, pre, level, title, paragraph, list] = match
    if (table !== undefined) {
      blocks.push(tableText(table))
    } else if (details !== undefined) {
      const inner = /<pre[^>]*>([\s\S]*?)<\/pre>/i.exec(details)?.[1]
      const body = inner === undefined ? inlineText(details) : preText(inner, maxPreLines)
      blocks.push(summary === undefined ? body : `${inlineText(summary)}:\n${body}`)
    } else if (pre !== undefined) {
      blocks.push(preText(pre, maxPreLines))
    } else if (title !== undefined) {
      blocks.push(heading(inlineText(title), Number(level)))
    } else if (paragraph !== undefined) {
      const text = inlineText(paragraph)
      if (text !== '') blocks.push(text)
    } else if (list !== undefined) {
      const items = [...list.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/gi)]
      blocks.push(items.map(([, item = '']) => `- ${inlineText(item)}`).join('\n'))
    } else if (/^<hr/i.test(whole)) {
      blocks.push('───')
    }
  }
  blocks.push(...looseText(html.slice(at)))
  return blocks.join('\n\n')
}
