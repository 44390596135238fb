/**
 * The readings of a text that redaction looks through: as written, with its percent-encoding
 * undone (UTF-8 too), with its JSON escapes undone, with both, and with two layers of them undone
 * (a URL or a JSON text carried in a URL's query or a JSON string). In every reading a line break,
 * with the spaces and tabs around it, reads as nothing, so a value wrapped over lines reads whole.
 * Each character of a reading keeps the span of the text it was read from, so a value found in a
 * reading cuts the text as written. Linear in the text. Pure.
 */

/** A reading of a text: its characters, and the span `[start, end)` each was read from. */
export interface Reading {
  readonly text: string
  readonly starts: readonly number[]
  readonly ends: readonly number[]
}

const PERCENT = 1
const JSON_ESCAPES = 2
const BOTH = PERCENT | JSON_ESCAPES

const PERCENT_BYTE = /%([0-9a-fA-F]{2})/y
const JSON_ESCAPE = /\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/y
const SHORT: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t'
}

/** How many bytes a UTF-8 character with this first byte has; 0 when none starts so. */
function utf8Length(lead: number): number {
  if (lead < 0x80) return 1
  if (lead >= 0xc2 && lead <= 0xdf) return 2
  if (lead >= 0xe0 && lead <= 0xef) return 3
  return lead >= 0xf0 && lead <= 0xf4 ? 4 : 0
}

/** The byte that `%XX` at `at` writes, or -1. */
function byteAt(text: string, at: number): number {
  PERCENT_BYTE.lastIndex = at
  const hex = PERCENT_BYTE.exec(text)?.[1]
  return hex === undefined ? -1 : parseInt(hex, 16)
}

/** The escape of one of `kinds` at `at`: what it writes and how long it is. */
function escapeAt(text: string, at: number, kinds: number): [string, number] | undefined {
  const code = text.charCodeAt(at)
  if (code === 0x25 && kinds & PERCENT) {
    const count = utf8Length(byteAt(text, at))
    const bytes: number[] = []
    for (let k = 0; k < count; k++) bytes.push(byteAt(text, at + 3 * k))
    if (count === 0 || bytes.includes(-1)) return undefined
    // Bytes that are no UTF-8 character decode to U+FFFD: not an escape a reader would undo.
    const char = Buffer.from(bytes).toString('utf8')
    return char.includes('\ufffd') ? undefined : [char, 3 * count]
  }
  if (code === 0x5c && kinds & JSON_ESCAPES) {
    JSON_ESCAPE.lastIndex = at
    const match = JSON_ESCAPE.exec(text)
    if (!match) return undefined
    const unit = match[1]
    const char =
      unit === undefined ? (SHORT[match[2] ?? ''] ?? '') : String.fromCharCode(parseInt(unit, 16))
    return [char, match[0].length]
  }
  return undefined
}

const isBlank = (code: number | undefined): boolean => code === 0x20 || code === 0x09

/** `source` with the escapes of `kinds` undone and its lines joined. */
function read(source: Reading, kinds: number): Reading {
  const { text } = source
  const codes: number[] = []
  const starts: number[] = []
  const ends: number[] = []
  let afterBreak = false
  for (let i = 0; i < text.length;) {
    const escape = kinds === 0 ? undefined : escapeAt(text, i, kinds)
    const [chars, length] = escape ?? [text.charAt(i), 1]
    const start = source.starts[i] ?? i
    const end = source.ends[i + length - 1] ?? i + length
    i += length
    for (let k = 0; k < chars.length; k++) {
      const code = chars.charCodeAt(k)
      if (code === 0x0a || code === 0x0d) {
        while (isBlank(codes.at(-1))) {
          codes.pop()
          starts.pop()
          ends.pop()
        }
        afterBreak = true
      } else if (!afterBreak || !isBlank(code)) {
        afterBreak = false
        codes.push(code)
        starts.push(start)
        ends.push(end)
      }
    }
  }
  let joined = ''
  for (let i = 0; i < codes.length; i += 8192) {
    joined += String.fromCharCode(...codes.slice(i, i + 8192))
  }
  return { text: joined, starts, ends }
}

/** `text` as written, its lines joined: how a value is looked for. */
export function joinLines(text: string): string {
  return read({ text, starts: [], ends: [] }, 0).text
}

/** Whether `text` holds the character that starts an escape of every kind in `kinds`. */
function holds(text: string, kinds: number): boolean {
  return (
    (!(kinds & PERCENT) || text.includes('%')) && (!(kinds & JSON_ESCAPES) || text.includes('\\'))
  )
}

/**
 * Every reading of `text` (see above), one at a time, so that a large text costs one reading's
 * memory. A text without `%` or `\` has one. Each kind is also undone alone, and then each kind
 * again: a value that holds `%7a`, quoted in JSON, reads whole only where the JSON escapes are
 * undone and the percent-encoding is not.
 */
export function* readings(text: string): Generator<Reading> {
  const written: Reading = { text, starts: [], ends: [] }
  yield read(written, 0)
  for (const first of [PERCENT, JSON_ESCAPES, BOTH]) {
    if (!holds(text, first)) continue
    const once = read(written, first)
    yield once
    for (const then of first === BOTH ? [BOTH] : [PERCENT, JSON_ESCAPES]) {
      if (!holds(once.text, then)) continue
      const twice = read(once, then)
      if (twice.text !== once.text) yield twice
    }
  }
}
