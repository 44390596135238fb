/**
 * The values the action must never write (the API key, the GitHub tokens), and `redact`, which
 * cuts them and URL credentials from everything it prints, outputs or sends (see `sanitize.ts`).
 * Other encodings than those `readings.ts` and base64 undo are a limit (docs/security.md).
 */
import { joinLines, readings } from './readings.js'

/** Characters of a value in a row that are cut: past any token's prefix, never met by chance. */
export const PART_LENGTH = 16

/** The same part in base64: 16 bytes always give 20 characters made of their bits alone. */
const BASE64_PART_LENGTH = 20

/** Shortest value and base64 run looked for: shorter ones would cut ordinary words. */
const MIN_SECRET_LENGTH = 4
const MIN_BASE64_LENGTH = 6

/** Every run of `part` characters of some forms (a shorter form whole), by width. */
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

  find(text: string, found: (start: number, end: number) => void): void {
    for (const [width, held] of this.byWidth) {
      for (let i = 0; i + width <= text.length; i++) {
        if (held.has(text.slice(i, i + width))) found(i, i + width)
      }
    }
  }
}

/**
 * The base64 and base64url characters made of `bytes`' bits alone, for each of the three offsets
 * they can have in what was encoded (`Bearer <key>`, basic auth, a whole echoed request).
 */
function base64Runs(bytes: Uint8Array): string[] {
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
 * Adds a value every later `redact` removes; the inputs module calls it as each secret is read,
 * before it is checked. Indexed once here; no value, however long, makes this throw.
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
 * The userinfo of a URL, up to the last `@`. Web schemes parse with any slashes (JSON's `\/` too);
 * it stops where a JSON string, an HTML attribute or a tag would end.
 */
const URL_CREDENTIALS =
  /\b((?:https?|wss?|ftps?):[\\/]*|[a-z][a-z0-9+.-]*:(?:\\?\/){2})([^\s/\\?#"<>`]*)@/gi

/** The same in a percent-encoded URL (one carried in a query parameter). */
const ENCODED_URL_CREDENTIALS =
  /\b([a-z][a-z0-9+.-]*%3A(?:%2F){2})((?:[^\s/\\?#"<>`%&=]|%(?!2F|3F|23)[0-9A-F]{2})*)%40/gi

function collectCredentials(regex: RegExp, text: string, spans: [number, number][]): void {
  for (const match of text.matchAll(regex)) {
    const start = match.index + (match[1] ?? '').length
    // Userinfo already cut (`https://***@host`) stays as it is.
    if (match[2] && match[2] !== '***') spans.push([start, start + match[2].length])
  }
}

const BASE64_CHAR = /[A-Za-z0-9+/_-]/

/**
 * Replaces each registered secret and URL credentials (`https://***@host`) with `***`; overlapping
 * matches become one cut of the text as given, never leaving part of one or half an escape.
 */
export function redact(text: string): string {
  if (text === '') return text
  const spans: [number, number][] = []
  collectCredentials(URL_CREDENTIALS, text, spans)
  if (/%40/i.test(text)) collectCredentials(ENCODED_URL_CREDENTIALS, text, spans)
  if (registered.size > 0) {
    for (const { text: read, starts, ends } of readings(text)) {
      const cut = (start: number, end: number) =>
        spans.push([starts[start] ?? start, ends[end - 1] ?? end])
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

function backslashesBefore(text: string, index: number): number {
  let count = 0
  while (index - count > 0 && text.charAt(index - count - 1) === '\\') count += 1
  return count
}
