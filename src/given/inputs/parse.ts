// How each input's text becomes a value, with messages that say what is accepted. Pure.
import { z } from 'zod'
import { formatDuration, isBareNumber, parseDuration, type BareUnit } from '../../base/duration.js'
import { API_KEYS_PAGE } from '../../base/errors.js'
import { isLoopback } from '../../base/http.js'
import { decodeJobId, jobIdProblem } from '../../base/job-id.js'
import { hasControlCharacters, quoteValue } from '../../base/sanitize.js'

/** Why an input's text was refused, in words that follow its name. */
class Refused {
  readonly message: string
  constructor(message: string) {
    this.message = message
  }
}

/** The schema of an input whose text `read` turns into a value, or refuses. */
export function textInput<T>(read: (text: string) => T | Refused): z.ZodType<T, string> {
  return z.string().transform((text, ctx) => {
    const value = read(text)
    if (!(value instanceof Refused)) return value
    ctx.addIssue({ code: 'custom', message: value.message })
    return z.NEVER
  })
}

export const refuse = (message: string) => new Refused(message)

const required = (what: string) =>
  z.string().refine((value) => value.trim() !== '', { message: `is required: ${what}` })

/** An invalid value as a message quotes it; not at all if it looks like an unregistered secret. */
export function quoted(text: string): string {
  const shown = quoteValue(text)
  const words = shown.split(/[\s"'`=:,;()<>[\]{}]+/)
  if (looksLikeSecret(shown) || words.some((word) => looksLikeSecret(word))) {
    return 'a value that looks like a key or a token (not shown)'
  }
  return `"${shown}"`
}

/** `true` or `false`, in any case; anything else is an error rather than false. */
export const booleanInput = textInput((text) => {
  const value = text.trim().toLowerCase()
  if (value === 'true' || value === 'false') return value === 'true'
  return refuse(`${quoted(text)} is not a boolean; use true or false`)
})

const BARE_UNIT = { s: 'seconds', m: 'minutes' } as const

/** Shortest poll interval: a job takes minutes, and a second is as soon as anyone needs to know. */
export const MIN_POLL_INTERVAL_MS = 1_000

/**
 * Shortest `timeout`: each GitHub budget is a share of it but at least 1 s (a tenth, for the last
 * writes, reaches 1 s at 10 s), and the last look at the job keeps up to 5 s before the deadline.
 * A shorter timeout could only start a job and abandon it.
 */
export const MIN_TIMEOUT_MS = 10_000

const MAX_DURATION_MS = 24 * 3_600_000

/** A duration from `minMs` to 24 hours, a bare number in `bare`; `why` shorter ones are refused. */
const durationInput = (bare: BareUnit, minMs: number, why: string) =>
  textInput((text) => {
    const ms = parseDuration(text, bare)
    if (ms === undefined) {
      return refuse(
        `${quoted(text)} is not a duration; use a number with ms, s, m or h (90s, 1.5m, ` +
          `1h), or a bare number of ${BARE_UNIT[bare]}`
      )
    }
    const read = isBareNumber(text) ? ` (read as ${BARE_UNIT[bare]})` : ''
    if (ms < minMs) {
      return refuse(
        `must be at least ${formatDuration(minMs)} (${why}), got ${quoted(text)}${read}; ` +
          `use a duration from ${formatDuration(minMs)} to 24h`
      )
    }
    if (ms > MAX_DURATION_MS) return refuse(`must be at most 24h, got ${quoted(text)}${read}`)
    return ms
  })

export const timeoutInput = durationInput(
  'm',
  MIN_TIMEOUT_MS,
  'the shortest in which the step can start the job and still look at it before its deadline'
)

export const pollIntervalInput = durationInput(
  's',
  MIN_POLL_INTERVAL_MS,
  'status checks and retries more often than once a second only load the API'
)

function oneOf<T extends string>(...values: T[]) {
  return textInput((text) => {
    const value = text.trim().toLowerCase()
    const known = values.find((v) => v === value)
    return known ?? refuse(`${quoted(text)} is not one of ${values.join(', ')}`)
  })
}

export const autoOrOff = oneOf('auto', 'off')

export const onCodeClosedInput = oneOf('close', 'comment', 'nothing')

const MAX_CONTEXT_CHARS = 200_000

export const contextMaxCharsInput = textInput((text) => {
  const value = Number(text.trim())
  if (/^\d+$/.test(text.trim()) && value <= MAX_CONTEXT_CHARS) return value
  return refuse(`${quoted(text)} is not a whole number from 0 to ${MAX_CONTEXT_CHARS}`)
})

/** Newline-separated glob patterns, as in a workflow's `paths:` filter. */
export const pathsInput = textInput((text) => {
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
    if (problem) return refuse(`pattern ${quoted(pattern)} ${problem}`)
  }
  if (patterns.length > 0 && patterns.every((p) => p.startsWith('!'))) {
    return refuse('has only "!" patterns, which match nothing; add a pattern that includes files')
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

// An HTTP header carries only visible ASCII safely; a key with a smart quote or a zero-width
// space from a copy and paste could never be sent.
export const apiKeyInput = required('an admin API key (mint_…), passed from a secret').refine(
  (key) => /^[\x21-\x7e]+$/.test(key.trim()),
  {
    message:
      'contains whitespace, control or non-ASCII characters (such as a smart quote or a ' +
      'zero-width space), which an HTTP header cannot carry; copy the key again from the API ' +
      'keys page'
  }
)

/** `job-id`: as the job-id output encodes it, or as the dashboard shows it when it has no `%`. */
export const jobIdInput = z
  .string()
  .trim()
  .refine((id) => id !== '', { message: 'is blank; give the id of an agent job, or leave it out' })
  .pipe(
    textInput((text) => {
      const id = decodeJobId(text)
      if (id === undefined) {
        return refuse(
          'has a "%" that does not start a percent-encoded UTF-8 character; give the id as the ' +
            'job-id output gives it (a "%" in an id is written %25)'
        )
      }
      const problem = jobIdProblem(id)
      return problem ? refuse(`${problem}; copy the id from the job-id output`) : id
    })
  )

/** What a key or a token looks like, by the shapes their issuers give them; no project id does. */
const SECRET_SHAPES: readonly RegExp[] = [
  /^mint_/,
  // GitHub's personal, OAuth, user-to-server, installation, refresh and fine-grained tokens.
  /^gh[pousr]_/,
  /^github_pat_/,
  // A JSON Web Token: three base64url parts, the first a JSON header (`{"` is `eyJ`).
  /^eyJ[A-Za-z0-9_-]*=*\.[A-Za-z0-9_-]+=*\.[A-Za-z0-9_-]*=*$/,
  // An Authorization header's value.
  /^(?:bearer|basic|token)\s+\S/i
]

/** Whether `value` has a secret's shape, or is one of `secrets` (the step's key and tokens). */
export function looksLikeSecret(value: string, secrets: readonly string[] = []): boolean {
  const text = value.trim()
  if (text === '') return false
  return (
    SECRET_SHAPES.some((shape) => shape.test(text)) ||
    secrets.some((secret) => secret.trim() !== '' && secret.trim() === text)
  )
}

/** `project-id`: a URL path segment, and public (a commit status), so never a key or a token. */
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
export const baseUrlInput = textInput((text) => {
  if (!URL.canParse(text)) {
    return refuse(`${quoted(text)} is not an absolute URL such as https://api.mintlify.com`)
  }
  const url = new URL(text)
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    return refuse('must use https:// (plain http:// is accepted only for localhost and 127.0.0.1)')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return refuse(`must be an https:// URL, got ${url.protocol}//`)
  }
  if (url.username || url.password) {
    return refuse('must not contain credentials; pass the key as api-key')
  }
  return url.search || url.hash ? refuse('must not have a query or fragment') : url
})
