/** Longest job id accepted, from the platform, an input or a record. */
export const MAX_JOB_ID_LENGTH = 256

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Why an opaque id is unusable, after "the id …" (`.`, `..`: path steps to every URL parser). */
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

/** `id` where text could be read as syntax: today's ids (`job_` and hex) stay as they are. */
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

/** Undefined when the percent-encoding is broken. */
export function decodeJobId(text: string): string | undefined {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}
