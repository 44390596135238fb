/**
 * The status comment's words: its hidden marker (the project, the job and the last commit it was
 * told about), the headline, a table of checked values, and the action's own notes. It holds only
 * the action's own words and values it checked, so nothing in it can mention people or close
 * issues, and its only links are checked URLs (see `links.ts`). Pure.
 */
import { formatDuration } from '../duration.js'
import { marker } from '../github/companion.js'
import { STATUS_TABLE } from '../mintlify/job.js'
import type { RunState } from '../run.js'
import type { PullRef } from '../trigger/ref.js'
import { escapeMarkup, safeLink } from '../sanitize.js'
import { anchor, messageMarkup, pullMarkup, urlMarkup } from './links.js'
import { docsChecksMarkup, outcomeMarkup } from './outcome.js'
import { previewMarkup } from './preview.js'
import { verdictOf } from './verdict.js'

/**
 * The docs pull request the marker records: the one GitHub showed as the agent's this run, else
 * the one recorded before. A pull request that is not the agent's is never recorded.
 */
function docsRecord(state: RunState): PullRef | undefined {
  const { docs } = state
  const shown = docs?.ref && docs.state !== 'unknown' && docs.state !== 'foreign'
  return shown ? docs.ref : state.recordedDocs
}

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
  const preview = previewMarkup(state.preview)
  if (preview) rows.splice(3, 0, ['Preview', preview])
  const outcome = outcomeMarkup(state)
  const checks = docsChecksMarkup(state)
  if (checks) rows.splice(3, 0, ['Docs checks', checks])
  if (outcome) rows.splice(3, 0, ['Outcome', outcome])
  if (state.outcome.kind !== 'running' && state.outcome.kind !== 'started') {
    rows.push(['Duration', formatDuration(state.elapsedMs)])
  }
  const table = rows.map(([name, value]) => `<tr><th>${name}</th><td>${value}</td></tr>`).join('')
  return [
    marker({
      projectId: state.projectId,
      jobId,
      sha: state.told,
      docs: docsRecord(state),
      preview: state.previewed?.jobId === jobId ? state.previewed.sha : undefined
    }),
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

/** The log's line for the status comment once the run is over: where it is, made or updated. */
export function commentWritten(number: number, url: string, created: boolean): string {
  return `${created ? 'Created' : 'Updated'} the status comment on pull request #${number}: ${url}`
}
