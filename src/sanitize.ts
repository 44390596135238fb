/**
 * Text from the network and from inputs is untrusted. Everything the action prints, outputs or
 * renders passes through here, always in the same order: secrets are redacted first (so that no
 * cut can leave part of a key behind), then the text is put on one line, cut, and defused of
 * workflow commands (a log line starting with `::`, or `##[` anywhere) and of markup.
 */

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

/**
 * One way a secret can be written, compiled once when the secret is registered. `widen` marks a
 * base64 form: the base64 character on each side of it mixes bits of the secret with bits of the
 * text around it, so it is removed too.
 */
interface Form {
  readonly regex: RegExp
  readonly widen: boolean
}

/**
 * Values that must never appear in anything the action writes (the API key and the tokens, as
 * `inputs.ts` registers them), each with the forms it is looked for in.
 */
const secrets = new Map<string, readonly Form[]>()

/** Shortest base64 run looked for: 36 bits, which ordinary text does not hit by chance. */
const MIN_BASE64_LENGTH = 6

/** A character of base64 or base64url, the alphabet a base64 form is widened over. */
const BASE64_CHAR = /[A-Za-z0-9+/_-]/

/** JSON's short escapes, besides `\uXXXX`, which JSON allows for any character. */
const JSON_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t'
}

/** HTML's named entities for the characters markup escapes. */
const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;'
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
}

/** Hexadecimal digits matched in either case, as percent-encoding and `\u` escapes allow. */
function anyCaseHex(hex: string): string {
  return hex.replace(/[a-f]/gi, (d) => `[${d.toUpperCase()}${d.toLowerCase()}]`)
}

/**
 * The regex for one character of a secret: the character itself, or any way the text the action
 * meets writes it: percent-encoded (encodeURIComponent and other encoders, either hex case, `+`
 * for a space), JSON-escaped (short escapes, `\/`, `\uXXXX`), and as an HTML entity (with the
 * zero-width space `escapeMarkup` puts after `@` and `#`). Letters and digits are written as
 * themselves by all of them.
 */
function charPattern(char: string): string {
  if (/^[A-Za-z0-9]$/.test(char)) return char
  const forms = new Set<string>()
  const bytes = [...Buffer.from(char, 'utf8')]
  forms.add(bytes.map((b) => `%${anyCaseHex(b.toString(16).padStart(2, '0'))}`).join(''))
  if (char === ' ') forms.add('\\+')
  const json = JSON_ESCAPES[char]
  if (json) forms.add(escapeRegExp(json))
  forms.add(
    Array.from(
      { length: char.length },
      (_, i) => `\\\\u${anyCaseHex(char.charCodeAt(i).toString(16).padStart(4, '0'))}`
    ).join('')
  )
  const point = char.codePointAt(0) ?? 0
  forms.add(`&#0*${point};`)
  forms.add(`&#[xX]0*${anyCaseHex(point.toString(16))};`)
  const named = HTML_ENTITIES[char]
  if (named) forms.add(named)
  // The character itself last: at `\\"` the whole escape goes, never the backslash alone.
  forms.add(escapeRegExp(char))
  const alternatives = `(?:${[...forms].join('|')})`
  return char === '@' || char === '#' ? `${alternatives}(?:&#8203;|\u200b)?` : alternatives
}

/** The regex for one base64 character, in base64 or base64url, percent- or JSON-escaped. */
function base64CharPattern(char: string): string {
  if (char === '+') return '(?:\\+|-|%2[Bb])'
  if (char === '/') return '(?:\\/|_|%2[Ff]|\\\\\\/)'
  return char
}

/**
 * The runs of base64 that encode `bytes` wherever they sit in a longer base64 text. Base64 turns
 * each 3 bytes into 4 characters, so the secret encodes one of three ways, by its offset modulo 3
 * in what was encoded (`Bearer <key>`, `x-access-token:<token>`, `user:<token>` or a whole echoed
 * request). For each offset, the characters whose 6 bits all come from the secret are the same
 * whatever surrounds it: that run is what is looked for, with or without padding.
 */
export function base64Runs(bytes: Uint8Array): string[] {
  const runs: string[] = []
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
    const first = Math.ceil((8 * offset) / 6)
    const end = Math.floor((8 * (offset + bytes.length)) / 6)
    if (end - first >= MIN_BASE64_LENGTH) runs.push(encoded.slice(first, end))
  }
  return runs
}

/** Every form `secret` is looked for in, compiled. */
function compile(secret: string): Form[] {
  const forms: Form[] = [
    { regex: new RegExp([...secret].map(charPattern).join(''), 'g'), widen: false }
  ]
  for (const run of base64Runs(Buffer.from(secret, 'utf8'))) {
    forms.push({ regex: new RegExp([...run].map(base64CharPattern).join(''), 'g'), widen: true })
  }
  return forms
}

/**
 * Adds a value that every later `redact` and `forLog` removes, in every form it is looked for in:
 * as itself, percent-encoded, JSON-escaped, as HTML entities, and in base64 (standard or url-safe,
 * padded or not, alone or inside a longer encoded text). Called by the inputs module the moment
 * each secret is read, before it is checked, so even a message about a bad input is clean. The
 * forms are compiled here, once, so that redacting costs no more than a scan per form.
 */
export function addSecret(secret: string): void {
  for (const form of [secret, secret.trim()]) {
    if (form.length >= 4 && !secrets.has(form)) secrets.set(form, compile(form))
  }
}

/** Forgets every secret; for tests that run the action more than once in one process. */
export function clearSecrets(): void {
  secrets.clear()
}

/** Whether `text` holds a control or invisible formatting character. */
export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text)
}

/**
 * Credentials in a URL: the userinfo before the last `@` of its authority. The schemes that a URL
 * parser reads with any number of slashes (or backslashes, or JSON's `\/`) also match without
 * them; any other scheme needs its `//`. Free text has no end for a URL, so the userinfo stops at
 * whitespace and at the characters that end a JSON string or an HTML attribute or tag.
 */
const URL_CREDENTIALS =
  /\b((?:https?|wss?|ftps?):[\\/]*|[a-z][a-z0-9+.-]*:(?:\\?\/){2})([^\s/\\?#"<>`]*)@/gi

/** The same in a percent-encoded URL, such as one carried in a query parameter. */
const ENCODED_URL_CREDENTIALS =
  /\b([a-z][a-z0-9+.-]*%3A(?:%2F){2})((?:[^\s/\\?#"<>`%&=]|%(?!2F|3F|23)[0-9A-F]{2})*)%40/gi

/** Adds the span of each match of `regex` in `text`, overlapping ones included, to `spans`. */
function collect(regex: RegExp, text: string, spans: [number, number][], widen: boolean): void {
  regex.lastIndex = 0
  for (let match = regex.exec(text); match; match = regex.exec(text)) {
    let start = match.index
    let end = start + match[0].length
    if (widen && start > 0 && BASE64_CHAR.test(text.charAt(start - 1))) start -= 1
    if (widen && end < text.length && BASE64_CHAR.test(text.charAt(end))) end += 1
    spans.push([start, end])
    regex.lastIndex = match.index + 1
  }
}

/** Adds the span of the userinfo of each URL in `text` that has one. */
function collectCredentials(regex: RegExp, text: string, spans: [number, number][]): void {
  regex.lastIndex = 0
  for (let match = regex.exec(text); match; match = regex.exec(text)) {
    const start = match.index + (match[1] ?? '').length
    const end = start + (match[2] ?? '').length
    if (end > start) spans.push([start, end])
  }
}

/** How many backslashes stand right before `index`. */
function backslashesBefore(text: string, index: number): number {
  let count = 0
  while (index - count > 0 && text.charAt(index - count - 1) === '\\') count += 1
  return count
}

/**
 * Replaces every registered secret, in every form it is looked for in (see `addSecret`), and the
 * credentials of every URL (`https://user:token@host` → `https://***@host`) with `***`. All the
 * matches are found in the text as given, overlapping ones too, and each run of them becomes one
 * `***`, so no secret can hide another and no cut leaves part of one behind. `extra` adds values
 * for this call only.
 */
export function redact(text: string, extra: readonly string[] = []): string {
  if (text === '') return text
  const spans: [number, number][] = []
  const extraForms = extra.filter((value) => value && !secrets.has(value)).map(compile)
  for (const forms of [...secrets.values(), ...extraForms]) {
    for (const form of forms) collect(form.regex, text, spans, form.widen)
  }
  collectCredentials(URL_CREDENTIALS, text, spans)
  if (/%40/i.test(text)) collectCredentials(ENCODED_URL_CREDENTIALS, text, spans)
  if (spans.length === 0) return text

  spans.sort((a, b) => a[0] - b[0])
  let result = ''
  let done = 0
  for (let i = 0; i < spans.length;) {
    let [start, end] = spans[i] as [number, number]
    for (i += 1; i < spans.length && (spans[i] as [number, number])[0] <= end; i += 1) {
      end = Math.max(end, (spans[i] as [number, number])[1])
    }
    // Never leave half an escape: `\` + `***` would make the JSON of the job output unreadable.
    if (backslashesBefore(text, start) % 2 === 1) start -= 1
    result += text.slice(done, Math.max(done, start)) + '***'
    done = end
  }
  return result + text.slice(done)
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
