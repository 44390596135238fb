/** Longest job id accepted, from the platform, an input or a record on a pull request. */
export const MAX_JOB_ID_LENGTH = 256

// No id the platform hands out holds C0 or C1 control characters or DEL, and none could be shown
// or sent back faithfully.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

// Half of a surrogate pair alone: not a character, and no UTF-8 (a URL, a header) can carry it.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * What makes `id` unusable as a job id, in words that follow "the id …"; undefined when it can be
 * used. The platform documents a job id as a plain string with no pattern, so any characters are
 * taken: the id is sent back as one encoded path segment and published only encoded or escaped.
 * Refused is only what cannot be an id: nothing, control characters, half a character, `.` and
 * `..` (every URL parser resolves them as a step in the path, encoded or not), or more than
 * `MAX_JOB_ID_LENGTH` characters.
 */
export function jobIdProblem(id: string): string | undefined {
  if (id === '') return 'is empty'
  if (CONTROL.test(id)) return 'contains control characters'
  if (LONE_SURROGATE.test(id)) return 'contains half of a character (a lone surrogate)'
  if (id === '.' || id === '..') return 'cannot be "." or ".."'
  if (id.length > MAX_JOB_ID_LENGTH) return `is longer than ${MAX_JOB_ID_LENGTH} characters`
  return undefined
}

const ENCODER = new TextEncoder()

// Unreserved in a URL and no syntax in HTML, a YAML scalar or a shell word (unlike `~`, which a
// shell expands and YAML reads as null).
const KEPT = /[A-Za-z0-9_.:-]/

/**
 * `id` as it is published where text could be read as syntax (the `job-id` output, the record in
 * a docs check's description): every character outside letters, digits and `_ . : -` written as
 * the percent-encoded bytes of its UTF-8, so the result is one URL path segment with no space,
 * markup or line break. An id the platform hands out today (`job_` and hex) is itself.
 */
export function encodeJobId(id: string): string {
  let out = ''
  for (const char of id) {
    if (KEPT.test(char)) out += char
    else
      for (const byte of ENCODER.encode(char))
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

/** The id `text` encodes (`encodeJobId`), or undefined when its percent-encoding is broken. */
export function decodeJobId(text: string): string | undefined {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}
