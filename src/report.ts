import * as core from '@actions/core'
import { formatDuration } from './duration.js'
import { errorMessage } from './errors.js'
import { pullRequestNumber, type Job } from './job.js'
import type { Log } from './poll.js'
import { defuseCommands, escapeHtml, quote, redact, safeHttpUrl } from './sanitize.js'

/** How the run ended, as far as the report is concerned. */
export type Outcome =
  | { readonly kind: 'started' }
  | { readonly kind: 'finished'; readonly phase: 'completed' | 'archived' | 'failed' }
  | { readonly kind: 'timeout'; readonly timeoutMs: number }
  | { readonly kind: 'cancelled'; readonly reason: string }
  | { readonly kind: 'error'; readonly error: unknown }

export interface RunRecord {
  /** The latest job record, once a job exists. */
  readonly job?: Job
  readonly outcome: Outcome
  readonly elapsedMs: number
  readonly failOnNoPr: boolean
}

interface Verdict {
  readonly icon: string
  readonly headline: string
  /** Set when the step fails; the message for `setFailed`. */
  readonly failure?: string
}

/**
 * Everything the action tells the outside world goes through here: log lines, annotations, step
 * outputs and the job summary. Every piece of text is redacted of the API key and defused of
 * workflow commands on its way out.
 */
export class Reporter implements Log {
  private readonly secrets: string[] = []
  private readonly written = new Map<string, string>()

  /** Adds a value that must never appear in anything the action writes. */
  addSecret(secret: string): void {
    if (secret) this.secrets.push(secret)
  }

  /** Text as it may be printed: without secrets, and unable to start a workflow command. */
  clean(text: string): string {
    return defuseCommands(redact(text, this.secrets))
  }

  info(message: string): void {
    core.info(this.clean(message))
  }

  warning(message: string): void {
    core.warning(this.clean(message), { title: 'Mintlify agent' })
  }

  debug(message: string): void {
    core.debug(this.clean(message))
  }

  /** Publishes the job id as soon as the job exists, so it survives whatever happens next. */
  jobCreated(job: Job): void {
    this.output('job-id', job.id ?? '')
    const details = [
      `status ${quote(job.status ?? 'unknown', 60)}`,
      job.model ? `model ${quote(job.model, 60)}` : undefined
    ].filter(Boolean)
    this.info(`Created agent job ${quote(job.id ?? '', 100)} (${details.join(', ')}).`)
  }

  /**
   * Writes the outputs, the closing log lines and annotations, and the job summary. Returns the
   * message the step fails with, or undefined when it succeeds.
   */
  async finish(record: RunRecord): Promise<string | undefined> {
    const { job } = record
    const prLink = safeHttpUrl(job?.prLink)
    if (job?.prLink && !prLink) {
      this.warning(
        `The job's pull request link is not a plain http(s) URL, so pr-link is left empty: ` +
          quote(job.prLink, 200)
      )
    }
    if (job) this.writeOutputs(job, prLink)

    const verdict = this.verdict(record, prLink)
    await this.writeSummary(record, verdict, prLink)
    return verdict.failure
  }

  private verdict(record: RunRecord, prLink: string | undefined): Verdict {
    const { job, outcome } = record
    const id = quote(job?.id ?? '', 100)
    const keepsRunning = `Agent job ${id} keeps running on the platform (the API cannot stop a job); follow it in the Mintlify dashboard.`
    switch (outcome.kind) {
      case 'started':
        this.info(`Not waiting for the job (wait: false). ${keepsRunning}`)
        return { icon: '🚀', headline: `Agent job ${id} started` }
      case 'finished':
        if (outcome.phase === 'completed') {
          if (prLink) {
            core.notice(this.clean(`Agent job ${id} opened a pull request: ${prLink}`), {
              title: 'Mintlify agent'
            })
            return { icon: '✅', headline: 'The agent opened a pull request' }
          }
          const noPr = `Agent job ${id} completed without changing any files, so no pull request was opened.`
          if (record.failOnNoPr) {
            return {
              icon: '❌',
              headline: 'No pull request',
              failure: `${noPr} (fail-on-no-pr is true)`
            }
          }
          this.info(noPr)
          return { icon: '☑️', headline: 'Completed: no files changed, no pull request' }
        }
        if (outcome.phase === 'archived') {
          this.warning(
            `Agent job ${id} was archived before it finished.` +
              (prLink ? ` It had opened ${prLink}.` : ' No pull request was opened.')
          )
          return { icon: '⚠️', headline: 'The job was archived before it finished' }
        }
        return {
          icon: '❌',
          headline: 'The job failed',
          failure: `Agent job ${id} failed. Open it in the Mintlify dashboard to see what the agent reported.`
        }
      case 'timeout':
        return {
          icon: '⏱️',
          headline: 'Timed out',
          failure:
            `Timed out after ${formatDuration(outcome.timeoutMs)} waiting for agent job ${id} ` +
            `(last status: ${quote(job?.status ?? 'unknown', 60)}). ${keepsRunning} Raise timeout, ` +
            'or set wait: false to start the job without waiting.'
        }
      case 'cancelled':
        return {
          icon: '🛑',
          headline: 'Cancelled',
          failure: job
            ? `${outcome.reason} ${keepsRunning}`
            : `${outcome.reason} The job had not been confirmed as created; check the dashboard before running the step again.`
        }
      case 'error': {
        const message = errorMessage(outcome.error)
        return {
          icon: '❌',
          headline: 'Failed',
          failure: job?.id ? `${message} ${keepsRunning}` : message
        }
      }
    }
  }

  private writeOutputs(job: Job, prLink: string | undefined): void {
    this.output('job-id', job.id ?? '')
    this.output('status', job.status ?? '')
    this.output('pr-link', prLink ?? '')
    this.output('pr-number', pullRequestNumber(prLink) ?? '')
    this.output('model', job.model ?? '')
    this.output('source-repository', job.source?.repository ?? '')
    this.output('source-ref', job.source?.ref ?? '')
    this.output('created-at', job.createdAt ?? '')
    this.output('archived-at', job.archivedAt ?? '')
    this.output('job', JSON.stringify(job))
  }

  /** Sets an output once per value; `core.setOutput` keeps values intact whatever they contain. */
  private output(name: string, value: string): void {
    const clean = redact(value, this.secrets)
    if (this.written.get(name) === clean) return
    this.written.set(name, clean)
    core.setOutput(name, clean)
  }

  private async writeSummary(record: RunRecord, verdict: Verdict, prLink: string | undefined) {
    const { job } = record
    const cell = (text: string | null | undefined) =>
      escapeHtml(redact(text ?? '—', this.secrets) || '—')
    const prNumber = pullRequestNumber(prLink)
    const pr = prLink
      ? `<a href="${cell(prLink)}">${prNumber ? `#${prNumber}` : cell(prLink)}</a>`
      : '—'
    const rows: [string, string][] = [
      ['Job ID', job?.id ? `<code>${cell(job.id)}</code>` : '—'],
      ['Status', cell(job?.status)],
      ['Model', cell(job?.model)],
      ['Pull request', pr],
      ['Source repository', cell(job?.source?.repository)],
      ['Source ref', job?.source?.ref ? `<code>${cell(job.source.ref)}</code>` : '—'],
      ['Created at', cell(job?.createdAt)],
      ['Duration', cell(formatDuration(record.elapsedMs))]
    ]
    try {
      const summary = core.summary
        .addHeading('Mintlify agent', 2)
        .addRaw(`<p>${verdict.icon} <strong>${escapeHtml(verdict.headline)}</strong></p>`, true)
        .addTable(rows.map(([name, value]) => [{ data: name, header: true }, { data: value }]))
      if (verdict.failure) summary.addRaw(`<p>${cell(verdict.failure)}</p>`, true)
      await summary.write()
    } catch (error: unknown) {
      this.debug(`No job summary written: ${errorMessage(error)}`)
    }
  }
}
