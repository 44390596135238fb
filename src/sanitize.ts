/**
 * Text from the network and from inputs is untrusted. Everything the action prints, outputs or
 * renders passes through here, always in the same order: secrets are redacted first
 * (`secrets/redact.ts`, so that no cut can leave part of a key behind), then the text is put on
 * one line, cut, and defused of workflow commands (a log line starting with `::`, or `##[`
 * anywhere) and of markup.
 */
import { redact } from './secrets/redact.js'

/** Longest piece of untrusted text quoted in one message. */
export const MAX_QUOTED_LENGTH = 300

const ZERO_WIDTH_SPACE = '\u200b'

// C0/C1 control characters, the Unicode line and paragraph separators, and the invisible
// characters that can make text read differently from what it is: zero-width characters and
// bidirectional controls.
const CONTROL =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/

/** The invisible formatting characters within `CONTROL`: zero-width, joiners, bidi controls. */
export const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g

const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/** Whether `text` holds a control or invisible formatting character. */
export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text)
}

/** Breaks the workflow-command markers in one line without changing how it reads. */
function defuseLine(line: string): string {
  const broken = line.replaceAll('##[', `##${ZERO_WIDTH_SPACE}[`)
  return broken.replace(/^(\s*):(?=:)/, `$1:${ZERO_WIDTH_SPACE}`)
}

/** Shows control and invisible characters as escapes, so the text is one honest line. */
function escapeControls(text: string): string {
  return text.replace(new RegExp(CONTROL, 'g'), (c) => {
    const named = NAMED_ESCAPES[c]
    if (named !== undefined) return named
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
  })
}

/** Cuts `text` to `max` characters, saying how many were left out. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text
  // Never split a surrogate pair: half a character prints as garbage.
  let end = max
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end -= 1
  return `${text.slice(0, end)}… (${text.length - end} more characters)`
}

/** Longest input value quoted in a message about it: enough to recognise it, no more. */
export const MAX_QUOTED_VALUE = 60

/**
 * Cuts `text` to about `max` characters for quoting: at the end of a word when one ends in the
 * last third, and never inside an escape that `escapeControls` wrote (`\u202e`).
 */
function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text
  let end = max
  const space = text.lastIndexOf(' ', max)
  if (space >= Math.ceil((2 * max) / 3)) end = space
  const escape = text.lastIndexOf('\\', end - 1)
  const written = /^\\(?:u[0-9a-f]{4}|[nrt])/.exec(text.slice(escape, escape + 6))?.[0]
  if (escape >= 0 && written && escape + written.length > end) end = escape
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end -= 1
  return `${text.slice(0, end)}… (${text.length - end} more characters)`
}

/**
 * An input's value as an error about it may quote it: secrets redacted, control and invisible
 * characters (bidirectional controls among them) shown as escapes, cut to `max` characters at a
 * word end when one is near, and no workflow-command marker. The caller adds the quotes.
 */
export function quoteValue(text: string, max = MAX_QUOTED_VALUE): string {
  return defuseLine(cutAtWord(escapeControls(redact(text)), max))
}

/**
 * Makes untrusted text safe to quote inside a log line: secrets redacted, one line (control
 * characters shown as escapes), at most `max` characters, no workflow-command markers.
 */
export function forLog(text: string, max = MAX_QUOTED_LENGTH): string {
  return defuseLine(cut(escapeControls(redact(text)), max))
}

/**
 * The last line of defence for everything the action prints: secrets redacted, and no line of
 * `text` can start a workflow command. Our own messages never start with `::`, so this only ever
 * changes text that came from elsewhere.
 */
export function defuseCommands(text: string): string {
  return redact(text)
    .split(/\r\n|\r|\n/)
    .map(defuseLine)
    .join('\n')
}

const MARKUP_ESCAPES: Record<string, string> = {
  // A zero-width space after these keeps GitHub from reading a mention or an issue reference in
  // the text it renders from the entities.
  '@': '&#64;&#8203;',
  '#': '&#35;&#8203;',
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;'
}

/**
 * Makes untrusted text inert in markdown that may contain HTML (the job summary, a pull request
 * comment): secrets redacted, one line (a blank line would end an HTML block and let what follows
 * render as markdown), cut to `max`, HTML escaped, and every character that markdown gives a
 * meaning (links, images, emphasis, code, tables, headings, mentions, issue references) written
 * as an entity, so it shows as itself and nothing more.
 */
export function escapeMarkup(text: string, max = MAX_QUOTED_LENGTH): string {
  return cut(escapeControls(redact(text)), max).replace(
    /[&<>"'[\]()!*`|#@\\:]/g,
    (c) => MARKUP_ESCAPES[c] ?? `&#${c.charCodeAt(0)};`
  )
}

/** What a `<pre>` block in markdown escapes: HTML, and the start of an image or link. */
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

/**
 * Text for a `<pre>` block inside an HTML block of markdown (the job summary's
 * `<details>`): secrets redacted, cut to `max`, and HTML escaped so it cannot close the block or
 * add markup. Line breaks are kept, but no line is blank: GitHub's markdown ends an HTML block at
 * the first blank line, and whatever followed would render as markdown (images, links, HTML). A
 * blank line shows as one space instead.
 */
export function escapePreformatted(text: string, max: number): string {
  return cut(redact(text), max)
    .replace(/\r\n?/g, '\n')
    .replace(/[&<>"'![\]]/g, (c) => PREFORMATTED_ESCAPES[c] ?? c)
    .split('\n')
    .map((line) => (/^[ \t]*$/.test(line) ? `&#32;${line.slice(1)}` : line))
    .join('\n')
}

/** A pull request link the action can hand on: its normalised form and its number, if any. */
export interface SafeLink {
  readonly href: string
  readonly number?: string
}

/** What a link handed to later steps may contain: nothing a shell, HTML or YAML would trip on. */
const PLAIN_URL =
  /^https?:\/\/[A-Za-z0-9.-]+(?::\d+)?(?:\/[A-Za-z0-9\-._~/%+,=]*)?(?:\?[A-Za-z0-9\-._~/%+,=]*)?(?:#[A-Za-z0-9\-._~/%+,=]*)?$/

/**
 * Returns the normalised http(s) URL when `text` is a plain absolute link: written with `//`,
 * with a host, without credentials, whitespace, control or invisible characters, and with nothing
 * in it that a shell, HTML or YAML would read as syntax. Otherwise undefined. The pull request
 * number comes only from a `/pull/N` path.
 */
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

/**
 * A link as it may be mentioned in a message when it is refused: without credentials, quoted.
 * Credentials are removed before anything else, so not even a warning about the link shows them.
 */
export function describeLink(text: string): string {
  return forLog(text.replace(/^([a-z][a-z0-9+.-]*:\/*)[^/?#]*@/i, '$1***@'), 200)
}
