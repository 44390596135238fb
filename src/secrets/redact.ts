/**
 * The registry of secrets, and `redact`, which cuts them from a text in every form `forms.ts`
 * names, with the credentials of every URL. Everything the action prints, outputs, renders or
 * sends to GitHub passes through it first (see `sanitize.ts`). The text is read once into its
 * skeleton (`skeleton.ts`), every window of every secret is found there in one scan per width
 * (`windows.ts`), and each match cuts the span of the original text it was read from.
 */
import { needlesOf, type View } from './forms.js'
import { depths, layerOf, textOf, type Layer, type Units } from './skeleton.js'
import { Windows } from './windows.js'

/** The windows of every registered secret, by the view they are compared with and their width. */
class Finder {
  private readonly groups = new Map<string, { view: View; widen: boolean; windows: Windows }>()

  get empty(): boolean {
    return this.groups.size === 0
  }

  add(secret: string): void {
    for (const needle of needlesOf(secret)) {
      const key = `${needle.view} ${needle.width} ${needle.widen}`
      let group = this.groups.get(key)
      if (!group) {
        group = { view: needle.view, widen: needle.widen, windows: new Windows(needle.width) }
        this.groups.set(key, group)
      }
      group.windows.add(needle.codes)
    }
  }

  /** Adds to `spans` the span in the original text of every window found in `text`. */
  collect(text: Layer, spans: Spans): void {
    for (const { view, widen, windows } of this.groups.values()) {
      const units = text[view]
      windows.find(units.codes, units.length, (start, end) => {
        if (widen && start > 0 && isBase64(units.codes[start - 1])) start -= 1
        if (widen && end < units.length && isBase64(units.codes[end])) end += 1
        spans.add(units.starts[start] ?? 0, units.ends[end - 1] ?? 0)
      })
    }
  }
}

/** A base64 character, in the base64 view (where url-safe `-` and `_` read as `+` and `/`). */
function isBase64(code: number | undefined): boolean {
  if (code === undefined) return false
  const lower = code | 0x20
  return (
    (lower >= 0x61 && lower <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2b ||
    code === 0x2f
  )
}

/** Spans of a text to cut, gathered in any order; consecutive overlapping ones kept as one. */
class Spans {
  readonly list: [number, number][] = []

  add(start: number, end: number): void {
    if (end <= start) return
    const last = this.list.at(-1)
    if (last && start >= last[0] && start <= last[1]) last[1] = Math.max(last[1], end)
    else this.list.push([start, end])
  }
}

/**
 * Values that must never appear in anything the action writes (the API key and the tokens, as
 * `inputs.ts` registers them), and every window of their forms.
 */
const registered = new Set<string>()
let finder = new Finder()

/**
 * Adds a value that every later `redact` and `forLog` removes, in every form it is looked for in
 * (see `forms.ts`), whole or any part of `PART_LENGTH` characters of it. Called by the inputs
 * module the moment each secret is read, before it is checked, so even a message about a bad
 * input is clean. Its windows are indexed here, once, so that redacting costs one scan of the text
 * whatever the secret's length; no value, however long, makes this throw.
 */
export function addSecret(secret: string): void {
  for (const form of [secret, secret.trim()]) {
    if (form === '' || registered.has(form)) continue
    registered.add(form)
    finder.add(form)
  }
}

/** Forgets every secret; for tests that run the action more than once in one process. */
export function clearSecrets(): void {
  registered.clear()
  finder = new Finder()
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

/**
 * Adds the span of the userinfo of each URL in `text` that has one; `units`, when given, is what
 * `text` was read from, and maps its positions back to the original.
 */
function collectCredentials(regex: RegExp, text: string, spans: Spans, units?: Units): void {
  regex.lastIndex = 0
  for (let match = regex.exec(text); match; match = regex.exec(text)) {
    const start = match.index + (match[1] ?? '').length
    const end = start + (match[2] ?? '').length
    // Userinfo already cut (`https://***@host`, written in entities in markup) stays as it is.
    if (end <= start || match[2] === '***') continue
    if (units) spans.add(units.starts[start] ?? 0, units.ends[end - 1] ?? 0)
    else spans.add(start, end)
  }
}

/** How many backslashes stand right before `index`. */
function backslashesBefore(text: string, index: number): number {
  let count = 0
  while (index - count > 0 && text.charAt(index - count - 1) === '\\') count += 1
  return count
}

/** Characters that can start an escape: without any, a text decodes to itself. */
const ESCAPE_START = /[%&\\]/

/**
 * Replaces every registered secret, in every form it is looked for in (see `addSecret`), and the
 * credentials of every URL (`https://user:token@host` → `https://***@host`, also when the URL is
 * percent-encoded or written in entities) with `***`. All the matches are found in the text's
 * skeleton, overlapping ones too, and each run of them becomes one `***` in the text as given, so
 * no secret can hide another and no cut leaves part of one, or half an escape, behind. `extra`
 * adds values for this call only.
 */
export function redact(text: string, extra: readonly string[] = []): string {
  if (text === '') return text
  const spans = new Spans()
  const finders = [finder]
  const more = extra.filter((value) => value && !registered.has(value))
  if (more.length > 0) {
    const once = new Finder()
    for (const value of more) once.add(value)
    finders.push(once)
  }
  const looked = finders.some((f) => !f.empty)
  collectCredentials(URL_CREDENTIALS, text, spans)
  if (/%40/i.test(text)) collectCredentials(ENCODED_URL_CREDENTIALS, text, spans)
  if (looked || ESCAPE_START.test(text)) {
    let depth = 0
    for (const units of depths(text)) {
      if (looked) {
        const layer = layerOf(units, depth)
        for (const f of finders) f.collect(layer, spans)
      }
      // A URL written in escapes has its credentials read where they are decoded.
      if (depth > 0) collectCredentials(URL_CREDENTIALS, textOf(units), spans, units)
      depth += 1
    }
  }
  if (spans.list.length === 0) return text

  const sorted = spans.list.sort((a, b) => a[0] - b[0])
  let result = ''
  let done = 0
  for (let i = 0; i < sorted.length;) {
    let [start, end] = sorted[i] as [number, number]
    for (i += 1; i < sorted.length && (sorted[i] as [number, number])[0] <= end; i += 1) {
      end = Math.max(end, (sorted[i] as [number, number])[1])
    }
    // Never leave half an escape: `\` + `***` would make the JSON of the job output unreadable.
    if (backslashesBefore(text, start) % 2 === 1) start -= 1
    result += text.slice(done, Math.max(done, start)) + '***'
    done = Math.max(done, end)
  }
  return result + text.slice(done)
}
