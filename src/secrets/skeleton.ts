/**
 * A text as it reads once every way of writing a character is undone: escapes decoded
 * (percent-encoding, also of UTF-8 and twice over; HTML entities, named, decimal and hex; JSON and
 * JavaScript backslash escapes), then whitespace, line breaks and invisible characters (zero-width,
 * bidirectional controls, the byte order mark, the soft hyphen…) left out, and, for the view that
 * letters are compared in, case folded. Every unit of it keeps the span of the original text it was
 * read from, so that a secret found in the skeleton cuts the original. Linear in the text. Pure.
 */

/** A sequence of UTF-16 code units, each with the span `[start, end)` of the text it came from. */
export interface Units {
  readonly length: number
  readonly codes: Uint16Array
  readonly starts: Int32Array
  readonly ends: Int32Array
}

/**
 * One layer of a text's skeleton: the text with its escapes decoded some number of times (none
 * for the first layer), and the two views secrets are compared with.
 */
export interface Layer {
  /** How many times escapes were decoded: 0 for the text as given. */
  readonly depth: number
  /** The text at this depth, nothing left out: what URL credentials are read from. */
  readonly decoded: Units
  /** Without whitespace and invisible characters, case folded: for text and hex forms. */
  readonly folded: Units
  /**
   * Without whitespace and invisible characters, case kept, base64url's `-` and `_` read as
   * base64's `+` and `/`: for base64 forms.
   */
  readonly base64: Units
}

/**
 * How many times escapes are decoded: once for the text as given, again for a text encoded twice
 * (`%2541`, `&amp;#65;`, `\\u0041` inside JSON), and once more for a mix of three. Each round is a
 * scan, so this bounds the cost; a fourth layer of encoding is not looked through.
 */
const DECODE_ROUNDS = 3

const PERCENT = 0x25
const AMPERSAND = 0x26
const BACKSLASH = 0x5c
const SEMICOLON = 0x3b
const HASH = 0x23

/** HTML's named references for ASCII punctuation and invisible characters (HTML's own table). */
const NAMED: Record<string, number> = {
  Tab: 9,
  NewLine: 10,
  excl: 33,
  quot: 34,
  QUOT: 34,
  num: 35,
  dollar: 36,
  percnt: 37,
  amp: 38,
  AMP: 38,
  apos: 39,
  lpar: 40,
  rpar: 41,
  ast: 42,
  midast: 42,
  plus: 43,
  comma: 44,
  period: 46,
  sol: 47,
  colon: 58,
  semi: 59,
  lt: 60,
  LT: 60,
  equals: 61,
  gt: 62,
  GT: 62,
  quest: 63,
  commat: 64,
  lsqb: 91,
  lbrack: 91,
  bsol: 92,
  rsqb: 93,
  rbrack: 93,
  Hat: 94,
  lowbar: 95,
  UnderBar: 95,
  grave: 96,
  DiacriticalGrave: 96,
  lcub: 123,
  lbrace: 123,
  verbar: 124,
  vert: 124,
  VerticalLine: 124,
  rcub: 125,
  rbrace: 125,
  ZeroWidthSpace: 0x200b,
  zwnj: 0x200c,
  zwj: 0x200d,
  lrm: 0x200e,
  rlm: 0x200f,
  NoBreak: 0x2060,
  euro: 0x20ac
}

/** HTML's named references for U+00A0 to U+00FF, in order: Latin-1 letters and signs. */
const LATIN1 =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn ' +
  'sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave ' +
  'Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ' +
  'ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN ' +
  'szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute ' +
  'icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml ' +
  'yacute thorn yuml'
LATIN1.split(' ').forEach((name, i) => (NAMED[name] = 0xa0 + i))

/** The HTML reference names this reads, for tests. */
export const HTML_NAMES: Readonly<Record<string, number>> = NAMED

/** The longest name in `NAMED`, so a scan for one stops early. */
const LONGEST_NAME = Math.max(...Object.keys(NAMED).map((name) => name.length))

/** JSON's and JavaScript's one-character escapes: `\n` and the like. */
const SHORT_ESCAPES: Record<number, number> = {
  0x22: 0x22, // \"
  0x27: 0x27, // \'
  0x2f: 0x2f, // \/
  0x5c: 0x5c, // \\
  0x62: 0x08, // \b
  0x66: 0x0c, // \f
  0x6e: 0x0a, // \n
  0x72: 0x0d, // \r
  0x74: 0x09 // \t
}

/** The value of a hex digit, or -1. */
function hexDigit(code: number | undefined): number {
  if (code === undefined) return -1
  if (code >= 0x30 && code <= 0x39) return code - 0x30
  const lower = code | 0x20
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10
  return -1
}

/** The number written by `count` hex digits at `at`, or -1. */
function hexNumber(codes: Uint16Array, length: number, at: number, count: number): number {
  if (at + count > length) return -1
  let value = 0
  for (let k = 0; k < count; k++) {
    const digit = hexDigit(codes[at + k])
    if (digit < 0) return -1
    value = value * 16 + digit
  }
  return value
}

/** The code point an escape at the scan's position decodes to; set by the readers below. */
let decoded = 0

/** `%XX` (one byte, or the bytes of one UTF-8 character) or `%uXXXX` at `i`: its length, or 0. */
function readPercent(codes: Uint16Array, length: number, i: number): number {
  const first = hexNumber(codes, length, i + 1, 2)
  if (first < 0) {
    // `%uXXXX`, as JavaScript's `escape` writes a character outside Latin-1.
    const u = codes[i + 1]
    if (u !== 0x75 && u !== 0x55) return 0
    const unit = hexNumber(codes, length, i + 2, 4)
    if (unit < 0) return 0
    decoded = unit
    return 6
  }
  if (first < 0x80) {
    decoded = first
    return 3
  }
  // A UTF-8 sequence: the lead byte says how many continuation bytes follow.
  const [more, least, bits] =
    first >= 0xc2 && first <= 0xdf
      ? [1, 0x80, first & 0x1f]
      : first >= 0xe0 && first <= 0xef
        ? [2, 0x800, first & 0x0f]
        : first >= 0xf0 && first <= 0xf4
          ? [3, 0x10000, first & 0x07]
          : [0, 0, 0]
  if (more === 0) return 0
  let point = bits
  for (let k = 1; k <= more; k++) {
    const at = i + 3 * k
    if (codes[at] !== PERCENT) return 0
    const byte = hexNumber(codes, length, at + 1, 2)
    if (byte < 0 || (byte & 0xc0) !== 0x80) return 0
    point = (point << 6) | (byte & 0x3f)
  }
  if (point < least || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return 0
  decoded = point
  return 3 * (more + 1)
}

/** An HTML character reference at `i` (`&#65;`, `&#x41;`, `&amp;`): its length, or 0. */
function readEntity(codes: Uint16Array, length: number, i: number): number {
  if (codes[i + 1] === HASH) {
    let at = i + 2
    const hex = (codes[at] ?? 0) === 0x78 || codes[at] === 0x58
    if (hex) at += 1
    const digitsFrom = at
    let value = 0
    for (; at < length; at++) {
      const digit = hex ? hexDigit(codes[at]) : (codes[at] ?? 0) - 0x30
      if (digit < 0 || digit > (hex ? 15 : 9)) break
      // Past the last code point the value no longer matters: the reference is not decoded.
      value = Math.min(value * (hex ? 16 : 10) + digit, 0x110000)
    }
    if (at === digitsFrom || value === 0 || value > 0x10ffff) return 0
    if (value >= 0xd800 && value <= 0xdfff) return 0
    // Browsers read a numeric reference without its `;` too.
    if (codes[at] === SEMICOLON) at += 1
    decoded = value
    return at - i
  }
  let at = i + 1
  while (at < length && at - i <= LONGEST_NAME && isAlphanumeric(codes[at] ?? 0)) at++
  if (at === i + 1 || codes[at] !== SEMICOLON) return 0
  const point = NAMED[String.fromCharCode(...codes.subarray(i + 1, at))]
  if (point === undefined) return 0
  decoded = point
  return at + 1 - i
}

function isAlphanumeric(code: number): boolean {
  const lower = code | 0x20
  return (code >= 0x30 && code <= 0x39) || (lower >= 0x61 && lower <= 0x7a)
}

/** A backslash escape at `i` (`\u0041`, `\u{41}`, `\x41`, `\n`, `\/`…): its length, or 0. */
function readBackslash(codes: Uint16Array, length: number, i: number): number {
  const next = codes[i + 1]
  if (next === undefined || i + 1 >= length) return 0
  if (next === 0x75) {
    if (codes[i + 2] === 0x7b) {
      let at = i + 3
      let value = 0
      for (; at < length && at - i <= 10; at++) {
        const digit = hexDigit(codes[at])
        if (digit < 0) break
        value = value * 16 + digit
      }
      if (at === i + 3 || codes[at] !== 0x7d || value > 0x10ffff) return 0
      decoded = value
      return at + 1 - i
    }
    const unit = hexNumber(codes, length, i + 2, 4)
    if (unit < 0) return 0
    decoded = unit
    return 6
  }
  if (next === 0x78) {
    const byte = hexNumber(codes, length, i + 2, 2)
    if (byte < 0) return 0
    decoded = byte
    return 4
  }
  const short = SHORT_ESCAPES[next]
  if (short === undefined) return 0
  decoded = short
  return 2
}

/** Room for `length` units. */
function allocate(length: number): { codes: Uint16Array; starts: Int32Array; ends: Int32Array } {
  return {
    codes: new Uint16Array(length),
    starts: new Int32Array(length),
    ends: new Int32Array(length)
  }
}

/** `text` as units, one per code unit, each its own span. */
export function unitsOf(text: string): Units {
  const units = allocate(text.length)
  for (let i = 0; i < text.length; i++) {
    units.codes[i] = text.charCodeAt(i)
    units.starts[i] = i
    units.ends[i] = i + 1
  }
  return { length: text.length, ...units }
}

/**
 * One round of decoding: every escape becomes the character it writes, spanning what the escape
 * spanned. Undefined when there was none. An escape is never longer than what it decodes to, so
 * the result fits in the input's length.
 */
function decodeRound(input: Units, only?: EscapeStart): Units | undefined {
  const { codes, starts, ends } = input
  const length = input.length
  const out = allocate(length)
  let n = 0
  let changed = false
  for (let i = 0; i < length;) {
    const code = codes[i] ?? 0
    const used =
      only !== undefined && code !== only
        ? 0
        : code === PERCENT
          ? readPercent(codes, length, i)
          : code === AMPERSAND
            ? readEntity(codes, length, i)
            : code === BACKSLASH
              ? readBackslash(codes, length, i)
              : 0
    if (used === 0) {
      out.codes[n] = code
      out.starts[n] = starts[i] ?? 0
      out.ends[n] = ends[i] ?? 0
      n += 1
      i += 1
      continue
    }
    changed = true
    const start = starts[i] ?? 0
    const end = ends[i + used - 1] ?? 0
    if (decoded > 0xffff) {
      const high = 0xd800 + ((decoded - 0x10000) >> 10)
      const low = 0xdc00 + ((decoded - 0x10000) & 0x3ff)
      out.codes[n] = high
      out.starts[n] = start
      out.ends[n] = end
      n += 1
      out.codes[n] = low
    } else {
      out.codes[n] = decoded
    }
    out.starts[n] = start
    out.ends[n] = end
    n += 1
    i += used
  }
  return changed ? { length: n, ...out } : undefined
}

/** A character that starts an escape: `%`, `&` or `\`. */
type EscapeStart = typeof PERCENT | typeof AMPERSAND | typeof BACKSLASH

/** The characters in `units` that can start an escape. */
function escapeStarts(units: Units): EscapeStart[] {
  const found = new Set<EscapeStart>()
  for (let i = 0; i < units.length; i++) {
    const code = units.codes[i]
    if (code === PERCENT || code === AMPERSAND || code === BACKSLASH) found.add(code)
  }
  return [...found]
}

/** Whether the units hold a character that can start an escape. */
function mayHoldEscapes(units: Units): boolean {
  for (let i = 0; i < units.length; i++) {
    const code = units.codes[i]
    if (code === PERCENT || code === AMPERSAND || code === BACKSLASH) return true
  }
  return false
}

/**
 * `text` as given, then decoded once, twice…, up to `DECODE_ROUNDS` layers deep, while a round
 * still decodes something. Each depth is looked at, not only the last: a secret may itself hold
 * what reads as an escape (`p%41ss`), and is then found at the depth where the text's own
 * encoding is undone and the secret's is not. A text without escapes has one depth.
 */
export function* depths(text: string): Generator<Units> {
  let units = unitsOf(text)
  yield units
  // A text with escapes of two kinds (a JSON string's `\"` around a key that holds `%7a`) is also
  // decoded one kind at a time, so the key is found where the text's own escapes are undone and
  // the key's, of another kind, are not.
  const kinds = escapeStarts(units)
  if (kinds.length > 1) {
    for (const kind of kinds) {
      const alone = decodeRound(units, kind)
      if (alone) yield alone
    }
  }
  for (let round = 0; round < DECODE_ROUNDS && mayHoldEscapes(units); round++) {
    const next = decodeRound(units)
    if (!next) return
    units = next
    yield units
  }
}

/**
 * What a reader does not see or that may sit between a secret's characters without changing what
 * it is: whitespace and line breaks (`\s`, separators), control characters, format characters
 * (zero-width, joiners, bidirectional controls, the byte order mark, the soft hyphen) and the
 * other default-ignorable code points (variation selectors, fillers).
 */
const IGNORABLE = /^[\s\p{Z}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]$/u

/** Whether each BMP code unit is `IGNORABLE`, learnt as met: 0 not yet known, 1 no, 2 yes. */
const ignorableUnits = new Uint8Array(0x10000)

function isIgnorable(code: number): boolean {
  let known = ignorableUnits[code] ?? 0
  if (known === 0) {
    known = IGNORABLE.test(String.fromCharCode(code)) ? 2 : 1
    ignorableUnits[code] = known
  }
  return known === 2
}

/** Case folding of one character, cached: upper then lower, so `ß`, `ẞ` and `SS` meet at `ss`. */
const folds = new Map<string, string>()

function fold(char: string): string {
  let folded = folds.get(char)
  if (folded === undefined) {
    folded = char.toUpperCase().toLowerCase()
    folds.set(char, folded)
  }
  return folded
}

/** A growable set of units. */
class Builder {
  codes: Uint16Array
  starts: Int32Array
  ends: Int32Array
  length = 0

  constructor(capacity: number) {
    ;({ codes: this.codes, starts: this.starts, ends: this.ends } = allocate(capacity))
  }

  push(code: number, start: number, end: number): void {
    if (this.length === this.codes.length) {
      const bigger = allocate(this.codes.length * 2 + 16)
      bigger.codes.set(this.codes)
      bigger.starts.set(this.starts)
      bigger.ends.set(this.ends)
      ;({ codes: this.codes, starts: this.starts, ends: this.ends } = bigger)
    }
    this.codes[this.length] = code
    this.starts[this.length] = start
    this.ends[this.length] = end
    this.length += 1
  }

  units(): Units {
    return { length: this.length, codes: this.codes, starts: this.starts, ends: this.ends }
  }
}

const MINUS = 0x2d
const UNDERSCORE = 0x5f
const PLUS = 0x2b
const SLASH = 0x2f

/** The views of `decoded`: its ignorable characters left out, folded or read as base64. */
export function layerOf(decoded: Units, depth: number): Layer {
  const folded = new Builder(decoded.length)
  const base64 = new Builder(decoded.length)
  const { codes, starts, ends } = decoded
  for (let i = 0; i < decoded.length; i++) {
    const code = codes[i] ?? 0
    const next = codes[i + 1] ?? 0
    const pair =
      code >= 0xd800 && code <= 0xdbff && i + 1 < decoded.length && next >= 0xdc00 && next <= 0xdfff
    const start = starts[i] ?? 0
    const end = ends[pair ? i + 1 : i] ?? 0
    if (pair) {
      const char = String.fromCharCode(code, next)
      i += 1
      if (IGNORABLE.test(char)) continue
      base64.push(code, start, end)
      base64.push(next, start, end)
      const lower = fold(char)
      for (let k = 0; k < lower.length; k++) folded.push(lower.charCodeAt(k), start, end)
      continue
    }
    if (isIgnorable(code)) continue
    base64.push(code === MINUS ? PLUS : code === UNDERSCORE ? SLASH : code, start, end)
    if (code < 0x80) {
      folded.push(code >= 0x41 && code <= 0x5a ? code + 0x20 : code, start, end)
    } else {
      const lower = fold(String.fromCharCode(code))
      for (let k = 0; k < lower.length; k++) folded.push(lower.charCodeAt(k), start, end)
    }
  }
  return { depth, decoded, folded: folded.units(), base64: base64.units() }
}

/**
 * Every layer of `text`'s skeleton, one depth of decoding at a time (see `depths`), each built
 * only when the one before has been looked at, so a text costs one layer's memory at a time.
 */
export function* layers(text: string): Generator<Layer> {
  let depth = 0
  for (const units of depths(text)) yield layerOf(units, depth++)
}

/** The code units of `units` as a string. */
export function textOf(units: Units): string {
  let text = ''
  const chunk = 8192
  for (let i = 0; i < units.length; i += chunk) {
    text += String.fromCharCode(...units.codes.subarray(i, Math.min(units.length, i + chunk)))
  }
  return text
}
