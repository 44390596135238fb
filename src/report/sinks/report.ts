/**
 * The only writer of the log, annotations, outputs and job summary: a sink that renders the run's
 * report last, once the other sinks said where they wrote. It decides nothing; it makes text safe
 * on its way out: secrets redacted, workflow commands defused, sizes capped.
 */
import { accessSync, constants, statSync } from 'node:fs'
import * as core from '@actions/core'
import { errorMessage } from '../../base/errors.js'
import { encodeJobId } from '../../base/job-id.js'
import type { Job } from '../../clients/mintlify/job.js'
import type { Preview } from '../../run/state.js'
import { previewStatus, previewUrl } from '../preview.js'
import { reportOf, type Report, type Reported } from '../report.js'
import { summaryBlocks } from '../summary.js'
import type { Log } from '../../base/runtime.js'
import { cut, defuseCommands, forLog } from '../../base/sanitize.js'
import { redact } from '../../base/secrets/redact.js'
import type { Mode, RunRecord } from '../../run/state.js'
import type { Sink, Wrote } from './sink.js'

/** Longest annotation written; the runner shows only the start of longer ones anyway. */
export const MAX_ANNOTATION_LENGTH = 4_000

const TITLE = { title: 'Mintlify agent' }

export class Reporter implements Log, Sink {
  readonly last = true
  private readonly written = new Map<string, string>()
  /** Why `GITHUB_OUTPUT` cannot be written, once a write to it failed: the step then fails. */
  private outputProblem: string | undefined
  private shownPrompt: string | undefined
  /** What the log said so far: each warning is given once a run, and a note not said twice. */
  private readonly said = new Set<string>()
  /** The run's warnings as they were given, each once, in order: the job summary lists them. */
  private readonly warned: string[] = []

  info(message: string): void {
    const line = defuseCommands(message)
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
    const line = defuseCommands(message)
    for (const earlier of this.said) if (earlier.includes(line)) return
    this.info(message)
  }

  private notice(message: string): void {
    const line = this.annotation(message)
    if (this.said.has(line)) return
    this.said.add(line)
    core.notice(line, TITLE)
  }

  debug(message: string): void {
    core.debug(defuseCommands(message))
  }

  /** The message for an annotation: redacted, unable to start a workflow command, capped. */
  private annotation(message: string): string {
    return defuseCommands(cut(redact(message), MAX_ANNOTATION_LENGTH))
  }

  /** Why the step fails: one error annotation, titled like the warnings; `index.ts` exits. */
  fail(message: string): void {
    core.error(this.annotation(message), TITLE)
  }

  /** Shows the whole prompt in a collapsed log group, and later in the job summary. */
  prompt(prompt: string, title: string): void {
    this.shownPrompt = prompt
    core.startGroup(defuseCommands(title).replace(/\s+/g, ' '))
    for (const line of prompt.split(/\r?\n/)) core.info(defuseCommands(line))
    core.endGroup()
  }

  /** Publishes the preview's address and state as soon as the platform answered. */
  preview(preview: Preview): void {
    this.output('preview-url', previewUrl(preview))
    this.output('preview-status', previewStatus(preview))
  }

  /** Publishes the job id as soon as it is known, as the `job-id` input takes it back. */
  jobId(id: string): void {
    this.output('job-id', encodeJobId(id))
  }

  jobCreated(job: Job, verb = 'Created'): void {
    const model = job.model ? `, model ${forLog(job.model, 60)}` : ''
    const status = `status ${forLog(job.status ?? 'unknown', 60)}${model}`
    this.info(`${verb} agent job ${forLog(job.id ?? '', 100)} (${status}).`)
    this.jobId(job.id ?? '')
  }

  /** The run is over: the Actions report, and why the step fails, if it does. */
  async finished(state: Reported): Promise<Wrote> {
    const failure = await this.finish(state)
    if (failure) this.fail(failure)
    return { failed: failure !== undefined }
  }

  /** Renders the report as outputs, closing log lines and the job summary; the failure, if any. */
  async finish(record: Reported): Promise<string | undefined> {
    const report = reportOf(record)
    for (const [name, value] of Object.entries(report.outputs)) this.output(name, value)
    for (const line of report.log) this[line.as](line.text)
    const failure = this.failure(record, report)
    await this.writeSummary(report, record.job !== undefined, failure)
    return failure === undefined ? undefined : this.annotation(failure)
  }

  /** The report's failure; or, when no output could be set, one that carries what they hold. */
  private failure(record: RunRecord, report: Report): string | undefined {
    if (this.outputProblem === undefined) return report.failMessage
    const id = record.job?.id
    const job = id
      ? WORKED_WITH[record.mode ?? 'create'](forLog(id, 100)) +
        (report.link ? `; its pull request: ${report.link.href}.` : '.')
      : undefined
    return [
      `Could not write this step's outputs: ${this.outputProblem}, so later steps do not get them.`,
      job,
      report.failMessage ?? (job ? undefined : `${report.headline}.`)
    ]
      .filter(Boolean)
      .join(' ')
  }

  /** Sets an output once per value, redacted; after `GITHUB_OUTPUT` failed once, sets no more. */
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

  private async writeSummary(report: Report, hasJob: boolean, failure: string | undefined) {
    try {
      // Redacted once more, whole: `safeLink` refuses credentials, not a secret in a path.
      const extras = { warned: this.warned, prompt: this.shownPrompt, failure }
      for (const block of summaryBlocks(report, extras, hasJob))
        core.summary.addRaw(redact(block), true)
      await core.summary.write()
    } catch (error: unknown) {
      // A summary file that cannot be written costs the summary, not the step.
      if (process.env.GITHUB_STEP_SUMMARY) {
        this.warning(
          `Could not write the job summary: ${runnerFileProblem('GITHUB_STEP_SUMMARY', error)}. ` +
            'The log has what it would show.'
        )
      } else this.debug(`No job summary written: ${errorMessage(error)}`)
    }
  }
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
 * Which runner file could not be written and why (`GITHUB_OUTPUT names "…", which is a
 * directory`): the file is looked at, as `@actions/core` gives no code for a missing one.
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
