/**
 * The ways a text can write a secret so that it still reads as the secret, and an oracle that
 * says whether a text gives a secret away in any of them. Written apart from the redaction (its
 * decoders are plain `replace`s, not a scanner with an index map), so the tests compare two ways
 * of reading a text. Shared by the redaction's unit tests and the end-to-end test.
 */

/** How many characters of a secret in a row give it away; shorter secrets only whole. */
export const PART = 16

/** HTML's named references this oracle reads and the generators write (HTML's own table). */
export const NAMED: Record<string, string> = {
  excl: '!',
  quot: '"',
  num: '#',
  dollar: '$',
  percnt: '%',
  amp: '&',
  apos: "'",
  lpar: '(',
  rpar: ')',
  ast: '*',
  plus: '+',
  comma: ',',
  period: '.',
  sol: '/',
  colon: ':',
  semi: ';',
  lt: '<',
  equals: '=',
  gt: '>',
  quest: '?',
  commat: '@',
  lsqb: '[',
  bsol: '\\',
  rsqb: ']',
  Hat: '^',
  lowbar: '_',
  grave: '`',
  lcub: '{',
  verbar: '|',
  rcub: '}',
  nbsp: '\u00a0',
  shy: '\u00ad',
  zwnj: '\u200c',
  zwj: '\u200d',
  lrm: '\u200e',
  rlm: '\u200f',
  auml: 'ä',
  ouml: 'ö',
  uuml: 'ü',
  szlig: 'ß',
  euro: '€'
}

const NAME_OF = new Map(Object.entries(NAMED).map(([name, char]) => [char, name]))

/**
 * What may stand between two characters of a secret without changing how it reads: whitespace,
 * line breaks, zero-width and joining characters, bidirectional controls, the byte order mark,
 * the soft hyphen, a variation selector.
 */
export const SEPARATORS = [
  ' ',
  '\n',
  '\r\n',
  '\t',
  '\u00a0',
  '\u00ad',
  '\u034f',
  '\u061c',
  '\u180e',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u200e',
  '\u200f',
  '\u2028',
  '\u202a',
  '\u202c',
  '\u202e',
  '\u2060',
  '\u2066',
  '\u2069',
  '\u3000',
  '\ufe0f',
  '\ufeff'
] as const

/** How one character of a secret is written. */
export const CHAR_WRITINGS = [
  'plain',
  'upper',
  'lower',
  'percent',
  'PERCENT',
  'decimal',
  'decimal0',
  'hexEntity',
  'HEXENTITY',
  'named',
  'json',
  'JSON',
  'jsonShort'
] as const
export type CharWriting = (typeof CHAR_WRITINGS)[number]

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0')
}

/** `char` written as `how` says (as itself when that writing has no form for it). */
export function writeChar(char: string, how: CharWriting): string {
  const point = char.codePointAt(0) ?? 0
  switch (how) {
    case 'plain':
      return char
    case 'upper':
      return char.toUpperCase()
    case 'lower':
      return char.toLowerCase()
    case 'percent':
      return [...Buffer.from(char, 'utf8')].map((b) => `%${hex(b, 2)}`).join('')
    case 'PERCENT':
      return [...Buffer.from(char, 'utf8')].map((b) => `%${hex(b, 2).toUpperCase()}`).join('')
    case 'decimal':
      return `&#${point};`
    case 'decimal0':
      return `&#00${point};`
    case 'hexEntity':
      return `&#x${hex(point, 1)};`
    case 'HEXENTITY':
      return `&#X${hex(point, 1).toUpperCase()};`
    case 'named': {
      const name = NAME_OF.get(char)
      return name ? `&${name};` : char
    }
    case 'json':
    case 'JSON':
      return [...char]
        .map((_, i) => {
          const unit = hex(char.charCodeAt(i), 4)
          return `\\u${how === 'JSON' ? unit.toUpperCase() : unit}`
        })
        .join('')
    case 'jsonShort':
      return JSON.stringify(char).slice(1, -1)
  }
}

/** How a secret written character by character is then wrapped whole, or encoded as bytes. */
export const WHOLE_WRITINGS = [
  'none',
  'percentAgain',
  'jsonString',
  'htmlEscaped',
  'hex',
  'HEX',
  'base64',
  'base64url',
  'base64Bearer',
  'base64Wrapped'
] as const
export type WholeWriting = (typeof WHOLE_WRITINGS)[number]

/** One way of writing a secret: each character's writing (cycled), what follows each, the whole. */
export interface Writing {
  chars: readonly CharWriting[]
  separators: readonly string[]
  whole: WholeWriting
}

/** `secret` written as `writing` says. */
export function writeSecret(secret: string, writing: Writing): string {
  const chars = [...secret]
  const at = <T>(list: readonly T[], i: number, fallback: T): T =>
    list.length === 0 ? fallback : (list[i % list.length] ?? fallback)
  const spaced = (parts: string[]) =>
    parts.map((part, i) => (i === 0 ? part : at(writing.separators, i, '') + part)).join('')
  const bytes = Buffer.from(secret, 'utf8')
  switch (writing.whole) {
    case 'hex':
    case 'HEX': {
      const pairs = [...bytes].map((b) => hex(b, 2))
      const text = spaced(pairs)
      return writing.whole === 'HEX' ? text.toUpperCase() : text
    }
    case 'base64':
      return bytes.toString('base64')
    case 'base64url':
      return bytes.toString('base64url')
    case 'base64Bearer':
      return Buffer.from(`Bearer ${secret}`).toString('base64')
    case 'base64Wrapped': {
      // As MIME and PEM write it: lines of a few characters.
      const encoded = Buffer.from(`x-access-token:${secret}`).toString('base64')
      return encoded.replace(/(.{1,9})/g, '$1\r\n').trimEnd()
    }
    default:
      break
  }
  const written = spaced(chars.map((char, i) => writeChar(char, at(writing.chars, i, 'plain'))))
  switch (writing.whole) {
    case 'percentAgain':
      return encodeURIComponent(written)
    case 'jsonString':
      return JSON.stringify(written).slice(1, -1)
    case 'htmlEscaped':
      return written.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')
    default:
      return written
  }
}

/** Percent-decoding, as a URL decoder reads it (invalid UTF-8 becomes U+FFFD). */
function percentDecode(text: string): string {
  return text
    .replace(/(?:%[0-9a-fA-F]{2})+/g, (run) =>
      Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8')
    )
    .replace(/%u([0-9a-fA-F]{4})/g, (_, unit: string) => String.fromCharCode(parseInt(unit, 16)))
}

/** A code point as text, or the reference as written when it is none. */
function point(value: number, written: string): string {
  return value > 0 && value <= 0x10ffff && (value < 0xd800 || value > 0xdfff)
    ? String.fromCodePoint(value)
    : written
}

/** HTML character references, as a browser reads them (numeric ones also without `;`). */
function htmlDecode(text: string): string {
  return text.replace(
    /&(?:#[xX]([0-9a-fA-F]+);?|#([0-9]+);?|([A-Za-z][A-Za-z0-9]*);)/g,
    (written, hexDigits?: string, decimal?: string, name?: string) => {
      if (hexDigits !== undefined) return point(parseInt(hexDigits, 16), written)
      if (decimal !== undefined) return point(parseInt(decimal, 10), written)
      return NAMED[name ?? ''] ?? written
    }
  )
}

const SHORT: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }

/** JSON's and JavaScript's backslash escapes. */
function backslashDecode(text: string): string {
  return text.replace(
    /\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(["'\\/bfnrt]))/g,
    (written, braces?: string, unit?: string, byte?: string, short?: string) => {
      if (braces !== undefined) return point(parseInt(braces, 16), written)
      if (unit !== undefined) return String.fromCharCode(parseInt(unit, 16))
      if (byte !== undefined) return String.fromCharCode(parseInt(byte, 16))
      return SHORT[short ?? ''] ?? short ?? written
    }
  )
}

const DECODERS: ((text: string) => string)[] = [
  percentDecode,
  htmlDecode,
  backslashDecode,
  (text) => backslashDecode(htmlDecode(percentDecode(text))),
  (text) => percentDecode(htmlDecode(backslashDecode(text)))
]

/** Every reading of `text`: as given, and through each decoder, up to three layers deep. */
export function readings(text: string): string[] {
  const seen = new Set([text])
  let frontier = [text]
  for (let round = 0; round < 3; round++) {
    const next: string[] = []
    for (const form of frontier) {
      for (const decode of DECODERS) {
        const decoded = decode(form)
        if (!seen.has(decoded)) {
          seen.add(decoded)
          next.push(decoded)
        }
      }
    }
    frontier = next
  }
  return [...seen]
}

const IGNORABLE = /[\s\p{Z}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/gu

/** `text` without whitespace and invisible characters. */
export function strip(text: string): string {
  return text.replace(IGNORABLE, '')
}

/** `text` case folded one character at a time (upper, then lower: `ß` and `SS` read as `ss`). */
export function fold(text: string): string {
  return [...text].map((char) => char.toUpperCase().toLowerCase()).join('')
}

/** Every run of `width` characters of `text`; the whole text when it is shorter. */
function partsOf(text: string, width: number): string[] {
  if (text.length <= width) return [text]
  return Array.from({ length: text.length - width + 1 }, (_, i) => text.slice(i, i + width))
}

/** Every run of `width` bytes of `bytes`; all of them when there are fewer. */
function bytePartsOf(bytes: Buffer, width: number): Buffer[] {
  if (bytes.length <= width) return [bytes]
  return Array.from({ length: bytes.length - width + 1 }, (_, i) => bytes.subarray(i, i + width))
}

/**
 * How `text` gives `secret` away, one line per way found (none: it does not): a part of
 * `PART` characters of it (or all of it) in any reading of the text with whitespace and invisible
 * characters left out and case folded, `2 × PART` hex digits of its bytes, or `base64Bytes` of
 * its bytes decoded from a run of base64 or base64url read from any of its four offsets. Base64
 * writes 6 bits a character, so a window of whole characters holds 15 or 16 bytes by where it
 * falls: a text that is to be left alone is checked with `PART - 1`.
 */
export function giveaways(text: string, secret: string, base64Bytes = PART): string[] {
  const found: string[] = []
  const needle = fold(strip(secret))
  if (needle.length < 4) return found
  const parts = partsOf(needle, PART)
  const bytes = Buffer.from(secret, 'utf8')
  const hexParts = partsOf(bytes.toString('hex'), 2 * PART)
  const byteParts = bytePartsOf(bytes, base64Bytes)
  for (const reading of readings(text)) {
    const stripped = strip(reading)
    const folded = fold(stripped)
    const part = parts.find((p) => folded.includes(p))
    if (part) found.push(`"${part}" in ${JSON.stringify(reading)}`)
    const hexPart = hexParts.find((p) => folded.includes(p))
    if (hexPart) found.push(`hex ${hexPart} in ${JSON.stringify(reading)}`)
    for (const run of stripped.match(/[A-Za-z0-9+/_-]{4,}/g) ?? []) {
      const standard = run.replace(/-/g, '+').replace(/_/g, '/')
      for (let offset = 0; offset < 4; offset++) {
        const decoded = Buffer.from(standard.slice(offset), 'base64')
        if (byteParts.some((p) => decoded.includes(p))) {
          found.push(`base64 ${run} in ${JSON.stringify(reading)}`)
          break
        }
      }
    }
  }
  return found
}
