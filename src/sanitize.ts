/**
 * Text from the network (error bodies, job fields) is untrusted: on a runner, a log line that
 * starts with `::` is a workflow command and `##[` anywhere is the legacy form. These helpers make
 * such text inert before it reaches the log, the job summary or an output.
 */

/** Longest piece of untrusted text quoted in one message. */
export const MAX_QUOTED_LENGTH = 300

const ZERO_WIDTH_SPACE = '\u200b'

// Every C0/C1 control character and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/** Whether `text` holds a control character (or a Unicode line or paragraph separator). */
export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text)
}

/** Breaks the workflow-command markers in one line without changing how it reads. */
function defuseLine(line: string): string {
  const broken = line.replaceAll('##[', `##${ZERO_WIDTH_SPACE}[`)
  return broken.replace(/^(\s*):(?=:)/, `$1:${ZERO_WIDTH_SPACE}`)
}

/**
 * Makes untrusted text safe to quote inside a log line: one line (control characters shown as
 * escapes), no workflow-command markers, and at most `max` characters.
 */
export function quote(text: string, max = MAX_QUOTED_LENGTH): string {
  const single = text.replace(new RegExp(CONTROL, 'g'), (c) => {
    const named = NAMED_ESCAPES[c]
    if (named !== undefined) return named
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
  })
  const cut =
    single.length > max
      ? `${single.slice(0, max)}… (${single.length - max} more characters)`
      : single
  return defuseLine(cut)
}

/**
 * The last line of defence for everything the action prints: no line of `text` can start a
 * workflow command. Our own messages never start with `::`, so this only ever changes text that
 * came from elsewhere.
 */
export function defuseCommands(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map(defuseLine)
    .join('\n')
}

/** Replaces every occurrence of each secret (also in its URL-encoded form) with `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text
  for (const secret of secrets) {
    if (!secret) continue
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      result = result.replaceAll(form, '***')
    }
  }
  return result
}

/** Escapes text for HTML, which is how the job summary renders everything it did not write. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

/**
 * Returns `text` when it is an absolute http(s) URL with no whitespace or control characters (so it
 * is safe to hand to later steps), otherwise undefined.
 */
export function safeHttpUrl(text: string | null | undefined): string | undefined {
  if (!text || /\s/.test(text) || hasControlCharacters(text)) return undefined
  try {
    const url = new URL(text)
    return url.protocol === 'https:' || url.protocol === 'http:' ? text : undefined
  } catch {
    return undefined
  }
}
