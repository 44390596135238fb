/**
 * The job summary rendered from the report, as HTML blocks none of which holds a blank line (one
 * would end GitHub's HTML block and let the rest render as markdown). Pure.
 */
import { cut, escapeMarkup, escapePreformatted } from '../base/sanitize.js'
import { redact } from '../base/secrets/redact.js'
import { messageMarkup } from './links.js'
import { rowsOf, type Report } from './report.js'

/** Longest prompt shown in the job summary; the log shows it whole. */
export const MAX_SUMMARY_PROMPT_LENGTH = 200_000

/** Most bytes of the escaped prompt: GitHub refuses a summary over 1 MiB; escaping can sextuple. */
export const MAX_SUMMARY_PROMPT_BYTES = 512 * 1024

/** What the summary shows beyond the report: what the log said and the step's own failure. */
export interface SummaryExtras {
  /** The warnings the log gave, each once, in order. */
  readonly warned: readonly string[]
  readonly prompt?: string
  readonly failure?: string
}

/** The summary's blocks, in order; the table of facts only once there is a job (`hasJob`). */
export function summaryBlocks(report: Report, extras: SummaryExtras, hasJob: boolean): string[] {
  // A note that was also a warning is listed once, under the warnings.
  const notes = [...report.said, ...report.notes].filter((note) => !extras.warned.includes(note))
  return [
    '<h2>Mintlify agent</h2>',
    `<p>${report.icon} <strong>${escapeMarkup(report.headline)}</strong></p>`,
    ...(hasJob ? [`<table>${rowsOf(report, 'summary')}</table>`] : []),
    ...notes.map((note) => summaryMarkup(note, 2_000)),
    ...(extras.warned.length > 0 ? ['<h3>Warnings</h3>'] : []),
    ...extras.warned.map((warning) => summaryMarkup(warning, 2_000, '⚠️ ')),
    // GitHub's markdown reads everything up to the first blank line after <details> as one HTML
    // block: the escaped prompt has no blank line and no markup, so none of it renders.
    ...(extras.prompt === undefined
      ? []
      : [
          '<details open><summary>The prompt</summary>\n<pre>' +
            summaryPrompt(extras.prompt) +
            '</pre>\n</details>'
        ]),
    ...(extras.failure ? [summaryMarkup(extras.failure, 4_000)] : [])
  ]
}

/**
 * A message as the log shows it: a line each (`- ` lines as a list), `code` spans as `<code>`,
 * the rest escaped with the API keys page linked; redacted and cut to `max` first. `prefix`
 * (markup) starts the first paragraph.
 */
export function summaryMarkup(text: string, max: number, prefix = ''): string {
  const blocks: string[] = []
  let paragraph: string[] = []
  let items: string[] = []
  const flush = () => {
    if (paragraph.length > 0) blocks.push(`<p>${paragraph.join('<br>\n')}</p>`)
    if (items.length > 0)
      blocks.push(`<ul>\n${items.map((i) => `<li>${i}</li>`).join('\n')}\n</ul>`)
    paragraph = []
    items = []
  }
  for (const line of cut(redact(text), max).split(/\r\n|\r|\n/)) {
    const item = /^\s*- (.*)$/.exec(line)
    if (line.trim() === '') flush()
    else if (item) {
      if (paragraph.length > 0) flush()
      items.push(inlineMarkup(item[1] ?? ''))
    } else {
      if (items.length > 0) flush()
      paragraph.push(inlineMarkup(line))
    }
  }
  flush()
  if (prefix === '') return blocks.join('\n')
  const [first = '', ...rest] = blocks
  const led = first.startsWith('<p>')
    ? `<p>${prefix}${first.slice(3)}`
    : `<p>${prefix}</p>\n${first}`
  return [led, ...rest].join('\n')
}

/** One line as markup: paired backticks as `<code>`, the rest as `messageMarkup`. */
function inlineMarkup(line: string): string {
  return line
    .split(/(`[^`]+`)/)
    .map((part, i) =>
      i % 2 === 1
        ? `<code>${escapeMarkup(part.slice(1, -1), Number.POSITIVE_INFINITY)}</code>`
        : messageMarkup(part, Number.POSITIVE_INFINITY)
    )
    .join('')
}

/** The prompt escaped for the summary, cut until it fits in `MAX_SUMMARY_PROMPT_BYTES`. */
function summaryPrompt(prompt: string): string {
  for (let max = MAX_SUMMARY_PROMPT_LENGTH; ; max = Math.floor(max / 2)) {
    const escaped = escapePreformatted(prompt, max)
    if (Buffer.byteLength(escaped) <= MAX_SUMMARY_PROMPT_BYTES) return escaped
  }
}
