/**
 * The docs pull request follows the code pull request. With `docs-token`, once the job's `prLink`
 * names a pull request on the workflow's own GitHub, the action keeps one backlink comment on it
 * (which code changes fed the job, and what became of the code pull request), asks the
 * `docs-reviewers` for a review and adds the `docs-labels` once each, and when the code pull
 * request is closed without merging, closes the docs pull request or says so there.
 *
 * The docs token goes to that one repository only, through `GITHUB_API_URL`; a link anywhere else
 * is not followed. The backlink is trusted as the status comment is: written by the docs token's
 * own account, with the action's marker on its first line. Best effort throughout, through the
 * GitHub policy: a failure is one warning and never changes how the step ends.
 */
import { closedPull, type Event } from '../github/event.js'
import type { GitHubApi, IssueComment, PullState } from '../github/octokit.js'
import { newestComment, writtenBy } from '../github/own-comment.js'
import { createOnce, describeGitHubError, gitHubError, Surface } from '../github/policy.js'
import type { DocsReviewers } from '../inputs.js'
import type { RunState } from '../run.js'
import type { Bounded, Log } from '../runtime.js'
import { cut, escapeMarkup, forLog, safeLink } from '../sanitize.js'
import { docsTargetOf, type DocsJob } from '../trigger/docs.js'
import { pullName, sameRepo, type PullRef, type RepoRef } from '../trigger/ref.js'
import type { Sink } from './sink.js'

/** Most changes the backlink lists; older ones drop off the top. */
export const MAX_BACKLINK_CHANGES = 20

/** One code change that fed the docs job: a pull request, or pushed commits. */
export interface FedChange {
  /** `owner/name` of the code repository. */
  readonly repo: string
  /** The code pull request's number; absent for a push. */
  readonly pull?: number
  /** The pull request's title, or the pushed head commit's first line. */
  readonly title?: string
  readonly author?: string
  /** The commit the change ended on. */
  readonly sha?: string
  /** How many commits a push brought. */
  readonly commits?: number
  /** The workflow run that sent it. */
  readonly run?: string
}

/** What the backlink comment records, in its hidden first line. */
export interface Backlink {
  readonly projectId: string
  /** Oldest first, at most `MAX_BACKLINK_CHANGES`. */
  readonly changes: readonly FedChange[]
  /** What became of the code pull request, once it was closed. */
  readonly code?: 'merged' | 'closed'
  /** Reviewers already asked (`login`, `org/team`), lower case: each is asked once. */
  readonly asked: readonly string[]
  /** Labels already added, lower case: a label someone removed is not added again. */
  readonly labeled: readonly string[]
}

const BACKLINK =
  /^<!-- mintlify-agent-action docs-backlink project=(\S+) data=([A-Za-z0-9_-]*) -->(?:\r?\n|$)/
const CLOSING = /^<!-- mintlify-agent-action docs-closed project=(\S+) -->(?:\r?\n|$)/
const REPO = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/
const SHA = /^[0-9a-f]{7,40}$/

const encodeId = (value: string) => encodeURIComponent(value).replace(/-/g, '%2D')

/** The hidden first line of the backlink: the project, and the record as base64url JSON. */
function backlinkMarker(record: Backlink): string {
  const { projectId, ...data } = record
  const encoded = Buffer.from(JSON.stringify(data), 'utf8').toString('base64url')
  return `<!-- mintlify-agent-action docs-backlink project=${encodeId(projectId)} data=${encoded} -->`
}

/** The hidden first line of the comment that says why the docs pull request was closed. */
function closingMarker(projectId: string): string {
  return `<!-- mintlify-agent-action docs-closed project=${encodeId(projectId)} -->`
}

function decodeId(text: string): string | undefined {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

/** A list of strings from the record, dropping anything else. */
function strings(value: unknown, max: number): string[] {
  if (!Array.isArray(value)) return []
  return value.filter((v): v is string => typeof v === 'string' && v.length <= 200).slice(0, max)
}

/** One recorded change, when it has the shape the action writes; anything else is dropped. */
function readChange(value: unknown): FedChange[] {
  if (!value || typeof value !== 'object') return []
  const v = value as Record<string, unknown>
  if (typeof v.repo !== 'string' || !REPO.test(v.repo)) return []
  const text = (x: unknown, max: number) => (typeof x === 'string' && x ? cut(x, max) : undefined)
  const count = (x: unknown) =>
    typeof x === 'number' && Number.isInteger(x) && x > 0 && x < 1e10 ? x : undefined
  return [
    {
      repo: v.repo,
      pull: count(v.pull),
      title: text(v.title, 200),
      author: text(v.author, 100),
      sha: typeof v.sha === 'string' && SHA.test(v.sha) ? v.sha : undefined,
      commits: count(v.commits),
      run: text(v.run, 500)
    }
  ]
}

/**
 * The record of a backlink comment whose hidden marker opens the body as the action writes it;
 * a marker quoted anywhere else, or a record that does not parse, reads as none.
 */
export function readBacklink(body: string): Backlink | undefined {
  const match = BACKLINK.exec(body)
  if (!match) return undefined
  const projectId = decodeId(match[1] ?? '')
  if (!projectId) return undefined
  let data: unknown
  try {
    data = JSON.parse(Buffer.from(match[2] ?? '', 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
  if (!data || typeof data !== 'object') return undefined
  const d = data as Record<string, unknown>
  const changes = Array.isArray(d.changes) ? d.changes.flatMap(readChange) : []
  return {
    projectId,
    changes: changes.slice(-MAX_BACKLINK_CHANGES),
    code: d.code === 'merged' || d.code === 'closed' ? d.code : undefined,
    asked: strings(d.asked, 50),
    labeled: strings(d.labeled, 50)
  }
}

/**
 * The changes with `change` added last, at most `MAX_BACKLINK_CHANGES`; a run that is already
 * the last entry (the same run writing again) replaces it rather than adding another.
 */
export function withChange(changes: readonly FedChange[], change: FedChange): FedChange[] {
  const last = changes.at(-1)
  const same =
    last !== undefined &&
    last.repo === change.repo &&
    last.pull === change.pull &&
    last.sha === change.sha &&
    last.run === change.run
  return [...(same ? changes.slice(0, -1) : changes), change].slice(-MAX_BACKLINK_CHANGES)
}

/** The code change a run documents: the event's pull request, or the pushed commits. */
export function fedChange(event: Event, runUrl: string | undefined): FedChange {
  const repo = `${event.owner}/${event.repo}`
  const pr = event.pullRequest
  const run = safeLink(runUrl)?.href
  if (pr && (event.name.startsWith('pull_request') || event.name === 'issue_comment')) {
    return {
      repo,
      pull: pr.number,
      title: cut(pr.title, 200),
      author: pr.author,
      sha: pr.headSha,
      run
    }
  }
  const head = event.commits.at(-1)
  const sha = event.after && !/^0{40}$/.test(event.after) ? event.after : event.sha
  return {
    repo,
    title: head ? cut(head.message.split(/\r?\n/)[0] ?? '', 200) : undefined,
    author: head?.author,
    sha,
    commits: event.commits.length > 0 ? event.commits.length : undefined,
    run
  }
}

/** `<a href>` around `text` (already markup) when `url` is a safe link on `serverUrl`. */
function linkOn(serverUrl: string, url: string, text: string): string {
  const link = safeLink(url)
  const origin = safeLink(serverUrl)?.href.replace(/\/$/, '')
  return link && origin && link.href.startsWith(`${origin}/`)
    ? `<a href="${link.href}">${text}</a>`
    : text
}

/** A code change as one line of markup: its link, title and author, all escaped. */
function changeMarkup(change: FedChange, serverUrl: string): string {
  const base = `${serverUrl}/${change.repo}`
  // Repository names are letters, digits, `-`, `_` and `.`; text inside a link is no reference.
  const name = change.pull
    ? linkOn(serverUrl, `${base}/pull/${change.pull}`, `${change.repo}#${change.pull}`)
    : change.commits && change.commits > 1
      ? `${change.commits} commits pushed to ${change.repo}`
      : `A push to ${change.repo}`
  const title = change.title ? ` “${escapeMarkup(change.title, 120)}”` : ''
  const author = change.author ? ` by ${escapeMarkup(change.author, 60)}` : ''
  return `${name}${title}${author}`
}

function commitMarkup(change: FedChange, serverUrl: string): string {
  if (!change.sha || !SHA.test(change.sha)) return '—'
  const url = `${serverUrl}/${change.repo}/commit/${change.sha}`
  return linkOn(serverUrl, url, `<code>${change.sha.slice(0, 7)}</code>`)
}

/**
 * The backlink comment's markdown: the hidden record, the code change it documents, every change
 * that fed the job (newest last) and what became of the code pull request. Everything that came
 * from a payload is escaped, and links go only to `serverUrl`, so nothing in it can mention
 * people, add links elsewhere or close issues.
 */
export function backlinkBody(record: Backlink, serverUrl: string): string {
  const server = serverUrl.replace(/\/+$/, '')
  const latest = record.changes.at(-1)
  const rows = record.changes.map(
    (change) =>
      `<tr><td>${changeMarkup(change, server)}</td><td>${commitMarkup(change, server)}</td>` +
      `<td>${change.run ? linkOn(server, change.run, 'run') : '—'}</td></tr>`
  )
  const code = {
    merged: '✅ The code pull request was merged.',
    closed: '🚫 The code pull request was closed without being merged.'
  }
  return [
    backlinkMarker(record),
    '### 📝 Documentation for a code change',
    '',
    latest
      ? `This pull request documents ${changeMarkup(latest, server)}.`
      : 'This pull request documents a code change.',
    '',
    ...(rows.length > 0
      ? [
          '<table><tr><th>Change</th><th>Commit</th><th>Workflow run</th></tr>' +
            rows.join('') +
            '</table>',
          ''
        ]
      : []),
    ...(record.code ? [code[record.code], ''] : []),
    '<sub>Written by mintlify-agent-action for the Mintlify agent; updated in place with each ' +
      'change that feeds the docs job.</sub>'
  ].join('\n')
}

/**
 * The comment posted on the docs pull request when its code pull request was closed without
 * being merged: why it was closed (`close`), or that it may no longer be needed (`comment`).
 */
export function closingComment(
  projectId: string,
  code: PullRef,
  serverUrl: string,
  action: 'close' | 'comment'
): string {
  const server = serverUrl.replace(/\/+$/, '')
  const name = linkOn(
    server,
    `${server}/${code.owner}/${code.repo}/pull/${code.number}`,
    pullName(code)
  )
  return [
    closingMarker(projectId),
    action === 'close'
      ? `🚫 The code pull request this documents, ${name}, was closed without being merged, so ` +
        'this pull request was closed too. Reopen it if the documentation change is still wanted.'
      : `🚫 The code pull request this documents, ${name}, was closed without being merged, so ` +
        'this documentation change may no longer be needed.',
    '',
    '<sub>Written by mintlify-agent-action (on-code-closed: ' + action + ').</sub>'
  ].join('\n')
}

/** Who to ask for a review, and who is left out and why. */
export interface ReviewPlan {
  readonly users: readonly string[]
  /** Team slugs, as `team_reviewers` takes them. */
  readonly teams: readonly string[]
  /** Teams left out (`org/team`): they belong to another organisation than the repository's. */
  readonly skipped: readonly string[]
}

/**
 * The reviewers to ask on the docs pull request: `docs-reviewers`, with `author` read as the code
 * pull request's author, less anyone asked before (`asked`), anyone already asked on the pull
 * request, and its own author, who cannot review it. A team is asked by its slug, and only when
 * it belongs to the docs repository's owner.
 */
export function reviewPlan(
  wanted: DocsReviewers,
  codeAuthor: string | undefined,
  pull: Pick<PullState, 'author' | 'reviewers' | 'teams'>,
  docsOwner: string,
  asked: readonly string[]
): ReviewPlan {
  const lower = (list: readonly string[]) => list.map((item) => item.toLowerCase())
  const before = lower(asked)
  const present = lower(pull.reviewers)
  const author = pull.author?.toLowerCase()
  const users: string[] = []
  const skipped: string[] = []
  const logins = [...wanted.users]
  if (wanted.author && codeAuthor && !codeAuthor.endsWith('[bot]')) logins.push(codeAuthor)
  for (const login of logins) {
    const key = login.toLowerCase()
    if (before.includes(key) || present.includes(key) || users.some((u) => u.toLowerCase() === key))
      continue
    if (key === author) continue
    users.push(login)
  }
  const teams: string[] = []
  for (const team of wanted.teams) {
    const key = `${team.org}/${team.slug}`
    if (before.includes(key) || lower(pull.teams).includes(team.slug)) continue
    if (team.org !== docsOwner.toLowerCase()) {
      skipped.push(key)
      continue
    }
    teams.push(team.slug)
  }
  return { users, teams, skipped }
}

/** The keys `asked` records for a review plan's names. */
function askedKeys(users: readonly string[], teams: readonly string[], org: string): string[] {
  return [...users.map((u) => u.toLowerCase()), ...teams.map((t) => `${org.toLowerCase()}/${t}`)]
}

/** The labels still to add: not on the pull request, and not added before. */
export function labelsToAdd(
  wanted: readonly string[],
  present: readonly string[],
  labeled: readonly string[]
): string[] {
  const known = [...present, ...labeled].map((label) => label.toLowerCase())
  return wanted.filter((label) => !known.includes(label.toLowerCase()))
}

/**
 * The docs pull request `docs-token` may act on, or why it may not: the job's own docs pull
 * request (see `docsTargetOf`), in another repository than the code's, which the workflow token
 * reaches itself.
 */
export function docsTarget(
  job: DocsJob | undefined,
  serverUrl: string,
  codeRepo: RepoRef | undefined
): { ref: PullRef } | { problem: string } | undefined {
  const target = docsTargetOf(job, serverUrl, codeRepo)
  if (!target || 'problem' in target) return target
  if (target.inCodeRepo) {
    return {
      problem:
        `The docs pull request ${pullName(target.ref)} is in the code repository itself, so ` +
        'docs-token, which is meant for another repository, is not sent there.'
    }
  }
  return { ref: target.ref }
}

/** What the docs pull request sink is asked to do, from the inputs. */
export interface DocsOptions {
  readonly reviewers: DocsReviewers
  readonly labels: readonly string[]
  readonly onCodeClosed: 'close' | 'comment' | 'nothing'
  /** `GITHUB_SERVER_URL`: the only host whose pull requests the docs token is used for. */
  readonly serverUrl: string
}

/** What is known about the docs pull request once it has been read. */
interface Opened {
  readonly ref: PullRef
  readonly account: string
  readonly pull: PullState
  readonly comment?: IssueComment
  readonly record: Backlink
}

/**
 * The docs pull request as a sink. `github` carries the docs token and is only ever called for
 * the repository of the job's pull request link.
 */
export class DocsPullSink implements Sink {
  private readonly surface: Surface

  constructor(
    private readonly github: GitHubApi,
    private readonly options: DocsOptions,
    private readonly log: Log,
    /** Hears the backlink comment's address once it is written. */
    private readonly onUrl: (url: string) => void
  ) {
    this.surface = new Surface(log, 'The docs job is not affected.')
  }

  /**
   * At the end of a run: the backlink (with this run's change), then reviewers and labels, once.
   * A run on a closed pull request is `codeClosed`'s, and does nothing here.
   */
  async finished(state: RunState, within: Bounded): Promise<void> {
    const event = state.trigger?.event
    if (!event || closedPull(event)) return
    const opened = await this.open(state, within)
    if (!opened) return
    const { ref, pull, record } = opened
    if (pull.state === 'closed') {
      this.log.info(`Docs pull request ${pullName(ref)} is closed: no reviews or labels are added.`)
      return this.writeBacklink(opened, within, {
        ...record,
        changes: withChange(record.changes, fedChange(event, state.trigger?.runUrl))
      })
    }
    const review = reviewPlan(
      this.options.reviewers,
      event.pullRequest?.author,
      pull,
      ref.owner,
      record.asked
    )
    const asked = await this.requestReviewers(ref, review, within)
    const labels = labelsToAdd(this.options.labels, pull.labels, record.labeled)
    const added =
      labels.length === 0
        ? []
        : ((await this.surface.write(
            (failure) => this.failed(`add labels to ${pullName(ref)}`, failure, 'issues: write'),
            () =>
              within((signal) =>
                this.github.addLabels(ref.owner, ref.repo, ref.number, labels, signal)
              ).then(() => labels)
          )) ?? [])
    await this.writeBacklink(opened, within, {
      ...record,
      changes: withChange(record.changes, fedChange(event, state.trigger?.runUrl)),
      asked: [...record.asked, ...asked],
      labeled: [...record.labeled, ...added.map((label) => label.toLowerCase())]
    })
  }

  /**
   * The code pull request was closed: merged, the backlink notes it; closed without merging,
   * `on-code-closed` closes the docs pull request with a comment saying why, or only comments.
   * Returns a line for the status comment saying what was done, if anything.
   */
  async codeClosed(state: RunState, within: Bounded): Promise<string | undefined> {
    const event = state.trigger?.event
    const how = event && closedPull(event)
    const code = state.trigger?.pull
    if (!event || !how || !code) return undefined
    const action = this.options.onCodeClosed
    if (how === 'closed' && action === 'nothing') {
      this.log.info('The code pull request was closed without merging (on-code-closed: nothing).')
      return undefined
    }
    const opened = await this.open(state, within)
    if (!opened) return undefined
    const { ref, pull, record } = opened
    const changes =
      record.changes.length > 0 ? record.changes : [fedChange(event, state.trigger?.runUrl)]
    if (how === 'merged') {
      await this.writeBacklink(opened, within, { ...record, changes, code: 'merged' })
      return undefined
    }
    if (action === 'nothing') return undefined
    if (record.code === 'closed' || pull.state === 'closed') {
      this.log.info(
        `Docs pull request ${pullName(ref)} is ${pull.state === 'closed' ? 'already closed' : 'already marked as abandoned'}; nothing more is done.`
      )
      if (record.code !== 'closed') {
        await this.writeBacklink(opened, within, { ...record, changes, code: 'closed' })
      }
      return undefined
    }
    let done: string | undefined
    if (action === 'close') {
      const closed = await this.surface.write(
        (failure) => this.failed(`close ${pullName(ref)}`, failure, 'pull-requests: write'),
        () => within((signal) => this.github.closePull(ref.owner, ref.repo, ref.number, signal))
      )
      if (closed) done = `so docs pull request ${pullName(ref)} was closed.`
    }
    const comment = await this.create(
      opened,
      closingComment(state.projectId, code, this.options.serverUrl, action),
      within,
      (c) => CLOSING.test(c.body) && decodeId(CLOSING.exec(c.body)?.[1] ?? '') === state.projectId
    )
    if (action === 'comment' && comment) {
      done = `so a comment on docs pull request ${pullName(ref)} says it may no longer be needed.`
    }
    if (!done) return undefined
    this.log.info(`The code pull request was closed without merging, ${done}`)
    await this.writeBacklink(opened, within, { ...record, changes, code: 'closed' })
    return `The code pull request was closed without merging, ${done}`
  }

  /**
   * Checks the job's link, then learns the docs token's account, reads the pull request and
   * finds the action's own backlink on it. Undefined (with one warning) when any of it fails.
   */
  private async open(state: RunState, within: Bounded): Promise<Opened | undefined> {
    const target = docsTarget(state.job, this.options.serverUrl, state.trigger?.event)
    if (!target) {
      this.log.debug('The docs job has no pull request link, so docs-token is not used.')
      return undefined
    }
    if ('problem' in target) {
      this.surface.warn(target.problem)
      return undefined
    }
    const { ref } = target
    const read = await this.surface.write(
      (failure) => this.failed(`read ${pullName(ref)}`, failure, 'pull-requests: read'),
      async () => {
        const account = await within((signal) => this.github.viewer(signal))
        // The run read it before anything said the docs were ready: no need to read it again.
        const known = state.docs?.pull
        const pull =
          known && state.docs?.ref?.number === ref.number && sameRepo(state.docs.ref, ref)
            ? known
            : await within((signal) => this.github.getPull(ref.owner, ref.repo, ref.number, signal))
        const comment = await this.findBacklink(ref, account, state.projectId, within)
        return { account, pull, comment }
      }
    )
    if (!read) return undefined
    const empty: Backlink = { projectId: state.projectId, changes: [], asked: [], labeled: [] }
    const record = (read.comment && readBacklink(read.comment.body)) || empty
    return { ref, ...read, record }
  }

  private findBacklink(
    ref: PullRef,
    account: string,
    projectId: string,
    within: Bounded
  ): Promise<IssueComment | undefined> {
    return newestComment(
      this.github,
      ref,
      within,
      (c) => writtenBy(c, account) && readBacklink(c.body)?.projectId === projectId
    )
  }

  /**
   * Asks for the reviews in one request; when GitHub refuses it for one name (422: not a
   * collaborator), asks one name at a time, so the others are still asked. Returns the keys to
   * record as asked, refused names included (they are not asked again); one warning names them.
   */
  private async requestReviewers(
    ref: PullRef,
    plan: ReviewPlan,
    within: Bounded
  ): Promise<string[]> {
    const { users, teams } = plan
    const refused: string[] = [...plan.skipped]
    // Teams of another organisation cannot be asked: recorded, so they are named only once.
    const skipped = plan.skipped.map((key) => key.toLowerCase())
    const ask = (u: readonly string[], t: readonly string[]) =>
      within((signal) =>
        this.github.requestReviewers(
          ref.owner,
          ref.repo,
          ref.number,
          { users: u, teams: t },
          signal
        )
      )
    let asked: string[] = []
    if (users.length + teams.length > 0) {
      const done = await this.surface.write(
        (failure) =>
          this.failed(`ask for reviews on ${pullName(ref)}`, failure, 'pull-requests: write'),
        async () => {
          try {
            await ask(users, teams)
            return askedKeys(users, teams, ref.owner)
          } catch (error: unknown) {
            if (gitHubError(error).kind !== 'invalid') throw error
          }
          // Refused for some name: one request per name, bounded by docs-reviewers' 15 names.
          const keys: string[] = []
          const each = [
            ...users.map((user) => ({ u: [user], t: [] })),
            ...teams.map((team) => ({ u: [], t: [team] }))
          ]
          for (const { u, t } of each) {
            // A single name was the one refused: no need to ask again.
            const ok =
              each.length > 1 &&
              (await ask(u, t).then(
                () => true,
                (error: unknown) => {
                  if (gitHubError(error).kind !== 'invalid') throw error
                  return false
                }
              ))
            if (!ok) refused.push(...u, ...t.map((team) => `${ref.owner}/${team}`))
            keys.push(...askedKeys(u, t, ref.owner))
          }
          return keys
        }
      )
      asked = done ?? []
    }
    if (refused.length > 0) {
      this.log.warning(
        `Could not ask ${refused.map((name) => forLog(name, 100)).join(', ')} to review ` +
          `${pullName(ref)}: GitHub asks only collaborators and teams of the docs repository's ` +
          "owner, never the pull request's author. The others were asked; these are not asked again."
      )
    }
    return [...asked, ...skipped]
  }

  /** Updates the backlink, or creates it once (never blindly twice); reports its address. */
  private async writeBacklink(opened: Opened, within: Bounded, record: Backlink): Promise<void> {
    const body = backlinkBody(record, this.options.serverUrl)
    const { ref, comment } = opened
    const written = comment
      ? await this.surface.write(
          (failure) =>
            this.failed(`update the comment on ${pullName(ref)}`, failure, 'pull-requests: write'),
          () =>
            within((signal) =>
              this.github.updateComment(ref.owner, ref.repo, comment.id, body, signal)
            )
        )
      : await this.create(
          opened,
          body,
          within,
          (c) => readBacklink(c.body)?.projectId === record.projectId
        )
    if (written?.url) this.onUrl(written.url)
  }

  /** Creates a comment once: when it may have landed, it is looked for before anything else. */
  private create(
    opened: Opened,
    body: string,
    within: Bounded,
    mine: (comment: IssueComment) => boolean
  ): Promise<IssueComment | undefined> {
    const { ref, account } = opened
    return this.surface.write(
      (failure) => this.failed(`comment on ${pullName(ref)}`, failure, 'pull-requests: write'),
      () =>
        within((signal) =>
          createOnce(
            () => this.github.createComment(ref.owner, ref.repo, ref.number, body, signal),
            () => newestComment(this.github, ref, within, (c) => writtenBy(c, account) && mine(c))
          )
        )
    )
  }

  /** Why a docs request failed; a refusal says what the token needs, on the docs repository. */
  private failed(what: string, failure: unknown, permission: string): string {
    const error = gitHubError(failure)
    if (error.kind === 'refused' && error.status !== 401) {
      return (
        `Could not ${what}: GitHub refused docs-token (HTTP ${error.status}). It needs ` +
        `\`${permission}\` on the docs repository: the repository access of a fine-grained ` +
        "token, or a GitHub App installed there (the workflow's permissions: do not apply to it)."
      )
    }
    return `Could not ${what}: ${describeGitHubError(failure, permission, 'docs-token')}.`
  }
}
