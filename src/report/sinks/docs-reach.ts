/**
 * Reaching the docs pull request: the job's link checked, the token chosen, the pull request
 * proven the agent's and the action's backlink found on it; every write to it goes through this.
 */
import type { Account, GitHubApi } from '../../clients/github/api.js'
import { readBacklink, type Backlink } from '../../clients/github/backlink.js'
import { DocsHandle, ProvenPull } from '../../clients/github/docs-handle.js'
import { OwnedComment } from '../../clients/github/own-comment.js'
import { Surface } from '../../clients/github/policy.js'
import type { DocsReviewers } from '../../given/inputs/names.js'
import { docsFailure, noDocsToken } from '../docs-pr.js'
import type { RunState } from '../../run/state.js'
import type { Log, Within } from '../../base/runtime.js'
import { docsTargetOf } from '../../given/docs.js'
import { pullName, sameRepo } from '../../given/ref.js'

/** The tokens the sink may use, each only where it belongs. */
export interface DocsTokens {
  /** `docs-token`: for a docs repository of its own. */
  readonly docs?: GitHubApi
  /** `github-token`: for docs in the code repository itself. */
  readonly workflow?: GitHubApi
}

export interface DocsOptions {
  readonly reviewers: DocsReviewers
  readonly labels: readonly string[]
  readonly onCodeClosed: 'close' | 'comment' | 'nothing'
  /** `GITHUB_SERVER_URL`: the only host whose pull requests the docs token is used for. */
  readonly serverUrl: string
  /** `agent-accounts`: a docs pull request is written to only when one of them opened it. */
  readonly agents: readonly string[]
  /** The code pull request was closed, merged or not: the run follows its end, nothing else. */
  readonly closed?: 'merged' | 'closed'
}

/** The docs pull request once proven and read: the only way this sink writes to it. */
export type Opened = NonNullable<Awaited<ReturnType<DocsReach['open']>>>

/** The docs pull request's reach, for one run: the tokens, and what was learned of the target. */
export class DocsReach {
  protected readonly surface: Surface
  /** The token chosen and the docs repository (`owner/name`), once the link was checked. */
  private use: 'docs-token' | 'github-token' | undefined
  private repository: string | undefined
  private readonly tokens: DocsTokens
  protected readonly options: DocsOptions
  protected readonly log: Log

  constructor(tokens: DocsTokens, options: DocsOptions, log: Log) {
    this.tokens = tokens
    this.options = options
    this.log = log
    this.surface = new Surface(log, 'The docs job is not affected.')
  }

  /** The docs pull request, proven and read; undefined (with one warning) when any step fails. */
  async open(state: RunState, within: Within) {
    const target = docsTargetOf(state.job, this.options.serverUrl, state.trigger?.event)
    if (!target) {
      this.log.debug('The docs job has no pull request link, so no token is used for it.')
      return undefined
    }
    if ('problem' in target) {
      if (this.tokens.docs || this.asksSomething()) this.surface.warn(target.problem)
      return undefined
    }
    const { ref } = target
    const { docs } = state
    const same = docs?.ref?.number === ref.number && sameRepo(docs.ref, ref)
    // GitHub showed it is not the agent's (said once, then): nothing more is read or written.
    if (docs?.state === 'foreign' && same) return undefined
    const github = target.inCodeRepo ? this.tokens.workflow : this.tokens.docs
    if (!github) {
      if (this.asksSomething()) this.surface.warn(noDocsToken(ref))
      return undefined
    }
    const token = target.inCodeRepo ? 'github-token' : 'docs-token'
    this.use = token
    this.repository = `${ref.owner}/${ref.repo}`
    // This token was refused already, and the run said so: a second warning would repeat it.
    if (docs?.state === 'unknown' && docs.failure === 'refused' && docs.token === token && same) {
      this.log.debug(`GitHub refused ${token} for ${pullName(ref)} already: nothing is sent there.`)
      return undefined
    }
    const read = await this.surface.write(
      (failure) => this.failed(`read ${pullName(ref)}`, failure, 'pull-requests: read'),
      async () => {
        const account = await within((signal) => github.viewer(signal))
        // The run proved it before anything said the docs were ready: no need to read it again.
        const known = docs?.proven
        const proven =
          known?.is(ref) === true
            ? known
            : ProvenPull.prove(
                ref,
                await within((signal) => github.getPull(ref.owner, ref.repo, ref.number, signal)),
                { ...this.options, recorded: state.recordedDocs }
              )
        // Nothing is read or written on a pull request GitHub does not show as the agent's.
        if ('refused' in proven) return { foreign: proven.refused }
        const handle = DocsHandle.of(proven, github, token)
        const mine = (body: string) => readBacklink(body)?.projectId === state.projectId
        const backlink = this.comment(handle, account, mine)
        const found = await backlink.find(within)
        if ('step' in found) throw found.error
        return { account, handle, backlink, found: found.found }
      }
    )
    if (!read) return undefined
    if (read.foreign !== undefined) return void this.surface.warn(read.foreign)
    const empty: Backlink = { projectId: state.projectId, changes: [], asked: [], labeled: [] }
    const record = (read.found && readBacklink(read.found.body)) || empty
    return { handle: read.handle, account: read.account, backlink: read.backlink, record }
  }

  /** One owned comment on the docs pull request, written as the docs token's `account`. */
  comment(handle: DocsHandle, account: Account, mine: (body: string) => boolean): OwnedComment {
    const ref = handle.ref
    return new OwnedComment(
      handle.thread(),
      ref,
      {
        mine,
        describe: (failure) =>
          this.failed(`comment on ${pullName(ref)}`, failure, 'pull-requests: write')
      },
      this.surface,
      this.log
    ).actingAs(account)
  }

  /** Whether the inputs ask anything of the docs pull request beyond the backlink. */
  private asksSomething(): boolean {
    const { reviewers, labels, onCodeClosed } = this.options
    const closing = this.options.closed === 'closed'
    return (
      reviewers.users.length + reviewers.teams.length > 0 ||
      reviewers.author ||
      labels.length > 0 ||
      (closing && onCodeClosed !== 'nothing')
    )
  }

  /** Why a docs request failed, with the token chosen for it. */
  failed(what: string, failure: unknown, permission: string): string {
    return docsFailure(what, failure, permission, this.use ?? 'docs-token', this.repository)
  }
}
