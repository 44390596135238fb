/**
 * The readings of a text redaction looks through: percent-encoding (UTF-8 too) and JSON escapes
 * undone, up to two layers; a line break with the blanks around it reads as nothing, so a wrapped
 * value reads whole. Each character keeps the span it was read from, to cut the text as written.
 */

/** A reading: its characters and the span `[start, end)` each came from (none: the text as is). */
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

function utf8Length(lead: number): number {
  if (lead < 0x80) return 1
  if (lead >= 0xc2 && lead <= 0xdf) return 2
  if (lead >= 0xe0 && lead <= 0xef) return 3
  return lead >= 0xf0 && lead <= 0xf4 ? 4 : 0
}

function byteAt(text: string, at: number): number {
  PERCENT_BYTE.lastIndex = at
  const hex = PERCENT_BYTE.exec(text)?.[1]
  return hex === undefined ? -1 : parseInt(hex, 16)
}

function escapeAt(text: string, at: number, kinds: number): [string, number] | undefined {
  const code = text.charCodeAt(at)
  if (code === 0x25 && kinds & PERCENT) {
    const count = utf8Length(byteAt(text, at))
    const bytes: number[] = []
    for (let k = 0; k < count; k++) bytes.push(byteAt(text, at + 3 * k))
    if (count === 0 || bytes.includes(-1)) return undefined
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

function holds(text: string, kinds: number): boolean {
  return (
    (!(kinds & PERCENT) || text.includes('%')) && (!(kinds & JSON_ESCAPES) || text.includes('\\'))
  )
}

/**
 * Every reading of `text`, one at a time, to hold one in memory. Kinds are also undone one alone:
 * a value that holds `%7a`, quoted in JSON, reads whole only where JSON's escapes alone are undone.
 */
export function* readings(text: string): Generator<Reading> {
  const written: Reading = { text, starts: [], ends: [] }
  yield /[\r\n]/.test(text) ? read(written, 0) : written
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
