/**
 * The pull request companion: keeps one status comment on the pull request the change belongs
 * to (which `read/pull.ts` finds). A later run trusts a comment as the action's record only when the token's own
 * account wrote it and the hidden marker opens it; anyone else's comment is never read for a job
 * and never edited. Best effort throughout, through the GitHub policy: a GitHub failure is one
 * warning, never a failed step, and every call is bounded.
 */
import { decodeJobId, encodeJobId, jobIdProblem } from '../job-id.js'
import type { Within, Log } from '../runtime.js'
import { forLog } from '../sanitize.js'
import type { RepoRef } from '../trigger/ref.js'
import { pullName, type PullRef } from '../trigger/ref.js'
import {
  type Account,
  describeGitHubError,
  type GitHubApi,
  gitHubError,
  type IssueComment
} from './api.js'
import { readBacklink } from './backlink.js'
import { DeletedAgain, OwnedComment, writtenBy, type FindFailure } from './own-comment.js'
import { Surface } from './policy.js'

/** The marker, alone on the first line of the body, as the action writes it. */
const MARKER =
  /^<!-- mintlify-agent-action project=(\S+) job=(\S+?)(?: sha=([0-9a-f]{40}))?(?: docs=([A-Za-z0-9_.-]{1,100})\/([A-Za-z0-9_.-]{1,100})#([1-9]\d{0,9}))?(?: preview=([0-9a-f]{40}))? -->(?:\r?\n|$)/

/**
 * The account the workflow token (`github-token`'s default) always acts as: REST's
 * `GET /users/github-actions[bot]` answers `"id": 41898282, "type": "Bot"`, and GraphQL's `viewer`
 * for the token says the same id (see `__tests__/github-identity.test.ts`). When `viewer` cannot
 * be read, a status comment that account wrote is still the record.
 */
export const WORKFLOW_ACCOUNT: Account = { login: 'github-actions[bot]', id: 41898282, bot: true }

/** What a status comment records: the project, the job it reports on, and what it was told. */
export interface Recorded {
  readonly projectId: string
  readonly jobId: string
  /** The last code commit the job was told about, when one was. */
  readonly sha?: string
  /**
   * The docs pull request GitHub showed as the agent's for this job: the only one a later run
   * for the job writes to, whatever the platform's answer names then.
   */
  readonly docs?: PullRef
  /**
   * The docs pull request's head commit the last preview deployment was requested for: a later
   * run asks for another only once the head has moved.
   */
  readonly preview?: string
}

/**
 * The hidden line that lets a later run find the comment and its job. The ids are percent-encoded
 * (the job's as `encodeJobId` writes it) and `-` too, so whatever characters the platform's id
 * holds (a space, `-->`, a line break's lookalikes, markup) the line stays one HTML comment of
 * space-free words, and `readMarker` gives back the same ids.
 */
export function marker(recorded: Recorded): string {
  const hyphens = (value: string) => value.replace(/-/g, '%2D')
  const project = hyphens(encodeURIComponent(recorded.projectId))
  const job = hyphens(encodeJobId(recorded.jobId))
  const sha = recorded.sha && /^[0-9a-f]{40}$/.test(recorded.sha) ? ` sha=${recorded.sha}` : ''
  const docs = recorded.docs ? ` docs=${pullName(recorded.docs)}` : ''
  const preview =
    recorded.preview && /^[0-9a-f]{40}$/.test(recorded.preview)
      ? ` preview=${recorded.preview}`
      : ''
  return `<!-- mintlify-agent-action project=${project} job=${job}${sha}${docs}${preview} -->`
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
    const jobId = decodeJobId(match[2] ?? '')
    const sha = match[3]
    const [owner, repo, number] = [match[4], match[5], match[6]]
    const docs = owner && repo && number ? { owner, repo, number: Number(number) } : undefined
    const preview = match[7]
    return projectId && jobId !== undefined && jobId !== ''
      ? {
          projectId,
          jobId,
          ...(sha ? { sha } : {}),
          ...(docs ? { docs } : {}),
          ...(preview ? { preview } : {})
        }
      : undefined
  } catch {
    return undefined
  }
}

/** Whether `comment` is the action's own status comment for `projectId`, written by `account`. */
export function isOwnComment(comment: IssueComment, account: Account, projectId: string): boolean {
  return writtenBy(comment, account) && readMarker(comment.body)?.projectId === projectId
}

export class Companion {
  private readonly comment: OwnedComment
  private readonly surface: Surface
  /**
   * The pull request carries this action's backlink for the project: it is a docs pull request
   * the action followed, not a code change.
   */
  docsPull = false
  /**
   * Why the comments could not be read (or the token's account learned), so nothing is known of
   * what they record; undefined once they were read.
   */
  failure: FindFailure | undefined
  /**
   * The comments did not answer this time (no refusal): nothing is written, since
   * a status comment may already exist and a new one would be its duplicate.
   */
  private blind = false
  /** The pull request the change belongs to. */
  readonly number: number
  private readonly projectId: string
  private readonly log: Log
  /** Later runs send follow-ups to the recorded job, so an unreadable comment costs a new job. */
  private readonly reuse: boolean

  constructor(
    github: GitHubApi,
    /** The code repository, and whether the pull request's head is a fork's (a read-only token). */
    code: RepoRef & { readonly fork: boolean },
    number: number,
    projectId: string,
    log: Log,
    reuse: boolean
  ) {
    this.number = number
    this.projectId = projectId
    this.log = log
    this.reuse = reuse
    this.surface = new Surface(log, '')
    const what = `status comment on pull request #${number}`
    const unaffected = 'The docs job is not affected.'
    this.comment = new OwnedComment(
      github,
      { owner: code.owner, repo: code.repo, number },
      {
        mine: (body) => readMarker(body)?.projectId === projectId,
        describe: (failure, replaced) => {
          if (failure instanceof DeletedAgain) {
            return `The ${what} was deleted again, so this run writes no other. ${unaffected}`
          }
          const could = replaced
            ? `The ${what} was deleted, and a new one could not be written`
            : `Could not write the ${what}`
          return code.fork && failure.kind === 'refused'
            ? `${could}: pull requests from forks get a read-only token. ${unaffected}`
            : `${could}: ${describeGitHubError(failure, 'pull-requests: write')}. ${unaffected}`
        },
        replacedNote: `The ${what} had been deleted, so a new one records the docs job.`,
        assumed: WORKFLOW_ACCOUNT
      },
      this.surface,
      log
    )
  }

  /**
   * Learns the token's account and finds this action's own status comment for the project,
   * newest first however long the conversation, and returns the job it records. A recorded job
   * id that is not a valid id is ignored with a warning; the comment is then updated with the new
   * job, so the next run does not meet it again.
   */
  async find(within: Within): Promise<Recorded | undefined> {
    const projectId = this.projectId
    const result = await this.comment.find(
      within,
      (body) => readBacklink(body)?.projectId === projectId
    )
    if ('step' in result) {
      this.failure = result
      const why = describeGitHubError(result.error, 'pull-requests: read')
      if (gitHubError(result.error).kind !== 'refused') {
        this.blind = true
        const what =
          result.step === 'account'
            ? `Could not learn which account github-token acts as (${why}), and the newest ` +
              `status comment on pull request #${this.number} is not the workflow token's`
            : `Could not read the comments of pull request #${this.number}: ${why}`
        this.surface.warn(
          this.reuse
            ? `${what}. Whether it records a docs job is not known, so nothing is sent and no ` +
                'status comment is written beside the one it may hold: re-run the workflow job ' +
                'once GitHub answers.'
            : `${what}. No status comment is written beside the one it may hold; the docs job ` +
                'is not affected.'
        )
        return undefined
      }
      this.surface.warn(
        result.step === 'account'
          ? `Could not learn which account github-token acts as (${why}), so no earlier comment ` +
              `on pull request #${this.number} is trusted: ` +
              (this.reuse
                ? 'a new docs job is started instead of a follow-up to the recorded one.'
                : 'a new status comment is written.')
          : `Could not read the comments of pull request #${this.number}: ${why}. ` +
              (this.reuse
                ? 'No earlier job can be found, so a new docs job is started, and will be on ' +
                  'every push until the comments can be read.'
                : 'The docs job is not affected.')
      )
      return undefined
    }
    if (result.other) {
      this.docsPull = true
      return undefined
    }
    if (!result.found) return undefined
    this.log.info(`Found this action's comment on pull request #${this.number}.`)
    const recorded = readMarker(result.found.body)
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

  /** Whether this run created the status comment, rather than updating an earlier run's. */
  get created(): boolean {
    return this.comment.created
  }

  /** Writes the comment while the job runs, without anyone waiting for it. */
  begin(
    body: string,
    within: (signal: AbortSignal) => Within,
    onUrl?: (url: string | undefined) => void,
    after = false
  ): void {
    if (!this.blind) this.comment.begin(body, within, onUrl, after)
  }

  /**
   * Writes the last state of the comment, after the write still under way has settled; returns
   * the URL of a comment that exists, or undefined.
   */
  finish(body: string, within: Within): Promise<string | undefined> {
    if (this.blind) return Promise.resolve(undefined)
    return this.comment.finish(body, within)
  }
}
