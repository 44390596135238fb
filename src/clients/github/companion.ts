/**
 * One status comment on the change's pull request, the record later runs read. Best effort: a
 * GitHub failure is one warning, never a failed step.
 */
import { decodeJobId, encodeJobId, jobIdProblem } from '../../base/job-id.js'
import type { Within, Log } from '../../base/runtime.js'
import { forLog } from '../../base/sanitize.js'
import type { RepoRef } from '../../given/ref.js'
import { pullName, type PullRef } from '../../given/ref.js'
import { type Account, describeGitHubError, type GitHubApi, gitHubError } from './api.js'
import { readBacklink } from './backlink.js'
import { DeletedAgain, OwnedComment, type FindFailure } from './own-comment.js'
import { Surface } from './policy.js'

const MARKER =
  /^<!-- mintlify-agent-action project=(\S+) job=(\S+?)(?: sha=([0-9a-f]{40}))?(?: docs=([A-Za-z0-9_.-]{1,100})\/([A-Za-z0-9_.-]{1,100})#([1-9]\d{0,9}))?(?: preview=([0-9a-f]{40}))? -->(?:\r?\n|$)/

/** The workflow token's account: `GET /users/github-actions[bot]` answers id 41898282, a Bot. */
const WORKFLOW_ACCOUNT: Account = { login: 'github-actions[bot]', id: 41898282, bot: true }

/** What a status comment records: the project, the job it reports on, and what it was told. */
export interface Recorded {
  readonly projectId: string
  readonly jobId: string
  /** The last code commit the job was told about. */
  readonly sha?: string
  /** The only docs pull request later runs write to, whatever the platform names then. */
  readonly docs?: PullRef
  /** The docs head the last preview was asked for: another only once the head moves. */
  readonly preview?: string
}

/**
 * The hidden line a later run finds the comment and its job by. Ids are percent-encoded, `-` too,
 * so whatever the platform's id holds the line stays one HTML comment of space-free words.
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

/** What the marker opening `body` records; a marker quoted anywhere else records nothing. */
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

export class Companion {
  private readonly comment: OwnedComment
  private readonly surface: Surface
  /** It carries the action's backlink: a docs pull request the action followed, not a change. */
  docsPull = false
  /** Why the comments (or the token's account) could not be read; undefined once they were. */
  failure: FindFailure | undefined
  /** Unanswered (not refused): nothing is written, as it could duplicate an unseen comment. */
  private blind = false
  readonly number: number
  private readonly projectId: string
  private readonly log: Log
  /** Later runs send follow-ups to the recorded job, so an unreadable comment costs a new job. */
  private readonly reuse: boolean

  constructor(
    github: GitHubApi,
    /** A fork's pull request gets a read-only token. */
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

  /** The job the action's own status comment records; an invalid job id is ignored, and replaced. */
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

  get created(): boolean {
    return this.comment.created
  }

  begin(
    body: string,
    within: (signal: AbortSignal) => Within,
    onUrl?: (url: string | undefined) => void,
    after = false
  ): void {
    if (!this.blind) this.comment.begin(body, within, onUrl, after)
  }

  /** Writes the last state after the write under way settled; the URL of a comment that exists. */
  finish(body: string, within: Within): Promise<string | undefined> {
    if (this.blind) return Promise.resolve(undefined)
    return this.comment.finish(body, within)
  }
}
