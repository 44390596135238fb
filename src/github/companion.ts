/**
 * The pull request companion: finds the pull request the change belongs to, and keeps one status
 * comment on it. A later run trusts a comment as the action's record only when the token's own
 * account wrote it and the hidden marker opens it; anyone else's comment is never read for a job
 * and never edited. Best effort throughout, through the GitHub policy: a GitHub failure is one
 * warning, never a failed step, and every call is bounded.
 */
import { jobIdProblem } from '../job.js'
import type { Bounded, Log } from '../runtime.js'
import { forLog } from '../sanitize.js'
import { codeCommit } from '../trigger/code.js'
import { eventPullRequest, type Event } from './event.js'
import type { CommitPull, GitHubApi, IssueComment } from './octokit.js'
import { newestComment, writtenBy } from './own-comment.js'
import {
  Beside,
  createOnce,
  describeGitHubError,
  gitHubError,
  GitHubError,
  Surface
} from './policy.js'

/** The marker, alone on the first line of the body, as the action writes it. */
const MARKER =
  /^<!-- mintlify-agent-action project=(\S+) job=(\S+?)(?: sha=([0-9a-f]{40}))? -->(?:\r?\n|$)/

/** What a status comment records: the project, the job it reports on, and what it was told. */
export interface Recorded {
  readonly projectId: string
  readonly jobId: string
  /** The last code commit the job was told about, when one was. */
  readonly sha?: string
}

/** The hidden line that lets a later run find the comment and its job; ids are URL-encoded. */
export function marker(recorded: Recorded): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/-/g, '%2D')
  const sha = recorded.sha && /^[0-9a-f]{40}$/.test(recorded.sha) ? ` sha=${recorded.sha}` : ''
  return `<!-- mintlify-agent-action project=${encode(recorded.projectId)} job=${encode(recorded.jobId)}${sha} -->`
}

/**
 * The project and job a comment's marker records, when the marker opens the body as the action
 * writes it; a marker quoted anywhere else in a comment records nothing.
 */
export function readMarker(body: string): Recorded | undefined {
  const match = MARKER.exec(body)
  if (!match) return undefined
  try {
    const projectId = decodeURIComponent(match[1] ?? '')
    const jobId = decodeURIComponent(match[2] ?? '')
    const sha = match[3]
    return projectId && jobId ? { projectId, jobId, ...(sha ? { sha } : {}) } : undefined
  } catch {
    return undefined
  }
}

/** Whether `comment` is the action's own status comment for `projectId`, written by `account`. */
export function isOwnComment(comment: IssueComment, account: string, projectId: string): boolean {
  return writtenBy(comment, account) && readMarker(comment.body)?.projectId === projectId
}

/** The status comment was deleted a second time in one run: no third comment is written. */
class DeletedAgain extends GitHubError {}

export class Companion {
  private comment: IssueComment | undefined
  /** The comment as this run last wrote it; undefined until written, and once it is gone. */
  private written: IssueComment | undefined
  /** A deleted status comment was replaced: one replacement a run, so never two comments. */
  private replaced = false
  /** The login the token acts as; undefined until learned, and then no comment is trusted. */
  private account: string | undefined
  /** A create's answer left unknown whether the comment exists: look before creating again. */
  private uncertain = false
  private readonly beside = new Beside()
  private readonly surface: Surface

  constructor(
    private readonly github: GitHubApi,
    private readonly event: Event,
    /** The pull request the change belongs to. */
    readonly number: number,
    private readonly projectId: string,
    private readonly log: Log,
    /** Later runs send follow-ups to the recorded job, so an unreadable comment costs a new job. */
    private readonly reuse: boolean
  ) {
    this.surface = new Surface(log, '')
  }

  /**
   * Learns the token's account and finds this action's own status comment for the project,
   * newest first however long the conversation, and returns the job it records. A recorded job
   * id that is not a valid id is ignored with a warning; the comment is then updated with the new
   * job, so the next run does not meet it again.
   */
  async find(within: Bounded): Promise<Recorded | undefined> {
    // Who the token is and the first page of comments are asked for at once.
    const viewer = within((signal) => this.github.viewer(signal)).then(
      (account) => ({ account }),
      (error: unknown) => ({ error })
    )
    const wanted = viewer.then((v) =>
      'account' in v ? (c: IssueComment) => isOwnComment(c, v.account, this.projectId) : undefined
    )
    const thread = { owner: this.event.owner, repo: this.event.repo, number: this.number }
    const listed = newestComment(this.github, thread, within, wanted).then(
      (comment) => ({ comment }),
      (error: unknown) => ({ error })
    )
    const learned = await viewer
    if ('error' in learned) {
      this.surface.warn(
        `Could not learn which account github-token acts as ` +
          `(${describeGitHubError(learned.error, 'pull-requests: read')}), so no earlier comment ` +
          `on pull request #${this.number} is trusted: ` +
          (this.reuse
            ? 'a new docs job is started instead of a follow-up to the recorded one.'
            : 'a new status comment is written.')
      )
      return undefined
    }
    this.account = learned.account
    const found = await listed
    if ('error' in found) {
      this.surface.warn(
        `Could not read the comments of pull request #${this.number}: ` +
          `${describeGitHubError(found.error, 'pull-requests: read')}. ` +
          (this.reuse
            ? 'No earlier job can be found, so a new docs job is started, and will be on every ' +
              'push until the comments can be read.'
            : 'The docs job is not affected.')
      )
      return undefined
    }
    this.comment = found.comment
    if (!this.comment) return undefined
    this.log.info(`Found this action's comment on pull request #${this.number}.`)
    const recorded = readMarker(this.comment.body)
    const problem = recorded && jobIdProblem(recorded.jobId)
    if (problem) {
      this.log.warning(
        `The status comment on pull request #${this.number} records a job id that ${problem} ` +
          `(${forLog(recorded.jobId, 60)}), so it is ignored and a new job is started.`
      )
      return undefined
    }
    return recorded
  }

  /**
   * Writes the comment while the job runs, without anyone waiting for it: polling never waits for
   * GitHub. `finish` settles it first.
   */
  begin(
    body: string,
    within: (signal: AbortSignal) => Bounded,
    onUrl: (url: string | undefined) => void
  ): void {
    this.beside.start(async (bounds) => onUrl(await this.write(body, bounds)), within)
  }

  /** Writes the last state of the comment, after the write still under way has settled. */
  async finish(body: string, within: Bounded): Promise<string | undefined> {
    await this.beside.settle(within)
    return this.write(body, within)
  }

  /**
   * Creates the status comment, or updates the one found. Returns the URL of the comment this run
   * wrote, as long as it is not known to be gone (a later write that failed leaves it standing),
   * or undefined. A create is sent once: when its answer leaves it unknown whether it landed, the
   * comment is looked for before anything is created again. A comment deleted while the action
   * relies on it is replaced once.
   */
  private async write(body: string, within: Bounded): Promise<string | undefined> {
    const { owner, repo } = this.event
    const refused = (failure: GitHubError) => {
      const what = `status comment on pull request #${this.number}`
      const unaffected = 'The docs job is not affected.'
      if (failure instanceof DeletedAgain) {
        return `The ${what} was deleted again, so this run writes no other. ${unaffected}`
      }
      const could = this.replaced
        ? `The ${what} was deleted, and a new one could not be written`
        : `Could not write the ${what}`
      return this.event.pullRequest?.fork && failure.kind === 'refused'
        ? `${could}: pull requests from forks get a read-only token. ${unaffected}`
        : `${could}: ${describeGitHubError(failure, 'pull-requests: write')}. ${unaffected}`
    }
    const written = await this.surface.write(refused, () =>
      within(async (signal) => {
        if (!this.comment && this.uncertain) this.comment = await this.look(within)
        const existing = this.comment
        if (existing) {
          const updated = await this.update(existing, body, signal)
          if (updated) return updated
        }
        try {
          return await createOnce(
            () => this.github.createComment(owner, repo, this.number, body, signal),
            () => this.look(within)
          )
        } catch (error: unknown) {
          this.uncertain = gitHubError(error).mayHaveLanded
          throw error
        }
      })
    )
    if (written) {
      if (this.replaced && this.written === undefined) {
        this.log.info(
          `The status comment on pull request #${this.number} had been deleted, so a new one ` +
            'records the docs job.'
        )
      }
      this.comment = written
      this.written = written
      this.uncertain = false
    }
    return this.written?.url
  }

  /**
   * Updates `existing`; undefined when it answers 404 the first time, as a comment that was
   * deleted does: the caller then creates its replacement. The same answer again is final.
   */
  private async update(
    existing: IssueComment,
    body: string,
    signal: AbortSignal
  ): Promise<IssueComment | undefined> {
    const { owner, repo } = this.event
    try {
      return await this.github.updateComment(owner, repo, existing.id, body, signal)
    } catch (error: unknown) {
      if (gitHubError(error).status !== 404) throw error
      this.comment = undefined
      this.written = undefined
      if (this.replaced) {
        throw new DeletedAgain('The status comment was deleted again', 'refused', 404)
      }
      this.replaced = true
      return undefined
    }
  }

  /** This action's own comment for the project, when the token's account is known. */
  private async look(within: Bounded): Promise<IssueComment | undefined> {
    const account = this.account
    if (!account) return undefined
    return this.newest(within, (c) => isOwnComment(c, account, this.projectId))
  }

  /** The newest comment on the pull request that satisfies `wanted`. */
  private newest(
    within: Bounded,
    wanted: (comment: IssueComment) => boolean
  ): Promise<IssueComment | undefined> {
    const { owner, repo } = this.event
    return newestComment(this.github, { owner, repo, number: this.number }, within, wanted)
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
): Promise<CommitPull | undefined> {
  const pr = eventPullRequest(event)
  if (pr) return { number: pr.number, headSha: pr.headSha }
  // A tag points at a commit that may have come from a pull request long done with.
  if (event.name !== 'push' || event.deleted || event.ref?.startsWith('refs/tags/')) {
    return undefined
  }
  const sha = codeCommit(event)?.sha
  if (!sha) return undefined
  try {
    const pulls = await bounded((signal) =>
      github.commitPulls(event.owner, event.repo, sha, signal)
    )
    if (pulls.length === 1) return pulls[0]
    log.info(
      pulls.length === 0
        ? 'The pushed commit belongs to no pull request, so no status comment is written.'
        : `The pushed commit belongs to ${pulls.length} pull requests, so no status comment is written.`
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
