/**
 * The preview of an open docs pull request's branch, requested once and followed in the step's
 * `preview` phase. A preview that fails, or cannot be had, never changes how the step ends.
 */
import { cancellation } from '../base/errors.js'
import type { Settings } from '../given/inputs.js'
import { inShape } from '../clients/mintlify/job.js'
import { followPreview, requestPreview, type PreviewCause } from '../clients/mintlify/preview.js'
import type { Preview } from '../run/state.js'
import { previewWords } from '../report/preview.js'
import { endsWithLink, type RunState } from '../run/state.js'
import type { Run } from './state.js'

/**
 * The branch to preview: the job's `source.ref` and the docs pull request's head branch, each
 * only in the strict branch shape; when both are known they must agree. Pure.
 */
export function previewBranch(
  jobRef: string | null | undefined,
  pullRef: string | null | undefined
): { readonly branch: string } | { readonly cause: PreviewCause } {
  const job = jobRef && inShape('source.ref', jobRef) ? jobRef : undefined
  const pull = pullRef && inShape('source.ref', pullRef) ? pullRef : undefined
  if (job && pull && job !== pull) return { cause: { kind: 'branch', job, pull } }
  const branch = job ?? pull
  return branch ? { branch } : { cause: { kind: 'branch' } }
}

/** Whether this run asks for a preview at all: `preview: auto`, and a step that waits. */
function asksForPreview(settings: Pick<Settings, 'preview' | 'wait'>): boolean {
  return settings.preview === 'auto' && settings.wait
}

/** Whether the docs head is the one the same job's last preview was for; unknown never is. Pure. */
export function unchanged(
  previewed: RunState['previewed'],
  jobId: string,
  head: string | undefined
): head is string {
  return head !== undefined && previewed?.jobId === jobId && previewed.sha === head
}

/** A dry run says what it would request, in the log and the summary. */
export function previewDryRun(run: Pick<Run, 'state' | 'settings' | 'report'>): void {
  if (!asksForPreview(run.settings)) return
  run.state.preview = { state: 'would-request' }
  const { info } = previewWords(run.state.preview)
  if (!info) return
  run.report.info(info)
  run.state.notes.push(info)
}

/**
 * Requests and follows the preview once the job completed with its docs pull request open, unless
 * nothing is new: `sentNothing` when the run only followed a job already told this commit.
 */
export async function preview(run: Run, sentNothing = false) {
  const { state, settings, step, report } = run
  const ready = endsWithLink(state) && state.docs?.state === 'open'
  if (!asksForPreview(settings) || !ready || !step.previews) return
  const chosen = previewBranch(state.job?.source?.ref, state.docs?.proven?.pull.headRef)
  const set = (next: Preview) => {
    state.preview = next
    report.preview(next)
  }
  if ('cause' in chosen) return end(run, { state: 'not-requested', cause: chosen.cause })
  const { branch } = chosen
  const jobId = state.job?.id ?? ''
  const head = state.docs?.proven?.pull.headSha
  // Nothing new to show: the platform is asked nothing, and the earlier preview stands.
  if (unchanged(state.previewed, jobId, head) || sentNothing) {
    return end(run, { state: 'unchanged', branch, ...(head ? { sha: head } : {}) })
  }
  // The docs are ready now: the check and the status comment say so before the preview builds.
  for (const sink of run.sinks) sink.ready?.(state)
  const api = step.previews()
  const schedule = step.time.schedule('preview')
  report.info(`Requesting a preview deployment of ${branch}.`)
  const requested = await requestPreview(api, branch, schedule, step)
  const { deployment } = requested
  const shown = {
    branch,
    ...(deployment?.previewUrl ? { url: deployment.previewUrl } : {}),
    ...(deployment?.urlRefused ? { urlRefused: true } : {})
  }
  if (requested.cause) {
    // A 5xx whose body still named a status: the status read tells what happened.
    if (!deployment?.statusId) {
      const state = requested.cause.kind === 'unanswered' ? 'uncertain' : 'not-requested'
      return end(run, { ...shown, state, cause: requested.cause })
    }
    report.info(
      'The preview request failed after it was sent, but its answer named a deployment ' +
        'status: reading that instead of asking again.'
    )
  }
  // Accepted: this head is the one a later run compares with.
  if (jobId && head) state.previewed = { jobId, sha: head }
  set({ ...shown, state: 'building' })
  if (!deployment?.statusId) return end(run, state.preview)
  const followed = await followPreview(api, deployment.statusId, schedule, step, (read) => {
    if (read.status === 'success') set({ ...shown, state: 'ready' })
    else if (read.status === 'failure') {
      set({ ...shown, state: 'failed', ...(read.summary ? { summary: read.summary } : {}) })
    } else if (state.preview?.state !== 'building') set({ ...shown, state: 'building' })
  })
  if (step.signal.aborted) throw cancellation(step.signal)
  if (followed.unread) step.log.debug(`The last preview status read failed: ${followed.unread}`)
  end(run, state.preview)
}

/** Records the preview as it ended, and says so once in the log. */
function end(run: Pick<Run, 'state' | 'report'>, preview: Preview | undefined): void {
  if (!preview) return
  run.state.preview = preview
  run.report.preview(preview)
  const words = previewWords(preview)
  if (words.info) run.report.info(words.info)
  if (words.warning) run.report.warning(words.warning)
}
