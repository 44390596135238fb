/**
 * The docs check on the code change: a commit status on its head commit, named by the project.
 * Pending while the job runs (never waited for), then the report's state, as the last status
 * GitHub stores: a final write beside a pending one GitHub still holds is written again once it
 * answered (`Beside`). A status is safe to send again, so the final one is, after a 5xx or no
 * answer, within the last writes' budget (`sendingAgain`).
 */
import type { GitHubApi } from '../github/api.js'
import { Beside, describeGitHubError, sendingAgain, Surface } from '../github/policy.js'
import { checkStatus, checkWritten } from '../present/check.js'
import type { RunState } from '../run.js'
import type { LastTime, Log, Within } from '../runtime.js'
import type { Resolved } from '../decide/check.js'
import { reportOf } from '../present/report.js'
import type { CommitRef } from '../trigger/ref.js'
import type { Sink, SinkContext, Wrote } from './sink.js'

/** The check, where the decision resolved one (`resolveEffects`) and a token can write it. */
export function checkSink(
  context: SinkContext,
  effect: Extract<Resolved, { kind: 'check' }>
): Sink | undefined {
  const { trigger, github } = context
  const { event, commit, runUrl } = trigger ?? {}
  if (!github || !event || !commit) return undefined
  return new CheckSink(
    github,
    {
      commit,
      runUrl,
      commitUrl: `${event.serverUrl}/${commit.owner}/${commit.repo}/commit/${commit.sha}`,
      fork: Boolean(event.pullRequest?.fork),
      serverUrl: event.serverUrl,
      skipsOnly: effect.skipsOnly,
      known: context.commented === true
    },
    context.log,
    context.withinHeld ?? context.withinWrite
  )
}

export interface CheckOptions {
  readonly commit: CommitRef
  readonly runUrl?: string
  /** The web address of the commit the check is on, for the check-url output. */
  readonly commitUrl: string
  /** `GITHUB_SERVER_URL`: the docs pull request is linked only when it is on this GitHub. */
  readonly serverUrl: string
  /** The pull request comes from a fork, whose token is read-only. */
  readonly fork: boolean
  /**
   * The job is not told the change (`context: off`): the check says only that `paths` found
   * nothing to document, and leaves every other word on the commit to runs that told it.
   */
  readonly skipsOnly: boolean
  /** The run found this project's status comment: an earlier run the platform accepted. */
  readonly known?: boolean
}

export class CheckSink implements Sink {
  private readonly surface: Surface
  private readonly beside: Beside
  /** The last status that landed: the check-url output names the commit, the log what it says. */
  private written: ReturnType<typeof checkStatus> | undefined
  private readonly github: GitHubApi
  private readonly options: CheckOptions
  /** Bounds for the write made while the job runs; `stop` ends it early. */
  private readonly withinWrite: (stop: AbortSignal) => Within

  constructor(
    github: GitHubApi,
    options: CheckOptions,
    log: Log,
    withinWrite: (stop: AbortSignal) => Within
  ) {
    this.github = github
    this.options = options
    this.withinWrite = withinWrite
    this.surface = new Surface(log, 'The docs job is not affected.')
    this.beside = new Beside(
      this.surface,
      `The docs check on ${options.commit.sha.slice(0, 7)} may show an older state: GitHub had ` +
        'not answered its pending write when the time for the last writes ran out, and may ' +
        'still store it after the final one. Re-run the workflow job to set the check again.'
    )
  }

  started(state: RunState): void {
    if (this.options.skipsOnly) return
    this.beside.start((within, stopped) => this.write(state, within, stopped), this.withinWrite)
  }

  /** The docs are ready: merging need not wait for the preview. Stored after the pending state. */
  ready(state: RunState): void {
    if (this.options.skipsOnly) return
    const write = (within: Within, stopped: AbortSignal) => this.write(state, within, stopped)
    this.beside.start(write, this.withinWrite, true)
  }

  /**
   * The last word, written again once GitHub answered a pending write it still holds, so it is
   * the last status GitHub stores (or a warning says it may not be).
   */
  async finished(state: RunState, within: Within, time?: LastTime): Promise<Wrote | undefined> {
    const report = reportOf(state)
    if ((!this.options.skipsOnly || report.skipped) && !report.leavesCheck) {
      const write = (bounds: Within) => this.write(state, bounds)
      if (!time) await this.beside.last(write, within, true)
      else {
        // The write after a held one gets the last writes' budget again, up to the step's end.
        const again = () =>
          sendingAgain(time, Math.max(time.by, Math.min(time.now() + time.lastMs, time.end)))
        await this.beside.last(write, sendingAgain(time, time.by), true, {
          held: time.until(time.heldBy),
          again
        })
      }
    } else this.beside.stop()
    if (!this.written) return undefined
    const did = [checkWritten(this.written, this.options.commit.sha)]
    return { written: 'check', url: this.options.commitUrl, did }
  }

  /** Sets the check; a pending write that was `stopped` at the end is not a failure to report. */
  private async write(state: RunState, within: Within, stopped?: AbortSignal): Promise<void> {
    const { owner, repo, sha } = this.options.commit
    const { runUrl, serverUrl, known } = this.options
    const status = checkStatus(state, runUrl, serverUrl, known)
    const written = await this.surface.write(
      (failure) =>
        this.options.fork && failure.kind === 'refused'
          ? 'Could not set the docs check: pull requests from forks get a read-only token.'
          : `Could not set the docs check on ${sha.slice(0, 7)}: ` +
            `${describeGitHubError(failure, 'statuses: write')}.`,
      () =>
        within((signal) => this.github.createStatus(owner, repo, sha, status, signal)).then(
          () => status,
          (error: unknown) => {
            if (stopped?.aborted) return undefined
            throw error
          }
        )
    )
    if (written) this.written = written
  }
}
