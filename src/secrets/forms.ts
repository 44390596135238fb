/**
 * The ways a secret can be written in the text the action meets, each compiled once into a regex:
 * as itself, percent-encoded, JSON-escaped, as HTML entities, and in base64 (standard or
 * url-safe, padded or not, alone or inside a longer encoded text). Pure; the registry of secrets
 * and the redaction that uses these forms are `redact.ts`'s.
 */

/**
 * One way a secret can be written, compiled once when the secret is registered. `widen` marks a
 * base64 form: the base64 character on each side of it mixes bits of the secret with bits of the
 * text around it, so it is removed too.
 */
export interface Form {
  readonly regex: RegExp
  readonly widen: boolean
}

/** Shortest base64 run looked for: 36 bits, which ordinary text does not hit by chance. */
const MIN_BASE64_LENGTH = 6

/** A character of base64 or base64url, the alphabet a base64 form is widened over. */
export const BASE64_CHAR = /[A-Za-z0-9+/_-]/

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
export function compile(secret: string): Form[] {
  const forms: Form[] = [
    { regex: new RegExp([...secret].map(charPattern).join(''), 'g'), widen: false }
  ]
  for (const run of base64Runs(Buffer.from(secret, 'utf8'))) {
    forms.push({ regex: new RegExp([...run].map(base64CharPattern).join(''), 'g'), widen: true })
  }
  return forms
}
