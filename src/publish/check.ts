/**
 * The docs check on the code change: a commit status on the change's head commit, under a name
 * that includes the Mintlify project, so branch protection can require it and two projects in one
 * workflow keep their own. Pending while the job runs (never waited for), then what the
 * presentation says; at most two writes a run.
 */
import { createHash } from 'node:crypto'
import type { GitHubApi } from '../github/api.js'
import { Beside, describeGitHubError, Surface } from '../github/policy.js'
import { verdictOf } from '../present/verdict.js'
import type { RunState } from '../run.js'
import type { Bounded, Log } from '../runtime.js'
import { safeLink } from '../sanitize.js'
import { parsePullLink, type CommitRef } from '../trigger/ref.js'
import type { Sink } from './sink.js'

/** GitHub's limit on a status description. */
const MAX_DESCRIPTION = 140

/**
 * The check's name, as branch protection and rulesets select it: `Mintlify docs (<project-id>)`.
 * Stable for a project, whatever the workflow, job or run, and distinct for distinct projects: an
 * id with other characters than letters, digits, `_`, `.`, `:` and `-`, or over 100 of them, is
 * shown without them and followed by a short hash of the whole id.
 */
export function checkName(projectId: string): string {
  if (/^[\w.:-]{1,100}$/.test(projectId)) return `Mintlify docs (${projectId})`
  const hash = createHash('sha256').update(projectId, 'utf8').digest('hex').slice(0, 10)
  return `Mintlify docs (${projectId.replace(/[^\w.:-]/g, '').slice(0, 80)}~${hash})`
}

/**
 * The status for the run as it stands: state and words from the presentation, and a link: the
 * docs pull request once it is ready, when it is a pull request on this GitHub (`serverUrl`), or
 * else the workflow run. No other link from the API becomes the check's.
 */
export function checkStatus(state: RunState, runUrl: string | undefined, serverUrl: string) {
  const { check, link } = verdictOf(state)
  const docs = link && parsePullLink(link.href, serverUrl) ? link.href : undefined
  const target = (check.state === 'success' && docs) || safeLink(runUrl)?.href
  return {
    state: check.state,
    context: checkName(state.projectId),
    description: check.description.slice(0, MAX_DESCRIPTION),
    targetUrl: target
  }
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
}

export class CheckSink implements Sink {
  private readonly surface: Surface
  private readonly beside = new Beside()

  constructor(
    private readonly github: GitHubApi,
    private readonly options: CheckOptions,
    log: Log,
    /** Bounds for the write made while the job runs; `stop` ends it early. */
    private readonly writeWithin: (stop: AbortSignal) => Bounded,
    private readonly onUrl: (url: string) => void
  ) {
    this.surface = new Surface(log, 'The docs job is not affected.')
  }

  started(state: RunState): void {
    if (this.options.skipsOnly) return
    this.beside.start((within) => this.write(state, within), this.writeWithin)
  }

  /** The last word supersedes a pending write still under way: that one is stopped, not awaited. */
  async finished(state: RunState, within: Bounded): Promise<void> {
    this.beside.stop()
    if (this.options.skipsOnly && state.outcome.kind !== 'skipped') return
    await this.write(state, within)
  }

  private async write(state: RunState, within: Bounded): Promise<void> {
    const { owner, repo, sha } = this.options.commit
    const status = checkStatus(state, this.options.runUrl, this.options.serverUrl)
    const written = await this.surface.write(
      (failure) =>
        this.options.fork && failure.kind === 'refused'
          ? 'Could not set the docs check: pull requests from forks get a read-only token.'
          : `Could not set the docs check on ${sha.slice(0, 7)}: ` +
            `${describeGitHubError(failure, 'statuses: write')}.`,
      () =>
        within((signal) =>
          this.github.createStatus(owner, repo, sha, status, signal).then(() => true)
        )
    )
    if (written) this.onUrl(this.options.commitUrl)
  }
}
