/**
 * The status comment on the code pull request, as a sink: written when the job starts (beside the
 * polling) and updated at the end. Its text holds only the action's own words and values it
 * checked, so nothing in it can mention people or close issues, and its only links are checked
 * URLs (see `links.ts`).
 */
import { formatDuration } from '../duration.js'
import { marker, type Companion } from '../github/companion.js'
import { STATUS_TABLE } from '../mintlify/job.js'
import { verdictOf } from '../present/verdict.js'
import type { RunState } from '../run.js'
import type { Bounded } from '../runtime.js'
import { escapeMarkup, safeLink } from '../sanitize.js'
import { anchor, messageMarkup, pullMarkup, urlMarkup } from '../present/links.js'
import type { Sink } from './sink.js'

/** What the comment needs beyond the run's state. */
export interface CommentOptions {
  /** Later runs send follow-ups to this job (`reuse-job`). */
  readonly reuse: boolean
  readonly runUrl?: string
}

/**
 * The status comment's markdown for the run as it stands: the marker that records the project
 * and job, the headline, a table of checked values, and the action's own notes.
 */
export function statusComment(state: RunState, options: CommentOptions): string {
  const verdict = verdictOf(state)
  const { link } = verdict
  const status = state.job?.status
  const known = status !== null && status !== undefined && STATUS_TABLE.has(status)
  const run = safeLink(options.runUrl)
  const jobId = state.job?.id ?? ''
  const rows = [
    ['Agent job', `<code>${escapeMarkup(jobId, 200)}</code>`],
    ['Status', known ? `<code>${status}</code>` : '—'],
    ['Docs pull request', link ? pullMarkup(link) : '—'],
    ['Docs repository', urlMarkup(state.job?.source?.repository) ?? '—'],
    ['Workflow run', run ? anchor(run, 'this run') : '—']
  ]
  if (state.outcome.kind !== 'running' && state.outcome.kind !== 'started') {
    rows.push(['Duration', formatDuration(state.elapsedMs)])
  }
  const table = rows.map(([name, value]) => `<tr><th>${name}</th><td>${value}</td></tr>`).join('')
  return [
    marker({ projectId: state.projectId, jobId, sha: state.told }),
    `### ${verdict.comment}`,
    '',
    `<table>${table}</table>`,
    '',
    ...state.notes.map((note) => `${messageMarkup(note, 500)}\n`),
    '<sub>Written by mintlify-agent-action; updated in place.' +
      (options.reuse
        ? ' New commits on this pull request send follow-up instructions to the same docs job.'
        : '') +
      '</sub>'
  ].join('\n')
}

/**
 * The status comment as a sink; `onUrl` hears the comment's address after each write, and
 * undefined once the comment it heard of is gone (deleted, and not replaced).
 */
export class CommentSink implements Sink {
  constructor(
    private readonly companion: Companion,
    private readonly options: CommentOptions,
    /** Bounds for the write made while the job runs; `stop` ends it early. */
    private readonly writeWithin: (stop: AbortSignal) => Bounded,
    private readonly onUrl: (url: string | undefined) => void
  ) {}

  started(state: RunState): void {
    if (!state.job?.id) return
    this.companion.begin(statusComment(state, this.options), this.writeWithin, this.onUrl)
  }

  async finished(state: RunState, within: Bounded): Promise<void> {
    if (!state.job?.id) return
    this.onUrl(await this.companion.finish(statusComment(state, this.options), within))
  }
}
