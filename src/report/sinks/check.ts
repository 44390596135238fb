/**
 * The docs check: a commit status on the code change's head, pending while the job runs, then the
 * report's state as the last status GitHub stores (`Beside` writes it again after a pending one
 * GitHub still held). Safe to send again within the last writes' budget (`sendingAgain`).
 */
import { describeGitHubError, type GitHubApi } from '../../clients/github/api.js'
import { Beside, sendingAgain, Surface } from '../../clients/github/policy.js'
import { checkStatus, checkWritten } from '../check.js'
import type { RunState } from '../../run/state.js'
import type { LastTime, Log, Within } from '../../base/runtime.js'
import type { Resolved } from '../../run/decide/check.js'
import { reportOf } from '../report.js'
import type { CommitRef } from '../../given/ref.js'
import type { Sink, SinkContext } from './sink.js'

/** The check, where the decision resolved one (`resolveEffects`) and a token can write it. */
export function checkSink(
  context: SinkContext,
  effect: Extract<Resolved, { kind: 'check' }>
): Sink | undefined {
  const { trigger, github } = context
  const { event, commit, runUrl } = trigger ?? {}
  if (!github || !event || !commit) return undefined
  const options = {
    commit,
    runUrl,
    serverUrl: event.serverUrl,
    fork: Boolean(event.pullRequest?.fork),
    skipsOnly: effect.skipsOnly,
    known: context.commented === true
  }
  return checkSinkOf(github, options, context.log, (stop) => context.time.within('held', stop))
}

/** The check as a sink on `options.commit`; `withinWrite` bounds its writes (the `held` phase). */
export function checkSinkOf(
  github: GitHubApi,
  options: {
    readonly commit: CommitRef
    readonly runUrl?: string
    /** `GITHUB_SERVER_URL`: the docs pull request is linked only when it is on this GitHub. */
    readonly serverUrl: string
    /** The pull request comes from a fork, whose token is read-only. */
    readonly fork: boolean
    /** `context: off`: the check says only that `paths` found nothing to document. */
    readonly skipsOnly: boolean
    /** The run found this project's status comment: an earlier run the platform accepted. */
    readonly known?: boolean
  },
  log: Log,
  withinWrite: (stop: AbortSignal) => Within
) {
  const { commit, runUrl, serverUrl, known } = options
  const { owner, repo, sha } = commit
  const surface = new Surface(log, 'The docs job is not affected.')
  const beside = new Beside(
    surface,
    `The docs check on ${sha.slice(0, 7)} may show an older state: GitHub had ` +
      'not answered its pending write when the time for the last writes ran out, and may ' +
      'still store it after the final one. Re-run the workflow job to set the check again.'
  )
  /** The last status that landed, for the log's closing line. */
  let written: ReturnType<typeof checkStatus> | undefined
  /** Sets the check; a pending write that was `stopped` at the end is not a failure to report. */
  const write = async (state: RunState, within: Within, stopped?: AbortSignal) => {
    const status = checkStatus(state, runUrl, serverUrl, known)
    const landed = await surface.write(
      (failure) =>
        options.fork && failure.kind === 'refused'
          ? 'Could not set the docs check: pull requests from forks get a read-only token.'
          : `Could not set the docs check on ${sha.slice(0, 7)}: ` +
            `${describeGitHubError(failure, 'statuses: write')}.`,
      () =>
        within((signal) => github.createStatus(owner, repo, sha, status, signal)).then(
          () => status,
          (error: unknown) => {
            if (stopped?.aborted) return undefined
            throw error
          }
        )
    )
    if (landed) written = landed
  }
  // `ready`: the docs are ready, so merging need not wait for the preview; stored after `started`.
  const begin = (after: boolean) => (state: RunState) => {
    if (!options.skipsOnly)
      beside.start((within, stopped) => write(state, within, stopped), withinWrite, after)
  }
  return {
    started: begin(false),
    ready: begin(true),
    /** The last word, written again once GitHub answered a pending write it still holds. */
    finished: async (state: RunState, within: Within, time?: LastTime) => {
      const report = reportOf(state)
      if ((options.skipsOnly && !report.skipped) || report.leavesCheck) beside.stop()
      else if (!time) await beside.last((bounds) => write(state, bounds), within, true)
      else {
        // The write after a held one gets the last writes' budget again, up to the step's end.
        const again = () =>
          sendingAgain(time, Math.max(time.by, Math.min(time.now() + time.lastMs, time.end)))
        await beside.last((bounds) => write(state, bounds), sendingAgain(time, time.by), true, {
          held: time.until(time.heldBy),
          again
        })
      }
      if (!written) return undefined
      const url = `${serverUrl}/${owner}/${repo}/commit/${sha}`
      return { written: 'check' as const, url, did: [checkWritten(written, sha)] }
    }
  }
}
