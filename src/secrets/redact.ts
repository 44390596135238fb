/**
 * The registry of the values the action must never write (the API key and the GitHub tokens), and
 * `redact`, which cuts them, and the credentials of every URL, from a text. Everything the action
 * prints, outputs, renders or sends to GitHub passes through it (see `sanitize.ts`). A value is
 * found as written, URL-encoded, JSON-escaped, wrapped over lines (see `readings.ts`) and in
 * base64 or base64url, whole or any `PART_LENGTH` characters of it. Other encodings are not looked
 * through: less of what the platform says is written at all (docs/security.md).
 */
import { joinLines, readings } from './readings.js'

/**
 * How many characters of a value, in a row, are cut wherever they appear; a shorter value is cut
 * only whole. A part this long of a key or token (`mint_…`, `ghp_…`, `github_pat_…`) always holds
 * characters past its public prefix and is never met by chance in ordinary text, while shorter
 * pieces a value shares with ordinary words are left alone.
 */
export const PART_LENGTH = 16

/** The same part in base64: 16 bytes always give 20 characters made of their bits alone. */
const BASE64_PART_LENGTH = 20

/** Shortest value looked for: anything shorter would cut ordinary words. */
const MIN_SECRET_LENGTH = 4

/** Shortest base64 run looked for: 36 bits, which ordinary text does not hit by chance. */
const MIN_BASE64_LENGTH = 6

/** Every window of some forms, by width: each run of `width` characters of a form. */
class Windows {
  private readonly byWidth = new Map<number, Set<string>>()
  private readonly part: number

  constructor(part: number) {
    this.part = part
  }

  add(form: string): void {
    const width = Math.min(form.length, this.part)
    let held = this.byWidth.get(width)
    if (!held) this.byWidth.set(width, (held = new Set()))
    for (let i = 0; i + width <= form.length; i++) held.add(form.slice(i, i + width))
  }

  /** Calls `found` with the range of every window of `text` that is held. */
  find(text: string, found: (start: number, end: number) => void): void {
    for (const [width, held] of this.byWidth) {
      for (let i = 0; i + width <= text.length; i++) {
        if (held.has(text.slice(i, i + width))) found(i, i + width)
      }
    }
  }
}

/**
 * The runs of base64 that encode `bytes` wherever they sit in a longer base64 text, standard and
 * url-safe. Base64 turns each 3 bytes into 4 characters, so a value encodes one of three ways, by
 * its offset in what was encoded (`Bearer <key>`, `x-access-token:<token>`, a whole echoed
 * request); for each, the characters made of the value's bits alone are the same whatever
 * surrounds it.
 */
export function base64Runs(bytes: Uint8Array): string[] {
  const runs: string[] = []
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
    const run = encoded.slice(
      Math.ceil((8 * offset) / 6),
      Math.floor((8 * (offset + bytes.length)) / 6)
    )
    if (run.length >= MIN_BASE64_LENGTH) runs.push(run, run.replace(/\+/g, '-').replace(/\//g, '_'))
  }
  return runs
}

const registered = new Set<string>()
let plain = new Windows(PART_LENGTH)
let base64 = new Windows(BASE64_PART_LENGTH)

/**
 * Adds a value that every later `redact` removes. Called by the inputs module the moment each
 * secret is read, before it is checked, so even a message about a bad input is clean. Its windows
 * are indexed here, once; no value, however long, makes this throw.
 */
export function addSecret(secret: string): void {
  for (const value of [secret, secret.trim()]) {
    const form = joinLines(value)
    if (form.length < MIN_SECRET_LENGTH || registered.has(form)) continue
    registered.add(form)
    plain.add(form)
    for (const run of base64Runs(Buffer.from(value, 'utf8'))) base64.add(run)
  }
}

/** Forgets every secret; for tests that run the action more than once in one process. */
export function clearSecrets(): void {
  registered.clear()
  plain = new Windows(PART_LENGTH)
  base64 = new Windows(BASE64_PART_LENGTH)
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

/** Adds the span of the userinfo of each URL in `text` that has one. */
function collectCredentials(regex: RegExp, text: string, spans: [number, number][]): void {
  for (const match of text.matchAll(regex)) {
    const start = match.index + (match[1] ?? '').length
    // Userinfo already cut (`https://***@host`) stays as it is.
    if (match[2] && match[2] !== '***') spans.push([start, start + match[2].length])
  }
}

/** A base64 or base64url character. */
const BASE64_CHAR = /[A-Za-z0-9+/_-]/

/**
 * Replaces every registered secret (see `addSecret`) and the credentials of every URL
 * (`https://user:token@host` → `https://***@host`, also when the URL is percent-encoded) with
 * `***`. Overlapping matches become one `***` in the text as given, so no secret can hide another
 * and no cut leaves part of one, or half an escape, behind.
 */
export function redact(text: string): string {
  if (text === '') return text
  const spans: [number, number][] = []
  collectCredentials(URL_CREDENTIALS, text, spans)
  if (/%40/i.test(text)) collectCredentials(ENCODED_URL_CREDENTIALS, text, spans)
  if (registered.size > 0) {
    for (const { text: read, starts, ends } of readings(text)) {
      const cut = (start: number, end: number) =>
        spans.push([starts[start] ?? 0, ends[end - 1] ?? 0])
      plain.find(read, cut)
      // The base64 character on each side of a run mixes the value's bits with the text's.
      base64.find(read, (start, end) =>
        cut(
          start > 0 && BASE64_CHAR.test(read.charAt(start - 1)) ? start - 1 : start,
          BASE64_CHAR.test(read.charAt(end)) ? end + 1 : end
        )
      )
    }
  }
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
    done = Math.max(done, end)
  }
  return result + text.slice(done)
}

/** How many backslashes stand right before `index`. */
function backslashesBefore(text: string, index: number): number {
  let count = 0
  while (index - count > 0 && text.charAt(index - count - 1) === '\\') count += 1
  return count
}
