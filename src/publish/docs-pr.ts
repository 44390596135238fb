/**
 * The docs pull request follows the code pull request. With `docs-token`, once the job's `prLink`
 * names a pull request in the job's own docs repository on the workflow's GitHub, the action keeps
 * one backlink comment on it (its record and words: `backlink.ts`, `present/docs-pr.ts`), asks the
 * `docs-reviewers` for a review and adds the `docs-labels` once each (`docs-review.ts`), and when
 * the code pull request is closed without merging, closes the docs pull request or says so there.
 *
 * The docs token goes to that one repository only, through `GITHUB_API_URL`; a link anywhere else
 * is not followed (`trigger/docs.ts`). The backlink is an owned comment, trusted as the status
 * comment is. Best effort throughout, through the GitHub policy: a failure is one warning and
 * never changes how the step ends.
 */
import { fedChange } from '../trigger/fed.js'
import { docsClosing } from '../decide/closing.js'
import type { Account, GitHubApi } from '../github/api.js'
import { DocsHandle, ProvenPull } from '../github/docs-handle.js'
import { OwnedComment } from '../github/own-comment.js'
import { Surface } from '../github/policy.js'
import type { DocsReviewers } from '../inputs/names.js'
import {
  backlinkBody,
  closingComment,
  docsFailure,
  docsWritten,
  noDocsToken,
  reviewersRefused
} from '../present/docs-pr.js'
import type { RunState } from '../run.js'
import type { Within, Log } from '../runtime.js'
import { docsTargetOf } from '../trigger/docs.js'
import type { Effect } from '../decide/plan.js'
import type { Event } from '../trigger/event.js'
import { pullName, sameRepo } from '../trigger/ref.js'
import { isClosingNote, readBacklink, withChange, type Backlink } from '../github/backlink.js'
import { askEach, labelsToAdd, reviewPlan, type ReviewPlan } from './docs-review.js'
import type { Sink, SinkContext, Wrote } from './sink.js'

/**
 * The docs pull request sink, with a token that may reach it: `docs-token` for a docs repository
 * of its own, the workflow token for docs in the code repository itself. Not for a dry run.
 */
export function docsPullSink(
  context: SinkContext,
  effect: Extract<Effect, { kind: 'docs-pull' }>
): Sink | undefined {
  const { settings, trigger, docsGitHub, github } = context
  if ((!docsGitHub && !github) || !trigger || settings.dryRun) return undefined
  const { docsReviewers: reviewers, docsLabels: labels, onCodeClosed, agentAccounts } = settings
  const serverUrl = trigger.event.serverUrl
  return new DocsPullSink(
    { docs: docsGitHub, workflow: github },
    { reviewers, labels, onCodeClosed, serverUrl, agents: agentAccounts, closed: effect.closed },
    context.log
  )
}

/** The tokens the sink may use, each only where it belongs. */
export interface DocsTokens {
  /** `docs-token`: for a docs repository of its own. */
  readonly docs?: GitHubApi
  /** `github-token`: for docs in the code repository itself. */
  readonly workflow?: GitHubApi
}

/** What the docs pull request sink is asked to do, from the inputs. */
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
interface Opened {
  readonly handle: DocsHandle
  readonly account: Account
  /** The backlink: found, or to be created. */
  readonly backlink: OwnedComment
  readonly record: Backlink
}

/**
 * The docs pull request as a sink. Each token is only ever called for the repository of the
 * job's pull request link, and only where it belongs (see `DocsTokens`).
 */
export class DocsPullSink implements Sink {
  private readonly surface: Surface
  /** The backlink's address, once written. */
  private url: string | undefined
  /** What was written to the docs pull request, a line each, for the log. */
  private readonly did: string[] = []
  /** The token chosen for the docs pull request, once its link was checked (for warnings). */
  private use: 'docs-token' | 'github-token' | undefined
  /** The docs repository, `owner/name`, once the link was checked (for warnings). */
  private repository: string | undefined
  private readonly tokens: DocsTokens
  private readonly options: DocsOptions
  private readonly log: Log

  constructor(tokens: DocsTokens, options: DocsOptions, log: Log) {
    this.tokens = tokens
    this.options = options
    this.log = log
    this.surface = new Surface(log, 'The docs job is not affected.')
  }

  /**
   * At the end of a run: the backlink (with this run's change), then reviewers and labels, once.
   * A run on a closed pull request did its work in `closed`. Hands back the backlink's address.
   */
  async finished(state: RunState, within: Within): Promise<Wrote | undefined> {
    const event = state.trigger?.event
    if (event && !this.options.closed) await this.follow(event, state, within)
    const did = this.did.length > 0 ? { did: [...this.did] } : {}
    return this.url ? { written: 'docs-comment', url: this.url, ...did } : { ...did }
  }

  /** The backlink with this run's change, then the reviewers and labels not yet asked or added. */
  private async follow(event: Event, state: RunState, within: Within): Promise<void> {
    const opened = await this.open(state, within)
    if (!opened) return
    const { handle, record } = opened
    const { ref, pull } = handle
    if (pull.state === 'closed') {
      this.log.info(`Docs pull request ${pullName(ref)} is closed: no reviews or labels are added.`)
      return this.writeBacklink(opened, within, {
        ...record,
        changes: withChange(record.changes, fedChange(event, state.trigger?.runUrl))
      })
    }
    // The code's authors: the pull request's, or those of the commits a push brought.
    const logins = event.commits.flatMap((commit) => (commit.login ? [commit.login] : []))
    const review = reviewPlan(
      this.options.reviewers,
      event.pullRequest?.author ?? logins,
      pull,
      ref.owner,
      record.asked
    )
    const asked = await this.requestReviewers(handle, review, within)
    const labels = labelsToAdd(this.options.labels, pull.labels, record.labeled)
    const added =
      labels.length === 0
        ? []
        : ((await this.surface.write(
            (failure) => this.failed(`add labels to ${pullName(ref)}`, failure, 'issues: write'),
            () => within((signal) => handle.addLabels(labels, signal)).then(() => labels)
          )) ?? [])
    if (added.length > 0) this.did.push(docsWritten.labels(ref, added))
    await this.writeBacklink(opened, within, {
      ...record,
      changes: withChange(record.changes, fedChange(event, state.trigger?.runUrl)),
      asked: [...record.asked, ...asked],
      labeled: [...record.labeled, ...added.map((label) => label.toLowerCase())]
    })
  }

  /**
   * The code pull request was closed: the decision (`docsClosing`) says what becomes of the docs
   * pull request once it was read, and this carries it out. Returns a line for the status
   * comment saying what was done, if anything.
   */
  async closed(state: RunState, within: Within): Promise<string | undefined> {
    const event = state.trigger?.event
    const how = this.options.closed
    const code = state.trigger?.pull
    if (!event || !how || !code) return undefined
    const action = this.options.onCodeClosed
    if (docsClosing(how, action).act === 'none') {
      this.log.info('The code pull request was closed without merging (on-code-closed: nothing).')
      return undefined
    }
    const opened = await this.open(state, within)
    if (!opened) return undefined
    const { handle, record } = opened
    const { ref, pull } = handle
    const changes =
      record.changes.length > 0 ? record.changes : [fedChange(event, state.trigger?.runUrl)]
    const mark = (end: 'merged' | 'closed') =>
      this.writeBacklink(opened, within, { ...record, changes, code: end })
    const plan = docsClosing(how, action, { state: pull.state, marked: record.code })
    if (plan.act === 'record-merged') return void (await mark('merged'))
    if (plan.act === 'leave') {
      const is = plan.because === 'docs-closed' ? 'already closed' : 'already marked as abandoned'
      this.log.info(`Docs pull request ${pullName(ref)} is ${is}; nothing more is done.`)
      if (plan.record) await mark('closed')
      return undefined
    }
    if (plan.act !== 'close' && plan.act !== 'comment') return undefined
    let done: string | undefined
    if (plan.act === 'close') {
      const closed = await this.surface.write(
        (failure) => this.failed(`close ${pullName(ref)}`, failure, 'pull-requests: write'),
        () => within((signal) => handle.close(signal))
      )
      if (closed) {
        done = `so docs pull request ${pullName(ref)} was closed.`
        this.did.push(docsWritten.closed(ref))
      }
    }
    const note = this.comment(handle, opened.account, 'comment on', (body) =>
      isClosingNote(body, state.projectId)
    )
    const comment = await note.write(
      closingComment(state.projectId, code, this.options.serverUrl, plan.act),
      within
    )
    if (comment) this.did.push(docsWritten.note(ref, comment))
    if (plan.act === 'comment' && comment) {
      done = `so a comment on docs pull request ${pullName(ref)} says it may no longer be needed.`
    }
    if (!done) return undefined
    this.log.info(`The code pull request was closed without merging, ${done}`)
    await mark('closed')
    return `The code pull request was closed without merging, ${done}`
  }

  /**
   * Checks the job's link, then learns the docs token's account, reads the pull request and
   * finds the action's own backlink on it. Undefined (with one warning) when any of it fails.
   */
  private async open(state: RunState, within: Within): Promise<Opened | undefined> {
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
    // The run read it already and GitHub showed it is not the agent's (said once, then): nothing
    // more is read or written there.
    if (docs?.state === 'foreign' && docs.ref?.number === ref.number && sameRepo(docs.ref, ref)) {
      return undefined
    }
    const github = target.inCodeRepo ? this.tokens.workflow : this.tokens.docs
    if (!github) {
      if (this.asksSomething()) {
        this.surface.warn(noDocsToken(ref))
      }
      return undefined
    }
    const token = target.inCodeRepo ? 'github-token' : 'docs-token'
    this.use = token
    this.repository = `${ref.owner}/${ref.repo}`
    // The run's own read of it was refused for this token, and the run said so with the fix:
    // the same token would be refused again, and a second warning would repeat the first.
    if (
      docs?.state === 'unknown' &&
      docs.failure === 'refused' &&
      docs.token === token &&
      docs.ref?.number === ref.number &&
      sameRepo(docs.ref, ref)
    ) {
      this.log.debug(`GitHub refused ${token} for ${pullName(ref)} already: nothing is sent there.`)
      return undefined
    }
    const read = await this.surface.write(
      (failure) => this.failed(`read ${pullName(ref)}`, failure, 'pull-requests: read'),
      async () => {
        const account = await within((signal) => github.viewer(signal))
        // The run proved it before anything said the docs were ready: no need to read it again.
        const known = state.docs?.proven
        const proven =
          known?.is(ref) === true
            ? known
            : ProvenPull.prove(
                ref,
                await within((signal) => github.getPull(ref.owner, ref.repo, ref.number, signal)),
                {
                  agents: this.options.agents,
                  serverUrl: this.options.serverUrl,
                  recorded: state.recordedDocs
                }
              )
        // Nothing is read or written on a pull request GitHub does not show as the agent's.
        if ('refused' in proven) return { foreign: proven.refused }
        const handle = DocsHandle.of(proven, github, token)
        const backlink = this.comment(
          handle,
          account,
          'comment on',
          (body) => readBacklink(body)?.projectId === state.projectId
        )
        const found = await backlink.find(within)
        if ('step' in found) throw found.error
        return { account, handle, backlink, found: found.found }
      }
    )
    if (!read) return undefined
    if (read.foreign !== undefined) {
      this.surface.warn(read.foreign)
      return undefined
    }
    const empty: Backlink = { projectId: state.projectId, changes: [], asked: [], labeled: [] }
    const record = (read.found && readBacklink(read.found.body)) || empty
    return { handle: read.handle, account: read.account, backlink: read.backlink, record }
  }

  /** One owned comment on the docs pull request, written as the docs token's `account`. */
  private comment(
    handle: DocsHandle,
    account: Account,
    what: string,
    mine: (body: string) => boolean
  ): OwnedComment {
    const ref = handle.ref
    return new OwnedComment(
      handle.thread(),
      ref,
      {
        mine,
        describe: (failure) =>
          this.failed(`${what} ${pullName(ref)}`, failure, 'pull-requests: write')
      },
      this.surface,
      this.log
    ).actingAs(account)
  }

  /**
   * Asks for the reviews in one request; when GitHub refuses it for one name (422: not a
   * collaborator), asks one name at a time, so the others are still asked. Returns the keys to
   * record as asked, refused names included (they are not asked again); one warning names them.
   */
  private async requestReviewers(
    handle: DocsHandle,
    plan: ReviewPlan,
    within: Within
  ): Promise<string[]> {
    const ref = handle.ref
    const { users, teams } = plan
    const refused: string[] = [...plan.skipped]
    // Teams of another organisation cannot be asked: recorded, so they are named only once.
    const skipped = plan.skipped.map((key) => key.toLowerCase())
    const ask = (u: readonly string[], t: readonly string[]) =>
      within((signal) => handle.requestReviewers({ users: u, teams: t }, signal))
    let asked: string[] = []
    if (users.length + teams.length > 0) {
      const done = await this.surface.write(
        (failure) =>
          this.failed(`ask for reviews on ${pullName(ref)}`, failure, 'pull-requests: write'),
        async () => {
          const done = await askEach(ask, users, teams, ref.owner)
          refused.push(...done.refused)
          const names = [...users, ...teams.map((team) => `${ref.owner}/${team}`)]
          const reached = names.filter((name) => !done.refused.includes(name))
          if (reached.length > 0) this.did.push(docsWritten.reviewers(ref, reached))
          return done.keys
        }
      )
      asked = done ?? []
    }
    if (refused.length > 0) {
      this.log.warning(reviewersRefused(refused, ref))
    }
    return [...asked, ...skipped]
  }

  /** Updates the backlink, or creates it once (never blindly twice); reports its address. */
  private async writeBacklink(opened: Opened, within: Within, record: Backlink): Promise<void> {
    const url = await opened.backlink.write(backlinkBody(record, this.options.serverUrl), within)
    if (!url) return
    this.url = url
    this.did.push(docsWritten.backlink(opened.handle.ref, url, opened.backlink.created))
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
  private failed(what: string, failure: unknown, permission: string): string {
    return docsFailure(what, failure, permission, this.use ?? 'docs-token', this.repository)
  }
}
