/**
 * How each input's text becomes a value: one zod schema per kind of input, with its limits and
 * messages that say what is accepted; those that name things on GitHub are in `names.ts`. Pure;
 * reading the inputs and naming them is `inputs.ts`'s.
 */
import { z } from 'zod'
import { formatDuration, isBareNumber, parseDuration, type BareUnit } from '../duration.js'
import { decodeJobId, jobIdProblem } from '../job-id.js'
import { API_KEYS_PAGE } from '../errors.js'
import { hasControlCharacters, quoteValue } from '../sanitize.js'
import { isLoopback } from '../http.js'

/** Longest `timeout` accepted; self-hosted runners allow long jobs, but not unbounded ones. */
export const MAX_DURATION_MS = 24 * 3_600_000

/** Largest `context-max-chars` accepted. */
export const MAX_CONTEXT_CHARS = 200_000

const required = (what: string) =>
  z.string().refine((value) => value.trim() !== '', { message: `is required: ${what}` })

/**
 * An invalid value as a message quotes it: redacted, escaped and cut short (`quoteValue`), and not
 * at all when a word of it looks like a key or a token that was never registered as a secret
 * (given to the wrong input), since a message naming the input is enough to find it.
 */
export function quoted(text: string): string {
  const shown = quoteValue(text)
  const words = shown.split(/[\s"'`=:,;()<>[\]{}]+/)
  if (looksLikeSecret(shown) || words.some((word) => looksLikeSecret(word))) {
    return 'a value that looks like a key or a token (not shown)'
  }
  return `"${shown}"`
}

/** `true` or `false`, in any case; anything else is an error rather than false. */
export const booleanInput = z.string().transform((text, ctx) => {
  const value = text.trim().toLowerCase()
  if (value === 'true') return true
  if (value === 'false') return false
  ctx.addIssue({ code: 'custom', message: `${quoted(text)} is not a boolean; use true or false` })
  return z.NEVER
})

/** The unit a bare number is read in, in words. */
const BARE_UNIT = { s: 'seconds', m: 'minutes' } as const

/**
 * Shortest `poll-interval` and `max-poll-interval`. They also pace the retries after a failed
 * request, so a shorter one would send the API a request every few milliseconds for nothing: a
 * job takes minutes, and one second is as soon as anyone needs to hear that it ended.
 */
export const MIN_POLL_INTERVAL_MS = 1_000

/**
 * Shortest `timeout`. Below 10 s the step's parts no longer fit in it: each GitHub budget is its
 * share of the timeout but never under 1 s, and the smallest share (a tenth, for the last
 * writes) reaches 1 s only at 10 s; and the last look at the job keeps up to 5 s before the
 * deadline, which leaves as long again to start the job and follow it. A shorter timeout could
 * only start a job and abandon it.
 */
export const MIN_TIMEOUT_MS = 10_000

/**
 * A duration from `minMs` to 24 hours; a bare number is read in `bare` (`timeout` counts minutes,
 * as workflows do). `why` says in a few words why shorter ones are refused.
 */
export const durationInput = (bare: BareUnit, minMs: number, why: string) =>
  z.string().transform((text, ctx) => {
    const ms = parseDuration(text, bare)
    if (ms === undefined) {
      ctx.addIssue({
        code: 'custom',
        message:
          `${quoted(text)} is not a duration; use a number with ms, s, m or h (90s, 1.5m, ` +
          `1h), or a bare number of ${BARE_UNIT[bare]}`
      })
      return z.NEVER
    }
    const read = isBareNumber(text) ? ` (read as ${BARE_UNIT[bare]})` : ''
    if (ms < minMs) {
      ctx.addIssue({
        code: 'custom',
        message:
          `must be at least ${formatDuration(minMs)} (${why}), got ${quoted(text)}${read}; ` +
          `use a duration from ${formatDuration(minMs)} to 24h`
      })
      return z.NEVER
    }
    if (ms > MAX_DURATION_MS) {
      ctx.addIssue({ code: 'custom', message: `must be at most 24h, got ${quoted(text)}${read}` })
      return z.NEVER
    }
    return ms
  })

/** `auto` or `off`, as `context` and `comment` take. */
export const autoOrOff = z.string().transform((text, ctx) => {
  const value = text.trim().toLowerCase()
  if (value === 'auto' || value === 'off') return value
  ctx.addIssue({ code: 'custom', message: `${quoted(text)} is not one of auto, off` })
  return z.NEVER
})

/** `context-max-chars`: a whole number of characters, at most `MAX_CONTEXT_CHARS`. */
export const contextMaxCharsInput = z.string().transform((text, ctx) => {
  const value = Number(text.trim())
  if (!/^\d+$/.test(text.trim()) || value > MAX_CONTEXT_CHARS) {
    ctx.addIssue({
      code: 'custom',
      message: `${quoted(text)} is not a whole number from 0 to ${MAX_CONTEXT_CHARS}`
    })
    return z.NEVER
  }
  return value
})

/** Newline-separated glob patterns, as in a workflow's `paths:` filter. */
export const pathsInput = z.string().transform((text, ctx) => {
  const patterns = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
  for (const pattern of patterns) {
    const glob = pattern.startsWith('!') ? pattern.slice(1) : pattern
    const problem =
      glob === ''
        ? 'is empty after "!"'
        : hasControlCharacters(glob)
          ? 'contains control characters'
          : unbalanced(glob)
    if (problem) {
      ctx.addIssue({ code: 'custom', message: `pattern ${quoted(pattern)} ${problem}` })
      return z.NEVER
    }
  }
  if (patterns.length > 0 && patterns.every((p) => p.startsWith('!'))) {
    ctx.addIssue({
      code: 'custom',
      message: 'has only "!" patterns, which match nothing; add a pattern that includes files'
    })
    return z.NEVER
  }
  return patterns
})

/** Why a glob's brackets or braces do not close, or undefined when they do. */
function unbalanced(glob: string): string | undefined {
  let square = 0
  let curly = 0
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]
    if (c === '\\') i++
    else if (c === '[') square++
    else if (c === ']' && square > 0) square--
    else if (c === '{') curly++
    else if (c === '}' && curly > 0) curly--
  }
  if (square > 0) return 'has a "[" that is not closed'
  if (curly > 0) return 'has a "{" that is not closed'
  return undefined
}

// An HTTP header can carry only visible ASCII safely; a key with anything else (a smart quote or
// a zero-width space from a copy and paste) could never be sent.
export const apiKeyInput = required('an admin API key (mint_…), passed from a secret').refine(
  (key) => /^[\x21-\x7e]+$/.test(key.trim()),
  {
    message:
      'contains whitespace, control or non-ASCII characters (such as a smart quote or a ' +
      'zero-width space), which an HTTP header cannot carry; copy the key again from the API ' +
      'keys page'
  }
)

/**
 * `job-id`: the id as the job-id output gives it (`encodeJobId`: percent-encoded outside letters,
 * digits and `_ . : -`), and parsed into the id itself. An id typed as the dashboard shows it
 * is taken too when it holds no `%`. Whatever an id can be (`jobIdProblem`) is accepted.
 */
export const jobIdInput = z
  .string()
  .trim()
  .refine((id) => id !== '', { message: 'is blank; give the id of an agent job, or leave it out' })
  .transform((text, context) => {
    const id = decodeJobId(text)
    if (id === undefined) {
      context.addIssue({
        code: 'custom',
        message:
          'has a "%" that does not start a percent-encoded UTF-8 character; give the id as the ' +
          'job-id output gives it (a "%" in an id is written %25)'
      })
      return z.NEVER
    }
    const problem = jobIdProblem(id)
    if (problem) {
      context.addIssue({
        code: 'custom',
        message: `${problem}; copy the id from the job-id output`
      })
      return z.NEVER
    }
    return id
  })

/**
 * What a key or a token looks like, by the shapes their issuers give them. A project id is none
 * of these: it is an opaque id (hex, or letters and digits with `-` and `_`).
 */
const SECRET_SHAPES: readonly RegExp[] = [
  // A Mintlify admin API key.
  /^mint_/,
  // GitHub's tokens: personal, OAuth, user-to-server, installation and refresh tokens, and
  // fine-grained personal access tokens.
  /^gh[pousr]_/,
  /^github_pat_/,
  // A JSON Web Token: three base64url parts, the first a JSON header (`{"` is `eyJ`).
  /^eyJ[A-Za-z0-9_-]*=*\.[A-Za-z0-9_-]+=*\.[A-Za-z0-9_-]*=*$/,
  // An Authorization header's value, scheme and credentials.
  /^(?:bearer|basic|token)\s+\S/i
]

/**
 * Whether `value` looks like an API key or a token rather than an id: it has a secret's shape,
 * or it is one of `secrets` (the api-key and the GitHub tokens given to this step).
 */
export function looksLikeSecret(value: string, secrets: readonly string[] = []): boolean {
  const text = value.trim()
  if (text === '') return false
  return (
    SECRET_SHAPES.some((shape) => shape.test(text)) ||
    secrets.some((secret) => secret.trim() !== '' && secret.trim() === text)
  )
}

/**
 * `project-id`: it becomes part of a URL path, so not `.` or `..`; and it names a public commit
 * status (the docs check) and shows in the log, so a key or a token is refused, without its value
 * in the message: with the two secrets swapped, the key would be published.
 */
export const projectIdInput = (secrets: readonly string[]) =>
  required(`the project id shown on ${API_KEYS_PAGE}`)
    .refine((id) => !looksLikeSecret(id, secrets), {
      message:
        'looks like an API key or a token, not a project id; project-id and api-key were ' +
        `probably swapped. Give the project id shown on ${API_KEYS_PAGE} as project-id, and ` +
        'the admin API key as api-key'
    })
    .refine((id) => !hasControlCharacters(id), { message: 'contains control characters' })
    .refine((id) => id !== '.' && id !== '..', { message: 'cannot be "." or ".."' })

/** `base-url`: https (http only for a loopback host), with no credentials, query or fragment. */
export const baseUrlInput = z.string().transform((text, ctx) => {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: `${quoted(text)} is not an absolute URL such as https://api.mintlify.com`
    })
    return z.NEVER
  }
  const problem =
    url.protocol === 'http:' && !isLoopback(url.hostname)
      ? 'must use https:// (plain http:// is accepted only for localhost and 127.0.0.1)'
      : url.protocol !== 'https:' && url.protocol !== 'http:'
        ? `must be an https:// URL, got ${url.protocol}//`
        : url.username || url.password
          ? 'must not contain credentials; pass the key as api-key'
          : url.search || url.hash
            ? 'must not have a query or fragment'
            : undefined
  if (problem) {
    ctx.addIssue({ code: 'custom', message: problem })
    return z.NEVER
  }
  return url
})

/** `on-code-closed`: what happens to the docs pull request when its code is closed unmerged. */
export const onCodeClosedInput = z.string().transform((text, ctx) => {
  const value = text.trim().toLowerCase()
  if (value === 'close' || value === 'comment' || value === 'nothing') return value
  ctx.addIssue({
    code: 'custom',
    message: `${quoted(text)} is not one of close, comment, nothing`
  })
  return z.NEVER
})
