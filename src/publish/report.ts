/**
 * The only writer: log lines, annotations, step outputs and the job summary all go out through
 * the `Reporter`. It decides nothing (see `verdict.ts`); it makes every piece of text safe on its
 * way out: secrets redacted, workflow commands defused, sizes capped.
 */
import { accessSync, constants, statSync } from 'node:fs'
import * as core from '@actions/core'
import { formatDuration } from '../duration.js'
import { errorMessage } from '../errors.js'
import { encodeJobId } from '../job-id.js'
import { JOB_FIELDS, type Job } from '../mintlify/job.js'
import type { Preview } from '../mintlify/preview.js'
import { docsChecksMarkup, docsOutcome, outcomeMarkup } from '../present/outcome.js'
import { previewMarkup, previewStatus, previewUrl, previewWords } from '../present/preview.js'
import type { Log } from '../runtime.js'
import {
  cut,
  defuseCommands,
  escapeMarkup,
  escapePreformatted,
  forLog,
  safeLink
} from '../sanitize.js'
import { redact } from '../secrets/redact.js'
import { verdictOf, type Verdict } from '../present/verdict.js'
import type { Mode, RunRecord, RunState } from '../run.js'

/** What the report reads: the run, and where the other sinks wrote. */
export type Reported = RunRecord & Partial<Pick<RunState, 'written' | 'notes' | 'did'>>
import { anchor, messageMarkup, pullMarkup, urlMarkup } from '../present/links.js'

/** Longest annotation written; the runner shows only the start of longer ones anyway. */
export const MAX_ANNOTATION_LENGTH = 4_000

/** Longest value of one output taken from the job's fields. */
export const MAX_FIELD_OUTPUT_LENGTH = 4_000

/** Longest `job` output; a bigger record is written with its known fields only. */
export const MAX_JOB_OUTPUT_LENGTH = 65_536

const TITLE = { title: 'Mintlify agent' }

/** Longest prompt shown in the job summary; the log shows it whole. */
export const MAX_SUMMARY_PROMPT_LENGTH = 200_000

/**
 * Most bytes the escaped prompt may take in the job summary: GitHub refuses a step's summary over
 * 1 MiB, and escaping can make one character six bytes.
 */
export const MAX_SUMMARY_PROMPT_BYTES = 512 * 1024

export class Reporter implements Log {
  private readonly written = new Map<string, string>()
  /** Why `GITHUB_OUTPUT` cannot be written, once a write to it failed: the step then fails. */
  private outputProblem: string | undefined
  private shownPrompt: string | undefined
  /** What the log said so far: each warning is given once a run, and a note not said twice. */
  private readonly said = new Set<string>()
  /** The run's warnings as they were given, each once, in order: the job summary lists them. */
  private readonly warned: string[] = []

  /** Text as it may be printed: without secrets, and unable to start a workflow command. */
  clean(text: string): string {
    return defuseCommands(text)
  }

  info(message: string): void {
    const line = this.clean(message)
    this.said.add(line)
    core.info(line)
  }

  /** A warning, once a run: the same warning again adds nothing to the log or the annotations. */
  warning(message: string): void {
    const line = this.annotation(message)
    if (this.said.has(line)) return
    this.said.add(line)
    this.warned.push(message)
    core.warning(line, TITLE)
  }

  /** A closing note, unless the log already said it, alone or within a warning. */
  private note(message: string): void {
    const line = this.clean(message)
    for (const earlier of this.said) if (earlier.includes(line)) return
    this.info(message)
  }

  debug(message: string): void {
    core.debug(this.clean(message))
  }

  /** The message for an annotation, cleaned and capped. */
  annotation(message: string): string {
    return this.clean(cut(redact(message), MAX_ANNOTATION_LENGTH))
  }

  /**
   * Says why the step fails: one error annotation, titled like the warnings (`core.setFailed`
   * takes no title). The exit code is the entry's (`index.ts`), which ends the process.
   */
  fail(message: string): void {
    core.error(this.annotation(message), TITLE)
  }

  /** Shows the whole prompt in a collapsed log group, and later in the job summary. */
  prompt(prompt: string, title: string): void {
    this.shownPrompt = prompt
    core.startGroup(this.clean(title).replace(/\s+/g, ' '))
    for (const line of prompt.split(/\r?\n/)) core.info(this.clean(line))
    core.endGroup()
  }

  /** Publishes the job id as soon as it is known, so it survives whatever happens next. */
  /** Publishes the preview's address and state as soon as the platform answered. */
  preview(preview: Preview): void {
    this.output('preview-url', previewUrl(preview))
    this.output('preview-status', previewStatus(preview))
  }

  /** The id goes out as `encodeJobId` writes it, which the `job-id` input takes back. */
  jobId(id: string): void {
    this.output('job-id', encodeJobId(id))
  }

  /** Says which job this step works with, and publishes its id. */
  jobCreated(job: Job, verb = 'Created'): void {
    const details = [
      `status ${forLog(job.status ?? 'unknown', 60)}`,
      job.model ? `model ${forLog(job.model, 60)}` : undefined
    ].filter(Boolean)
    this.info(`${verb} agent job ${forLog(job.id ?? '', 100)} (${details.join(', ')}).`)
    this.jobId(job.id ?? '')
  }

  /**
   * Writes the outputs, the closing log lines and annotations, and the job summary. Returns the
   * message the step fails with, or undefined when it succeeds.
   */
  async finish(record: Reported): Promise<string | undefined> {
    const verdict = verdictOf(record)
    const written = record.written ?? {}
    this.output('skipped', String(record.outcome.kind === 'skipped'))
    this.output('comment-url', safeLink(written.comment)?.href ?? '')
    this.output('check-url', safeLink(written.check)?.href ?? '')
    this.output('docs-comment-url', safeLink(written['docs-comment'])?.href ?? '')
    this.output('preview-url', previewUrl(record.preview))
    this.output('preview-status', previewStatus(record.preview))
    this.output('outcome', docsOutcome(record))
    this.output('docs-checks', record.docsChecks?.state ?? '')
    if (record.job) this.writeOutputs(record.job, verdict)
    // What the other sinks did on GitHub, a line each, before how the run ended.
    for (const line of record.did ?? []) this.info(line)
    for (const warning of verdict.warnings) this.warning(warning)
    // A notice is said first, so that a note saying the same is not said again.
    if (verdict.notice) {
      const notice = this.annotation(verdict.notice)
      this.said.add(notice)
      core.notice(notice, TITLE)
    }
    for (const note of verdict.notes) this.note(note)
    const previewNotice = previewWords(record.preview).notice
    if (previewNotice && !this.said.has(this.annotation(previewNotice))) {
      this.said.add(this.annotation(previewNotice))
      core.notice(this.annotation(previewNotice), TITLE)
    }
    const failure = this.failure(record, verdict)
    await this.writeSummary(record, verdict, failure)
    return failure === undefined ? undefined : this.annotation(failure)
  }

  /**
   * The message the step fails with: the verdict's, or, when the outputs could not be written,
   * one that says so and carries what they would have handed on, so that nothing is lost.
   */
  private failure(record: RunRecord, verdict: Verdict): string | undefined {
    if (this.outputProblem === undefined) return verdict.failMessage
    const id = record.job?.id
    const job = id
      ? WORKED_WITH[record.mode ?? 'create'](forLog(id, 100)) +
        (verdict.link ? `; its pull request: ${verdict.link.href}.` : '.')
      : undefined
    return [
      `Could not write this step's outputs: ${this.outputProblem}, so later steps do not get them.`,
      job,
      verdict.failMessage ?? (job ? undefined : `${verdict.headline}.`)
    ]
      .filter(Boolean)
      .join(' ')
  }

  private writeOutputs(job: Job, verdict: Verdict): void {
    const field = (value: string | null | undefined) => cut(value ?? '', MAX_FIELD_OUTPUT_LENGTH)
    this.jobId(job.id ?? '')
    this.output('status', field(job.status))
    this.output('pr-link', verdict.link?.href ?? '')
    this.output('pr-number', verdict.link?.number ?? '')
    this.output('model', field(job.model))
    this.output('source-repository', field(job.source?.repository))
    this.output('source-ref', field(job.source?.ref))
    this.output('created-at', field(job.createdAt))
    this.output('archived-at', field(job.archivedAt))
    // The record's link is the one pr-link hands on: a refused link (credentials, syntax) is not
    // handed on here either.
    this.output('job', jobOutput({ ...job, prLink: verdict.link?.href ?? null }))
  }

  /**
   * Sets an output once per value, redacted (every secret in every form, and the credentials of
   * any URL: a job's `source.repository` may carry them); `core.setOutput` keeps values intact
   * whatever else they contain.
   * When `GITHUB_OUTPUT` cannot be written, says so once and sets no more: the step goes on with
   * its job and fails at the end (see `failure`).
   */
  private output(name: string, value: string): void {
    const clean = redact(value)
    if (this.written.get(name) === clean) return
    this.written.set(name, clean)
    if (this.outputProblem !== undefined) return
    try {
      core.setOutput(name, clean)
    } catch (error: unknown) {
      this.outputProblem = runnerFileProblem('GITHUB_OUTPUT', error)
      this.info(
        `Could not set the ${name} output: ${this.outputProblem}. No output of this step can ` +
          'be set, so the step fails when it ends.'
      )
    }
  }

  private async writeSummary(record: Reported, verdict: Verdict, failure: string | undefined) {
    const { job } = record
    const cell = (text: string | null | undefined) => (text ? escapeMarkup(text, 200) : '—')
    const code = (text: string | null | undefined) => (text ? `<code>${cell(text)}</code>` : '—')
    const { link } = verdict
    const comment = safeLink(record.written?.comment)
    const check = safeLink(record.written?.check)
    const rows: [string, string][] = [
      ['Job ID', code(job?.id)],
      ['Status', cell(job?.status)],
      ['Model', cell(job?.model)],
      ['Pull request', link ? pullMarkup(link) : '—'],
      ...optionalRows(record),
      ['Source repository', urlMarkup(job?.source?.repository) ?? '—'],
      ['Source ref', code(job?.source?.ref)],
      ['Created at', cell(job?.createdAt)],
      ['Status comment', comment ? anchor(comment, 'on the pull request') : '—'],
      ['Docs check', check ? anchor(check, 'on the commit') : '—'],
      ...(record.preview
        ? [['Preview', previewMarkup(record.preview) ?? '—'] as [string, string]]
        : []),
      ['Duration', cell(durationOf(record))]
    ]
    try {
      // Every piece is redacted once more as it is written, whole: a link's address is shown as
      // it was checked (`safeLink` refuses credentials, not a secret in a path), and a secret
      // that reached the markup unredacted is still caught in its escaped form.
      const summary = core.summary.addHeading('Mintlify agent', 2)
      const add = (html: string) => summary.addRaw(redact(html), true)
      add(`<p>${verdict.icon} <strong>${escapeMarkup(verdict.headline)}</strong></p>`)
      if (job) {
        summary.addTable(
          rows.map(([name, value]) => [{ data: name, header: true }, { data: redact(value) }])
        )
      }
      // A note that was also a warning is listed once, under the warnings.
      for (const note of [...(record.notes ?? []), ...verdict.notes]) {
        if (!this.warned.includes(note)) add(summaryMarkup(note, 2_000))
      }
      if (this.warned.length > 0) {
        add(`<h3>Warnings</h3>`)
        for (const warning of this.warned) add(summaryMarkup(warning, 2_000, '⚠️ '))
      }
      if (this.shownPrompt !== undefined) {
        // GitHub's markdown reads everything up to the first blank line after <details> as one
        // HTML block: the escaped prompt has no blank line and no markup, so none of it renders.
        add(
          '<details open><summary>The prompt</summary>\n<pre>' +
            summaryPrompt(this.shownPrompt) +
            '</pre>\n</details>'
        )
      }
      if (failure) add(summaryMarkup(failure, 4_000))
      await summary.write()
    } catch (error: unknown) {
      // Outside a runner there is no summary to write; on one, a file that cannot be written
      // costs the summary, not the step.
      if (process.env.GITHUB_STEP_SUMMARY) {
        this.warning(
          `Could not write the job summary: ${runnerFileProblem('GITHUB_STEP_SUMMARY', error)}. ` +
            'The log has what it would show.'
        )
      } else this.debug(`No job summary written: ${errorMessage(error)}`)
    }
  }
}

/**
 * A message in the job summary as the log shows it: each line on a line of its own (lines that
 * start with `- ` as a list), each `code` span as `<code>`, everything else escaped
 * (`escapeMarkup`), and each mention of the API keys page a link (`messageMarkup`). Secrets are
 * redacted and the text cut to `max` first. `prefix` (markup) starts the first paragraph. No line
 * of it is blank: a blank line would end the HTML block and let the rest render as markdown.
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

/**
 * One line of a message as markup: a `code` span (backticks paired on the line) as `<code>`, the
 * rest as `messageMarkup`; an unpaired backtick stays a backtick.
 */
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

/** The outcome's and the docs pull request checks' rows, where the run has them. */
function optionalRows(record: RunRecord): [string, string][] {
  const outcome = outcomeMarkup(record)
  const checks = docsChecksMarkup(record)
  return [
    ...(outcome ? [['Outcome', outcome] as [string, string]] : []),
    ...(checks ? [['Docs checks', checks] as [string, string]] : [])
  ]
}

/**
 * How long the step took; after a timeout, with the timeout beside it: the last check comes
 * before the deadline (no other fits after it), so the step ends short of it.
 */
function durationOf(record: RunRecord): string {
  const took = formatDuration(record.elapsedMs)
  const { outcome } = record
  return outcome.kind === 'timeout'
    ? `${took} (timeout ${formatDuration(outcome.timeoutMs)})`
    : took
}

/** How the failure message names the job, by what the step did with it. */
const WORKED_WITH: Record<Mode, (id: string) => string> = {
  create: (id) => `Agent job ${id} was created`,
  'follow-up': (id) => `Agent job ${id} was sent the follow-up message`,
  attach: (id) => `The step followed agent job ${id}`
}

/** Why a file cannot be written, by the error code of writing it or of looking at it. */
const UNWRITABLE = new Map([
  ['EISDIR', 'is a directory'],
  ['ENOENT', 'does not exist'],
  ['ENOTDIR', 'does not exist'],
  ['EACCES', 'the step may not write (permission denied)'],
  ['EPERM', 'the step may not write (permission denied)'],
  ['EROFS', 'is on a read-only file system'],
  ['ENOSPC', 'is on a disk that is full']
])

/**
 * Which runner file could not be written and why, for a message: `GITHUB_OUTPUT names "…", which
 * is a directory`. `error` is what writing it threw; the file is looked at for the reason, since
 * `@actions/core` reports a missing or inaccessible file without an error code.
 */
export function runnerFileProblem(
  variable: 'GITHUB_OUTPUT' | 'GITHUB_STEP_SUMMARY',
  error: unknown
): string {
  const path = process.env[variable] ?? ''
  let code = errnoCode(error)
  try {
    if (statSync(path).isDirectory()) code = 'EISDIR'
    else if (code === undefined) accessSync(path, constants.W_OK)
  } catch (looked: unknown) {
    code = errnoCode(looked) ?? code
  }
  const why =
    UNWRITABLE.get(code ?? '') ?? `cannot be written (${forLog(errorMessage(error), 200)})`
  return `${variable} names "${forLog(path, 300)}", which ${why}`
}

/** A Node.js system error's code (`EISDIR`), read without `instanceof`, which fails across realms. */
function errnoCode(error: unknown): string | undefined {
  const code: unknown =
    typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined
  return typeof code === 'string' ? code : undefined
}

/** The prompt escaped for the summary, cut until it fits in `MAX_SUMMARY_PROMPT_BYTES`. */
function summaryPrompt(prompt: string): string {
  for (let max = MAX_SUMMARY_PROMPT_LENGTH; ; max = Math.floor(max / 2)) {
    const escaped = escapePreformatted(prompt, max)
    if (Buffer.byteLength(escaped) <= MAX_SUMMARY_PROMPT_BYTES) return escaped
  }
}

/** The job as JSON for the `job` output, within `MAX_JOB_OUTPUT_LENGTH`. */
function jobOutput(job: Job): string {
  const whole = JSON.stringify(job)
  if (whole.length <= MAX_JOB_OUTPUT_LENGTH) return whole
  const known = Object.fromEntries(
    JOB_FIELDS.filter((name) => name in job).map((name) => {
      const value: unknown = job[name]
      return [name, typeof value === 'string' ? cut(value, MAX_FIELD_OUTPUT_LENGTH) : value]
    })
  )
  const trimmed = JSON.stringify(known)
  return trimmed.length <= MAX_JOB_OUTPUT_LENGTH ? trimmed : JSON.stringify({ id: job.id })
}
