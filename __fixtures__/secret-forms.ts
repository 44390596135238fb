/**
 * The forms a secret can leave in: those the action redacts (what it writes must hold none of
 * them) and those it does not, and two oracles that say whether a text gives a secret away,
 * written apart from the redaction (plain `replace`s, not a scanner with a span map), so the tests
 * compare two ways of reading a text. Shared by the redaction's unit tests and the end-to-end
 * test of everything the built action writes.
 */

/** Base64 of `text`'s UTF-8 bytes. */
export function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64')
}

/** Base64url, without padding, as JWTs and many APIs write it. */
export function base64url(text: string): string {
  return base64(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** How a token is wrapped before it is base64-encoded: a bearer header, basic auth. */
export const WRAPPERS: readonly ((secret: string) => string)[] = [
  (s) => s,
  (s) => `Bearer ${s}`,
  (s) => `x-access-token:${s}`,
  (s) => `user:${s}`,
  (s) => `${s}:x-oauth-basic`
]

/**
 * Every form of `secret` that must not be written: itself, URL-encoded, JSON-escaped, and base64
 * (standard, unpadded, url-safe) of it and of each wrapper.
 */
export function formsOf(secret: string): string[] {
  return [
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    ...WRAPPERS.flatMap((wrap) => {
      const encoded = base64(wrap(secret))
      return [encoded, encoded.replace(/=+$/, ''), base64url(wrap(secret))]
    })
  ]
}

/**
 * Whether some run of base64 (or base64url) characters in `text`, read from any of its four
 * character offsets, decodes to bytes holding `secret`: the secret can be read back from it.
 */
export function decodesToSecret(text: string, secret: string): boolean {
  const wanted = Buffer.from(secret, 'utf8')
  for (const run of text.match(/[A-Za-z0-9+/_-]{4,}/g) ?? []) {
    const standard = run.replace(/-/g, '+').replace(/_/g, '/')
    for (let offset = 0; offset < 4; offset++) {
      // Node decodes an unpadded end too, so a secret in the last group is found.
      if (Buffer.from(standard.slice(offset), 'base64').includes(wanted)) return true
    }
  }
  return false
}

/** The forms of `secret` found in `text`, and `base64` when it decodes from a run of it. */
export function leakedForms(text: string, secret: string): string[] {
  const found = formsOf(secret).filter((form) => text.includes(form))
  return decodesToSecret(text, secret) ? [...found, 'base64'] : found
}

/** How many characters of a secret in a row give it away; shorter secrets only whole. */
export const PART = 16

/** One way a text can carry a secret; `n` varies the details (which bytes, where lines break). */
export type Form = (secret: string, n: number) => string

const hex = (byte: number) => byte.toString(16).padStart(2, '0')

/** Every byte of `text` percent-encoded, in lower case (as some encoders write it). */
function everyByte(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${hex(byte)}`).join('')
}

/** `text` broken into lines of 1 to 12 characters, the next line indented by 0 to 2 spaces. */
function wrap(text: string, n: number): string {
  const lines = text.match(new RegExp(`[^]{1,${1 + (n % 12)}}`, 'g')) ?? []
  return lines.join(`${n % 2 ? '\r\n' : '\n'}${' '.repeat(n % 3)}`)
}

/** The forms a secret is redacted in, each as a text the action reads would carry it. */
export const KEPT = {
  plain: (s) => s,
  // A query parameter or a form body; an encoder's choice of which characters and which case.
  urlEncoded: (s) => encodeURIComponent(s),
  everyByte: (s, n) => (n % 2 ? everyByte(s).toUpperCase() : everyByte(s)),
  someCharacters: (s, n) =>
    [...s].map((char, i) => ((n >> (i % 30)) & 1 ? everyByte(char) : char)).join(''),
  // A URL carried in another URL's query (a redirect target): encoded twice.
  urlEncodedTwice: (s) => encodeURIComponent(encodeURIComponent(s)),
  // An error body that quotes the request: JSON's escapes, or `\u` for every character.
  jsonEscaped: (s) => JSON.stringify(s).slice(1, -1),
  jsonUnicode: (s) =>
    [...s].map((_, i) => `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  // A JSON text quoted in a JSON string (a logged request body): escaped twice.
  jsonTwice: (s) => JSON.stringify(JSON.stringify(s)).slice(3, -3),
  // A JSON answer carried in a URL's query.
  jsonInUrl: (s) => encodeURIComponent(JSON.stringify(s).slice(1, -1)),
  // The Authorization header echoed back: bearer or basic auth in base64, padded or not.
  base64: (s, n) => {
    const encoded = base64((WRAPPERS[n % WRAPPERS.length] ?? String)(s))
    return n % 2 ? encoded.replace(/=+$/, '') : encoded
  },
  // A token in a JWT or a URL: base64url.
  base64url: (s, n) => base64url((WRAPPERS[n % WRAPPERS.length] ?? String)(s)),
  // A whole request echoed in base64: the secret at any offset inside a longer encoded text.
  base64Request: (s, n) => base64(`${'x'.repeat(n % 3)}{"authorization":"Bearer ${s}"}`),
  // Wrapped: a log viewer or terminal breaking a long line, the next one indented.
  wrapped: (s, n) => wrap(s, n),
  // Base64 as MIME and PEM write it: lines of a few characters.
  base64Wrapped: (s, n) => wrap(base64(`x-access-token:${s}`), n),
  // Wrapped text quoted in JSON: the line breaks written `\n`.
  jsonWrapped: (s, n) => JSON.stringify(wrap(s, n)).slice(1, -1)
} satisfies Record<string, Form>

/** A letter and the one of another script that looks the same (Cyrillic and Greek). */
const LOOK_ALIKES: Record<string, string> = {
  a: 'а',
  c: 'с',
  e: 'е',
  o: 'о',
  p: 'р',
  x: 'х',
  y: 'у',
  A: 'Α',
  B: 'Β',
  E: 'Ε',
  K: 'Κ',
  M: 'Μ',
  T: 'Τ'
}

/**
 * Forms a secret is NOT redacted in: each would take one more decoding, and there is always one
 * more. The action cuts what it writes of the platform's answers instead (docs/security.md).
 */
export const NOT_REDACTED = {
  // Written to slip past a filter: the key still reads as itself to a person.
  lookAlikeLetters: (s) => [...s].map((char) => LOOK_ALIKES[char] ?? char).join(''),
  combiningAccents: (s) => [...s].map((char) => `${char}\u0301`).join(''),
  htmlCommentSplit: (s) => `${s.slice(0, s.length / 2)}<!-- -->${s.slice(s.length / 2)}`,
  dotted: (s) => [...s].join('.'),
  spaced: (s) => [...s].join(' '),
  zeroWidthSplit: (s) => [...s].join('\u200b'),
  // Markup, a normalising service, a byte dump.
  htmlEntities: (s) => [...s].map((char) => `&#${char.codePointAt(0)};`).join(''),
  upperCase: (s) => s.toUpperCase(),
  hex: (s) => Buffer.from(s, 'utf8').toString('hex')
} satisfies Record<string, (secret: string) => string>

/** Percent-decoding, as a URL decoder reads it (invalid UTF-8 becomes U+FFFD). */
function percentDecode(text: string): string {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) =>
    Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8')
  )
}

const SHORT: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }

/** JSON's backslash escapes. */
function jsonDecode(text: string): string {
  return text.replace(
    /\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g,
    (_, unit?: string, short: string = '') =>
      unit === undefined ? (SHORT[short] ?? short) : String.fromCharCode(parseInt(unit, 16))
  )
}

/** `text` with each line break, and the spaces and tabs around it, left out. */
export function joinLines(text: string): string {
  return text.replace(/[ \t]*[\r\n][ \t]*/g, '')
}

const DECODERS = [percentDecode, jsonDecode, (text: string) => jsonDecode(percentDecode(text))]

/** Every reading of `text`: as given and through each decoder up to twice, lines joined. */
export function readings(text: string): string[] {
  const once = DECODERS.map((decode) => decode(text))
  const twice = once.flatMap((form) => DECODERS.map((decode) => decode(form)))
  return [...new Set([text, ...once, ...twice].map(joinLines))]
}

/** Every run of `width` items of `list`; the whole of it when it is shorter. */
function partsOf<T extends string | Buffer>(list: T, width: number): T[] {
  if (list.length <= width) return [list]
  return Array.from({ length: list.length - width + 1 }, (_, i) => list.slice(i, i + width) as T)
}

/**
 * How `text` gives `secret` away in a form it is redacted in, one line per way found (none: it
 * does not): `PART` characters of it in a row (or all of it) in any reading of the text, or
 * `base64Bytes` of its bytes decoded from a run of base64 or base64url read from any of its four
 * offsets. Base64 writes 6 bits a character, so a window of whole characters holds 15 or 16 bytes
 * by where it falls: a text that is to be left alone is checked with `PART - 1`.
 */
export function giveaways(text: string, secret: string, base64Bytes = PART): string[] {
  const found: string[] = []
  const needle = joinLines(secret)
  if (needle.length < 4) return found
  const parts = partsOf(needle, PART)
  const byteParts = partsOf(Buffer.from(secret, 'utf8'), base64Bytes)
  for (const reading of readings(text)) {
    const part = parts.find((p) => reading.includes(p))
    if (part) found.push(`"${part}" in ${JSON.stringify(reading)}`)
    for (const run of reading.match(/[A-Za-z0-9+/_-]{4,}/g) ?? []) {
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
