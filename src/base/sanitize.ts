/** Untrusted text, redacted first (so no cut leaves half a key), then one line, cut and defused. */
import { redact } from './secrets/redact.js'

/** Longest piece of untrusted text quoted in one message. */
export const MAX_QUOTED_LENGTH = 300

const ZERO_WIDTH_SPACE = '\u200b'

// Controls, line separators, and invisible characters that make text read as what it is not.
const CONTROL =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/

/** The invisible formatting characters within `CONTROL`. */
export const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g

const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text)
}

/** Breaks workflow commands (`::` opening a line, `##[` anywhere) without changing how it reads. */
function defuseLine(line: string): string {
  const broken = line.replaceAll('##[', `##${ZERO_WIDTH_SPACE}[`)
  return broken.replace(/^(\s*):(?=:)/, `$1:${ZERO_WIDTH_SPACE}`)
}

function escapeControls(text: string): string {
  return text.replace(new RegExp(CONTROL, 'g'), (c) => {
    const named = NAMED_ESCAPES[c]
    if (named !== undefined) return named
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
  })
}

/** Cuts `text` to `max` characters, saying how many were left out. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : cutBefore(text, max)
}

/** Never splits a surrogate pair: half a character prints as garbage. */
function cutBefore(text: string, end: number): string {
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end -= 1
  return `${text.slice(0, end)}… (${text.length - end} more characters)`
}

/** Enough of an input's value to recognise it, no more. */
export const MAX_QUOTED_VALUE = 60

/** Cuts at a word end in the last third if any, never inside an escape `escapeControls` wrote. */
function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text
  let end = max
  const space = text.lastIndexOf(' ', max)
  if (space >= Math.ceil((2 * max) / 3)) end = space
  const escape = text.lastIndexOf('\\', end - 1)
  const written = /^\\(?:u[0-9a-f]{4}|[nrt])/.exec(text.slice(escape, escape + 6))?.[0]
  if (escape >= 0 && written && escape + written.length > end) end = escape
  return cutBefore(text, end)
}

/** An input's value as an error about it may quote it; the caller adds the quotes. */
export function quoteValue(text: string, max = MAX_QUOTED_VALUE): string {
  return defuseLine(cutAtWord(escapeControls(redact(text)), max))
}

/** Untrusted text made safe to quote inside a log line. */
export function forLog(text: string, max = MAX_QUOTED_LENGTH): string {
  return defuseLine(cut(escapeControls(redact(text)), max))
}

/** The last defence for all the action prints; its own messages never start with `::`. */
export function defuseCommands(text: string): string {
  return redact(text)
    .split(/\r\n|\r|\n/)
    .map(defuseLine)
    .join('\n')
}

const MARKUP_ESCAPES: Record<string, string> = {
  // A zero-width space after these keeps GitHub from reading a mention or issue reference.
  '@': '&#64;&#8203;',
  '#': '&#35;&#8203;',
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;'
}

/** Inert in markdown with HTML: one line (a blank one ends an HTML block), marks as entities. */
export function escapeMarkup(text: string, max = MAX_QUOTED_LENGTH): string {
  return cut(escapeControls(redact(text)), max).replace(
    /[&<>"'[\]()!*`|#@\\:]/g,
    (c) => MARKUP_ESCAPES[c] ?? `&#${c.charCodeAt(0)};`
  )
}

const PREFORMATTED_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '!': '&#33;',
  '[': '&#91;',
  ']': '&#93;'
}

/** Text for a `<pre>` in markdown: no line blank, where GitHub would end the HTML block. */
export function escapePreformatted(text: string, max: number): string {
  return cut(redact(text), max)
    .replace(/\r\n?/g, '\n')
    .replace(/[&<>"'![\]]/g, (c) => PREFORMATTED_ESCAPES[c] ?? c)
    .split('\n')
    .map((line) => (/^[ \t]*$/.test(line) ? `&#32;${line.slice(1)}` : line))
    .join('\n')
}

/** A link the action can hand on, and its pull request number, if any. */
export interface SafeLink {
  readonly href: string
  readonly number?: string
}

/** Nothing a shell, HTML or YAML would trip on. */
const PLAIN_URL =
  /^https?:\/\/[A-Za-z0-9.-]+(?::\d+)?(?:\/[A-Za-z0-9\-._~/%+,=]*)?(?:\?[A-Za-z0-9\-._~/%+,=]*)?(?:#[A-Za-z0-9\-._~/%+,=]*)?$/

/** The normalised URL when `text` is a plain absolute http(s) link without credentials. */
export function safeLink(text: string | null | undefined): SafeLink | undefined {
  if (!text || text.length > 2_000 || !/^https?:\/\//i.test(text)) return undefined
  if (/\s/.test(text) || hasControlCharacters(text)) return undefined
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return undefined
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
  if (url.username || url.password || !url.hostname) return undefined
  const href = url.href
  if (!PLAIN_URL.test(href)) return undefined
  const number = /^\/[^/]+\/[^/]+\/pull\/(\d{1,9})\/?(?:\/[^?#]*)?$/.exec(url.pathname)?.[1]
  return number ? { href, number } : { href }
}

/** A refused link for a message: credentials go before anything else, so no warning shows them. */
export function describeLink(text: string): string {
  return forLog(text.replace(/^([a-z][a-z0-9+.-]*:\/*)[^/?#]*@/i, '$1***@'), 200)
}
