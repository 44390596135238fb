/**
 * The one report: everything the action says about a run, built once from its state, which every
 * surface (the status comment, the job summary, the docs check, the outputs, the log, the
 * reactions) renders. A new fact is one line in `factsOf`; a new surface, one renderer. Pure.
 */
import { formatDuration } from '../base/duration.js'
import type { Reaction } from '../clients/github/api.js'
import type { Recorded } from '../clients/github/companion.js'
import { encodeJobId } from '../base/job-id.js'
import { classifyStatus, JOB_FIELDS, STATUS_TABLE, type Job } from '../clients/mintlify/job.js'
import type { RunRecord, RunState } from '../run/state.js'
import { cut, escapeMarkup, safeLink } from '../base/sanitize.js'
import { endingOf, type Ending } from './ending.js'
import { linked, pullMarkup, urlMarkup } from './links.js'
import { docsChecksMarkup, docsOutcome, outcomeMarkup } from './outcome.js'
import { previewMarkup, previewStatus, previewUrl, previewWords, withPreview } from './preview.js'

/** What the report reads: the run, and what the other sinks wrote. */
export type Reported = RunRecord & Partial<RunState>

/** The surfaces that show facts as a table. */
export type Table = 'comment' | 'summary'

/** One labelled fact: its name on each table that shows it, and its value as checked markup. */
export interface Fact {
  readonly on: Partial<Record<Table, string>>
  readonly markup: string
}

/** A line the log gives once the run is over; a `note` or `notice` the log said already is not said again. */
export interface LogLine {
  readonly as: 'info' | 'warning' | 'notice' | 'note'
  readonly text: string
}

export interface Report extends Ending {
  /** The check on the commit already says what is true: nothing is written over it. */
  readonly leavesCheck: boolean
  readonly skipped: boolean
  readonly facts: readonly Fact[]
  /** The run's own notes (why a new job replaced the recorded one, …): the comment lists them. */
  readonly said: readonly string[]
  /** The log's closing lines, in order: what the sinks did, then how the run ended. */
  readonly log: readonly LogLine[]
  readonly outputs: Readonly<Record<string, string>>
  /** The reaction that ends a `/docs` command; none for a run that took no job. */
  readonly reaction?: Reaction
  /** What the status comment's hidden marker records for the next run. */
  readonly record: Recorded
}

/** Longest value of one output taken from the job's fields. */
export const MAX_FIELD_OUTPUT_LENGTH = 4_000

/** Longest `job` output; a bigger record is written with its known fields only. */
export const MAX_JOB_OUTPUT_LENGTH = 65_536

/** The report of the run as it stands; `runUrl` is the workflow run's page. */
export function reportOf(record: Reported, runUrl = record.trigger?.runUrl): Report {
  const ending = endingOf(record)
  const { outcome, job } = record
  const jobId = job?.id ?? ''
  // The marker records the docs pull request shown as the agent's, else the one recorded before.
  const { docs } = record
  const shown = docs?.ref && docs.state !== 'unknown' && docs.state !== 'foreign'
  return {
    ...ending,
    check: withPreview(ending.check, record.preview),
    leavesCheck: outcome.kind === 'skipped' && outcome.leaveCheck === true,
    skipped: outcome.kind === 'skipped',
    facts: factsOf(record, ending, runUrl),
    said: record.notes ?? [],
    log: logOf(record, ending),
    outputs: outputsOf(record, ending),
    reaction: reactionOf(record),
    record: {
      projectId: record.projectId ?? '',
      jobId,
      sha: record.told,
      docs: shown ? docs.ref : record.recordedDocs,
      preview: record.previewed?.jobId === jobId ? record.previewed.sha : undefined
    }
  }
}

export function rowsOf(report: Report, table: Table): string {
  return report.facts
    .flatMap(({ on, markup }) =>
      on[table] ? [`<tr><th>${on[table]}</th><td>${markup}</td></tr>`] : []
    )
    .join('')
}

/** The facts the tables show, in order; a fact the run does not have is left out. */
function factsOf(record: Reported, ending: Ending, runUrl: string | undefined): Fact[] {
  const { job, written = {}, outcome } = record
  // While the job may still run, the comment gives no duration yet.
  const ended = outcome.kind !== 'running' && outcome.kind !== 'started'
  const took = formatDuration(record.elapsedMs)
  // After a timeout, the summary gives it beside the duration: the step ends short of it.
  const timeout =
    outcome.kind === 'timeout' ? ` (timeout ${formatDuration(outcome.timeoutMs)})` : ''
  const cell = (text: string | null | undefined) => (text ? escapeMarkup(text, 200) : '—')
  const code = (text: string | null | undefined) => (text ? `<code>${cell(text)}</code>` : '—')
  const link = (url: string | undefined, text: string) => (safeLink(url) ? linked(url, text) : '—')
  const status = job?.status
  const known = status !== null && status !== undefined && STATUS_TABLE.has(status)
  const fact = (on: Fact['on'], markup: string | undefined): Fact[] =>
    markup === undefined ? [] : [{ on, markup }]
  return [
    ...fact({ summary: 'Job ID', comment: 'Agent job' }, code(job?.id)),
    ...fact({ summary: 'Status' }, cell(status)),
    ...fact({ comment: 'Status' }, known ? `<code>${status}</code>` : '—'),
    ...fact({ summary: 'Model' }, cell(job?.model)),
    ...fact(
      { summary: 'Pull request', comment: 'Docs pull request' },
      ending.link ? pullMarkup(ending.link) : '—'
    ),
    ...fact({ summary: 'Outcome', comment: 'Outcome' }, outcomeMarkup(record)),
    ...fact({ summary: 'Docs checks', comment: 'Docs checks' }, docsChecksMarkup(record)),
    ...fact({ summary: 'Preview', comment: 'Preview' }, previewMarkup(record.preview)),
    ...fact(
      { summary: 'Source repository', comment: 'Docs repository' },
      urlMarkup(job?.source?.repository) ?? '—'
    ),
    ...fact({ summary: 'Source ref' }, code(job?.source?.ref)),
    ...fact({ summary: 'Created at' }, cell(job?.createdAt)),
    ...fact({ summary: 'Status comment' }, link(written.comment, 'on the pull request')),
    ...fact({ summary: 'Docs check' }, link(written.check, 'on the commit')),
    ...fact({ comment: 'Workflow run' }, link(runUrl, 'this run')),
    ...fact({ summary: 'Duration' }, cell(took + timeout)),
    ...fact(ended ? { comment: 'Duration' } : {}, took)
  ]
}

/** The log's closing lines: what the sinks did, the warnings, the notice first of the notes. */
function logOf(record: Reported, ending: Ending): LogLine[] {
  const as = (kind: LogLine['as']) => (text: string | undefined) =>
    text ? [{ as: kind, text }] : []
  return [
    ...(record.did ?? []).flatMap(as('info')),
    ...ending.warnings.flatMap(as('warning')),
    ...as('notice')(ending.notice),
    ...ending.notes.flatMap(as('note')),
    ...as('notice')(previewWords(record.preview).notice)
  ]
}

/** The step's outputs: where the sinks wrote, what the job did, and the job's own fields. */
function outputsOf(record: Reported, ending: Ending): Record<string, string> {
  const written = record.written ?? {}
  const outputs: Record<string, string> = {
    skipped: String(record.outcome.kind === 'skipped'),
    'comment-url': safeLink(written.comment)?.href ?? '',
    'check-url': safeLink(written.check)?.href ?? '',
    'docs-comment-url': safeLink(written['docs-comment'])?.href ?? '',
    'preview-url': previewUrl(record.preview),
    'preview-status': previewStatus(record.preview),
    outcome: docsOutcome(record),
    'docs-checks': record.docsChecks?.state ?? ''
  }
  const { job } = record
  if (!job) return outputs
  const field = (value: string | null | undefined) => cut(value ?? '', MAX_FIELD_OUTPUT_LENGTH)
  const href = ending.link?.href ?? ''
  return {
    ...outputs,
    'job-id': encodeJobId(job.id ?? ''),
    status: field(job.status),
    'pr-link': href,
    'pr-number': ending.link?.number ?? '',
    model: field(job.model),
    'source-repository': field(job.source?.repository),
    'source-ref': field(job.source?.ref),
    'created-at': field(job.createdAt),
    'archived-at': field(job.archivedAt),
    // A link pr-link refuses is not handed on here either.
    job: jobOutput({ ...job, prLink: href || null })
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

/** The reaction that ends a command: `rocket` or `confused`; none for a run that took no job. */
function reactionOf({ outcome, job }: RunRecord): Reaction | undefined {
  switch (outcome.kind) {
    case 'skipped':
    case 'dry-run':
      return undefined
    case 'finished':
      return outcome.phase === 'completed' ? 'rocket' : 'confused'
    case 'started': {
      const { phase } = classifyStatus(job?.status)
      return phase === 'failed' || phase === 'archived' ? 'confused' : 'rocket'
    }
    default:
      return 'confused'
  }
}
