/**
 * The pull request companion: finds the pull request the change belongs to, and keeps one status
 * comment on it, found again by a hidden marker that records the Mintlify project and job. Best
 * effort throughout: a GitHub failure is one warning, never a failed step, and every call is
 * bounded by the signal it is given.
 */
import type { Bounded, Log } from '../runtime.js'
import { eventPullRequest, type Event } from './event.js'
import { describeGitHubError, type GitHubApi, type IssueComment } from './octokit.js'

const MARKER = /<!-- mintlify-agent-action project=(\S+) job=(\S+) -->/

/** What a status comment records: the project and the job it reports on. */
export interface Recorded {
  readonly projectId: string
  readonly jobId: string
}

/** The hidden line that lets a later run find the comment and its job; ids are URL-encoded. */
export function marker(recorded: Recorded): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/-/g, '%2D')
  return `<!-- mintlify-agent-action project=${encode(recorded.projectId)} job=${encode(recorded.jobId)} -->`
}

/** The project and job a comment's marker records, wherever in the body it stands. */
export function readMarker(body: string): Recorded | undefined {
  const match = MARKER.exec(body)
  if (!match) return undefined
  try {
    const projectId = decodeURIComponent(match[1] ?? '')
    const jobId = decodeURIComponent(match[2] ?? '')
    return projectId && jobId ? { projectId, jobId } : undefined
  } catch {
    return undefined
  }
}

export class Companion {
  private comment: IssueComment | undefined
  private warned = false
  /** A write was refused for want of permission: the next one would be refused too. */
  private refused = false

  constructor(
    private readonly github: GitHubApi,
    private readonly event: Event,
    /** The pull request the change belongs to. */
    readonly number: number,
    private readonly log: Log,
    private readonly bounded: Bounded,
    /** Bounds for a call that must be made even after a cancellation or the deadline. */
    private readonly lastly: (ms: number) => Bounded
  ) {}

  /**
   * Finds this action's earlier comment for `projectId` on the pull request (the first 100
   * comments are read; each Mintlify project keeps its own) and returns what its marker records.
   */
  async find(projectId: string): Promise<Recorded | undefined> {
    try {
      const comments = await this.bounded((signal) =>
        this.github.listComments(this.event.owner, this.event.repo, this.number, signal)
      )
      this.comment = comments.find((c) => readMarker(c.body)?.projectId === projectId)
      if (this.comment) {
        this.log.info(`Found this action's comment on pull request #${this.number}.`)
      }
      return this.comment ? readMarker(this.comment.body) : undefined
    } catch (error: unknown) {
      this.warn('read the comments of', error, 'pull-requests: read')
      return undefined
    }
  }

  /**
   * Creates the status comment, or updates the one found; returns its URL, or undefined. With
   * `lastMs`, the call gets that long whatever the step's deadline and cancellation say.
   */
  async write(body: string, lastMs?: number): Promise<string | undefined> {
    const { owner, repo } = this.event
    const within = lastMs === undefined ? this.bounded : this.lastly(lastMs)
    if (this.refused) return undefined
    try {
      const existing = this.comment
      this.comment = await within((signal) =>
        existing
          ? this.github.updateComment(owner, repo, existing.id, body, signal)
          : this.github.createComment(owner, repo, this.number, body, signal)
      )
      return this.comment.url
    } catch (error: unknown) {
      const status = error && typeof error === 'object' && 'status' in error ? error.status : 0
      this.refused = status === 401 || status === 403 || status === 404
      this.warn('write the status comment on', error, 'pull-requests: write')
      return undefined
    }
  }

  private warn(what: string, error: unknown, permission: string): void {
    if (this.warned) return
    this.warned = true
    const fork = this.event.pullRequest?.fork
    const refused = error && typeof error === 'object' && 'status' in error && error.status === 403
    this.log.warning(
      fork && refused
        ? `Could not ${what} pull request #${this.number}: pull requests from forks get a ` +
            'read-only token. The docs job is not affected.'
        : `Could not ${what} pull request #${this.number}: ` +
            `${describeGitHubError(error, permission)}. The docs job is not affected.`
    )
  }
}

/**
 * The pull request the change belongs to: the event's own for pull request events; for a push,
 * the one pull request GitHub associates with the pushed commit (none when there are several).
 */
export async function pullRequestOf(
  event: Event,
  github: GitHubApi,
  bounded: Bounded,
  log: Log
): Promise<number | undefined> {
  const pr = eventPullRequest(event)
  if (pr) return pr.number
  // A tag points at a commit that may have come from a pull request long done with.
  if (event.name !== 'push' || event.deleted || event.ref?.startsWith('refs/tags/')) {
    return undefined
  }
  const sha = event.after ?? event.sha
  if (!sha) return undefined
  try {
    const numbers = await bounded((signal) =>
      github.commitPulls(event.owner, event.repo, sha, signal)
    )
    if (numbers.length === 1) return numbers[0]
    log.info(
      numbers.length === 0
        ? 'The pushed commit belongs to no pull request, so no status comment is written.'
        : `The pushed commit belongs to ${numbers.length} pull requests, so no status comment is written.`
    )
    return undefined
  } catch (error: unknown) {
    log.warning(
      `Could not find the pull request of the pushed commit: ` +
        `${describeGitHubError(error, 'pull-requests: read')}. No status comment is written; ` +
        'the docs job is not affected.'
    )
    return undefined
  }
}
