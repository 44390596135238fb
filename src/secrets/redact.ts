/**
 * The registry of secrets, and `redact`, which removes them from a text in every form `forms.ts`
 * compiles, with the credentials of every URL. Everything the action prints, outputs, renders or
 * sends to GitHub passes through it first (see `sanitize.ts`).
 */
import { BASE64_CHAR, compile, type Form } from './forms.js'

/**
 * Values that must never appear in anything the action writes (the API key and the tokens, as
 * `inputs.ts` registers them), each with the forms it is looked for in.
 */
const secrets = new Map<string, readonly Form[]>()

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
