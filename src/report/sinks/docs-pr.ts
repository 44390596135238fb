/**
 * The docs pull request follows the code pull request: one backlink comment, the `docs-reviewers`
 * and `docs-labels` once each, and on a close without merging, `on-code-closed`. The token reaches
 * that one repository only (`docs-reach.ts`). Best effort: a failure is one warning.
 */
import { fedChange } from '../../run/change/fed.js'
import { docsClosing } from '../../run/decide/closing.js'
import type { DocsHandle } from '../../clients/github/docs-handle.js'
import { backlinkBody, closingComment, docsWritten, reviewersRefused } from '../docs-pr.js'
import type { RunState } from '../../run/state.js'
import type { Within } from '../../base/runtime.js'
import type { Effect } from '../../run/decide/plan.js'
import type { Event } from '../../given/event.js'
import { pullName } from '../../given/ref.js'
import { isClosingNote, withChange, type Backlink } from '../../clients/github/backlink.js'
import { DocsReach, type Opened } from './docs-reach.js'
import { askEach, labelsToAdd, reviewPlan, type ReviewPlan } from './docs-review.js'
import type { Sink, SinkContext, Wrote } from './sink.js'

/** The docs pull request sink, with a token that may reach it; not for a dry run. */
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

/** The docs pull request as a sink, writing only through its reach (`DocsReach`). */
export class DocsPullSink extends DocsReach implements Sink {
  /** The backlink's address, once written. */
  private url: string | undefined
  /** What was written to the docs pull request, a line each, for the log. */
  private readonly did: string[] = []

  /** The backlink with this run's change, reviewers and labels (a closed pull request: `closed`). */
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
    const changes = withChange(record.changes, fedChange(event, state.trigger?.runUrl))
    if (pull.state === 'closed') {
      this.log.info(`Docs pull request ${pullName(ref)} is closed: no reviews or labels are added.`)
      return this.writeBacklink(opened, within, { ...record, changes })
    }
    // The code's authors: the pull request's, or those of the commits a push brought.
    const logins = event.commits.flatMap((commit) => (commit.login ? [commit.login] : []))
    const authors = event.pullRequest?.author ?? logins
    const review = reviewPlan(this.options.reviewers, authors, pull, ref.owner, record.asked)
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
      changes,
      asked: [...record.asked, ...asked],
      labeled: [...record.labeled, ...added.map((label) => label.toLowerCase())]
    })
  }

  /**
   * The code pull request was closed: carries out what `docsClosing` decides for the docs pull
   * request. Returns a line for the status comment saying what was done, if anything.
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
    const closed =
      plan.act === 'close' &&
      (await this.surface.write(
        (failure) => this.failed(`close ${pullName(ref)}`, failure, 'pull-requests: write'),
        () => within((signal) => handle.close(signal))
      ))
    if (closed) this.did.push(docsWritten.closed(ref))
    const note = this.comment(handle, opened.account, (body) =>
      isClosingNote(body, state.projectId)
    )
    const body = closingComment(state.projectId, code, this.options.serverUrl, plan.act)
    const comment = await note.write(body, within)
    if (comment) this.did.push(docsWritten.note(ref, comment))
    const done = closed
      ? `so docs pull request ${pullName(ref)} was closed.`
      : plan.act === 'comment' && comment
        ? `so a comment on docs pull request ${pullName(ref)} says it may no longer be needed.`
        : undefined
    if (!done) return undefined
    const line = `The code pull request was closed without merging, ${done}`
    this.log.info(line)
    await mark('closed')
    return line
  }

  /** Asks for the reviews (`askEach`); one warning names those refused. Returns the keys asked. */
  private async requestReviewers(
    handle: DocsHandle,
    plan: ReviewPlan,
    within: Within
  ): Promise<string[]> {
    const { ref } = handle
    const { users, teams } = plan
    const ask = (u: readonly string[], t: readonly string[]) =>
      within((signal) => handle.requestReviewers({ users: u, teams: t }, signal))
    const done =
      users.length + teams.length === 0
        ? { keys: [], refused: [] }
        : await this.surface.write(
            (failure) =>
              this.failed(`ask for reviews on ${pullName(ref)}`, failure, 'pull-requests: write'),
            () => askEach(ask, users, teams, ref.owner)
          )
    const names = [...users, ...teams.map((team) => `${ref.owner}/${team}`)]
    const reached = done ? names.filter((name) => !done.refused.includes(name)) : []
    if (reached.length > 0) this.did.push(docsWritten.reviewers(ref, reached))
    const refused = [...plan.skipped, ...(done?.refused ?? [])]
    if (refused.length > 0) this.log.warning(reviewersRefused(refused, ref))
    // Teams of another organisation cannot be asked: recorded, so they are named only once.
    return [...(done?.keys ?? []), ...plan.skipped.map((key) => key.toLowerCase())]
  }

  /** Updates the backlink, or creates it once (never blindly twice); reports its address. */
  private async writeBacklink(opened: Opened, within: Within, record: Backlink): Promise<void> {
    const url = await opened.backlink.write(backlinkBody(record, this.options.serverUrl), within)
    if (!url) return
    this.url = url
    this.did.push(docsWritten.backlink(opened.handle.ref, url, opened.backlink.created))
  }
}
