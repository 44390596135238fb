/** Longest job id accepted, from the platform, an input or a record on a pull request. */
export const MAX_JOB_ID_LENGTH = 256

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * What makes `id` unusable, in words that follow "the id …". A job id is the platform's opaque
 * string: only what no request or text can carry faithfully is refused, and `.` or `..`, which
 * every URL parser resolves as a step in the path, encoded or not.
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

// Unreserved in a URL, and no syntax in HTML, a YAML scalar or a shell word (`~` is).
const KEPT = /[A-Za-z0-9_.:-]/

/**
 * `id` where text could be read as syntax (the `job-id` output, a docs check's record): other
 * characters as the percent-encoded bytes of their UTF-8, so an id the platform hands out today
 * (`job_` and hex) is itself, and any other is one URL path segment with no space or markup.
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
