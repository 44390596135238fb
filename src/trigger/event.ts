/**
 * The event that started the workflow, as the runner describes it: `GITHUB_*` variables and the
 * payload file at `GITHUB_EVENT_PATH`. Only the fields the action uses are read, through zod, so a
 * payload of another shape degrades to "nothing known" instead of failing the run.
 */
import { z } from 'zod'

const text = z.string().nullish().catch(undefined)
const count = z.number().int().nonnegative().nullish().catch(undefined)
const account = z.looseObject({ login: text, type: text }).nullish().catch(undefined)
const repository = z
  .looseObject({
    full_name: text,
    html_url: text,
    fork: z.boolean().nullish().catch(undefined),
    default_branch: text
  })
  .nullish()
  .catch(undefined)

/** A commit as a push payload lists it: its author's name and, when GitHub knows it, login. */
const pushedCommit = z.looseObject({
  id: text,
  message: text,
  author: z.looseObject({ name: text, username: text }).nullish()
})

const PayloadSchema = z.looseObject({
  action: text,
  before: text,
  after: text,
  ref: text,
  created: z.boolean().nullish().catch(undefined),
  deleted: z.boolean().nullish().catch(undefined),
  forced: z.boolean().nullish().catch(undefined),
  compare: text,
  repository,
  commits: z.array(pushedCommit).nullish().catch(undefined),
  head_commit: pushedCommit.nullish().catch(undefined),
  pull_request: z
    .looseObject({
      number: count,
      title: text,
      body: text,
      html_url: text,
      user: account,
      merged: z.boolean().nullish().catch(undefined),
      head: z.looseObject({ sha: text, ref: text, repo: repository }).nullish().catch(undefined),
      base: z.looseObject({ sha: text, ref: text, repo: repository }).nullish().catch(undefined)
    })
    .nullish()
    .catch(undefined),
  // issue_comment: the issue or pull request commented on, and the comment.
  issue: z
    .looseObject({
      number: count,
      title: text,
      body: text,
      html_url: text,
      user: account,
      pull_request: z.looseObject({ html_url: text }).nullish().catch(undefined)
    })
    .nullish()
    .catch(undefined),
  comment: z
    .looseObject({ id: count, body: text, html_url: text, user: account, created_at: text })
    .nullish()
    .catch(undefined)
})

export type Payload = z.infer<typeof PayloadSchema>

/** A pull request as the event describes it. */
export interface PullRequest {
  readonly number: number
  readonly title: string
  readonly body: string
  readonly url?: string
  readonly author?: string
  readonly headSha?: string
  /** `owner/name` of the repository the head branch lives in, when it is another one (a fork). */
  readonly fork?: string
  /** `closed` events: whether it was merged; undefined for every other activity. */
  readonly merged?: boolean
}

/** issue_comment: the comment that started the run, written by anyone who may comment. */
export interface EventComment {
  /** Its id, which a reaction names. */
  readonly id?: number
  readonly body: string
  readonly author?: string
  /** The author's account type: `User`, `Bot` or `Organization`. */
  readonly authorType?: string
  readonly url?: string
  /** When it was written (`created_at`, GitHub's clock): the pull request as the command saw it. */
  readonly createdAt?: string
}

/**
 * What started the run, as every stage tells runs apart: read once, by the parser, from the
 * event's name (`GITHUB_EVENT_NAME`), which nothing else reads.
 */
export type Occasion =
  /** A push to a branch or a tag. */
  | 'push'
  /** Activity on a pull request: `pull_request`, or `pull_request_target` (`base` is set). */
  | 'pull-request'
  /** A comment in a pull request's or an issue's conversation (`issue_comment`). */
  | 'comment'
  /** A review, a comment on the diff or a review thread: conversation, never a command. */
  | 'review'
  /** `schedule`: whatever commit the branch is at. */
  | 'schedule'
  /** `workflow_dispatch`: a manual run on a branch. */
  | 'manual'
  /** Any other event (a release, a `repository_dispatch`, …): no change of its own. */
  | 'other'

/**
 * The events of a pull request's review: a review, a comment on its diff, a thread resolved. They
 * are conversation about the code, not a change to it, and never a command: the action does
 * nothing on them (only a `/docs` comment in the pull request's conversation commands).
 */
export const REVIEW_EVENTS: ReadonlySet<string> = new Set([
  'pull_request_review',
  'pull_request_review_comment',
  'pull_request_review_thread'
])

/** What started the run, from the event's name. Pure. */
export function occasionOf(name: string): Occasion {
  if (REVIEW_EVENTS.has(name)) return 'review'
  if (name === 'pull_request' || name === 'pull_request_target') return 'pull-request'
  const simple: Record<string, Occasion> = {
    push: 'push',
    issue_comment: 'comment',
    schedule: 'schedule',
    workflow_dispatch: 'manual'
  }
  return (Object.hasOwn(simple, name) && simple[name]) || 'other'
}

/**
 * The event's name, for the log and the prompt to show: only this parser tells runs apart by it
 * (`occasion`), and the lint (`action/event-name`) refuses any other use of it in src/.
 */
export type EventName = string & { readonly __eventName: 'shown only' }

/** What started the run, in words, for a run that is no change of its own. */
const CAUSES: Readonly<Record<string, string>> = {
  schedule: 'its schedule',
  workflow_dispatch: 'hand (workflow_dispatch)',
  issue_comment: 'a comment on an issue',
  repository_dispatch: 'a repository dispatch'
}

/** What started a run that is no change of its own, in words ("its schedule"). */
export function causeOf({ name }: Pick<Event, 'name'>): string {
  const shown = (name || 'unknown').replace(/[^\w.-]/g, '?').slice(0, 60)
  return (Object.hasOwn(CAUSES, name) && CAUSES[name]) || `a ${shown} event`
}

/** What the event's name says: the name itself, what started the run, and whose secrets it has. */
export function named(name: string): Pick<Event, 'name' | 'occasion' | 'targetsBase'> {
  const targetsBase = name === 'pull_request_target' || undefined
  return {
    name: name as EventName,
    occasion: occasionOf(name),
    ...(targetsBase && { targetsBase })
  }
}

/** What the action knows about the triggering event before asking GitHub anything. */
export interface Event {
  /** `GITHUB_EVENT_NAME`, shown in the words; the stages read `occasion`. */
  readonly name: EventName
  /** What started the run, read once from the name. */
  readonly occasion: Occasion
  /**
   * `pull_request_target`: the run has the base repository's code and secrets, whoever opened
   * the pull request.
   */
  readonly targetsBase?: boolean
  /** The account that started the run (`GITHUB_ACTOR`), when the runner names one. */
  readonly actor?: string
  /** The activity type of the event (`opened`, `synchronize`, `closed`, …), when it has one. */
  readonly action?: string
  readonly owner: string
  readonly repo: string
  readonly ref?: string
  /** The commit the workflow runs on. */
  readonly sha?: string
  readonly serverUrl: string
  readonly runUrl?: string
  /** push: the commit before the push; 40 zeros when a branch or tag was created. */
  readonly before?: string
  /** push: the commit after it. */
  readonly after?: string
  /** push: the repository's default branch, which a new branch is compared with. */
  readonly defaultBranch?: string
  /** push: the branch or tag was deleted, so there is nothing to document. */
  readonly deleted: boolean
  readonly pullRequest?: PullRequest
  /** push: the commits the payload lists (at most 20, none for some force pushes). */
  readonly commits: readonly Commit[]
  /** push: the link GitHub gives to compare the two commits. */
  readonly compareUrl?: string
  /** issue_comment: the comment that started the run. */
  readonly comment?: EventComment
  /**
   * Why the payload file could not be read, when `GITHUB_EVENT_PATH` names one that is missing,
   * unreadable or not a JSON object; the event is then known only from the `GITHUB_*` variables.
   */
  readonly payloadError?: string
}

/** A commit as the context shows it. */
export interface Commit {
  readonly sha: string
  readonly message: string
  readonly author?: string
  /** The author's GitHub login, when the push payload names one. */
  readonly login?: string
}

export const ZERO_SHA = /^0{40}$/

/**
 * Whether a run was started by conversation on a pull request rather than by a change: a comment
 * (`issue_comment`, which may be a `/docs` command) or a review event (which never is one).
 */
export function conversationEvent(event: Event | undefined): boolean {
  return event?.occasion === 'comment' || event?.occasion === 'review'
}

/** Whether a comment in a conversation started the run (`issue_comment`): maybe a command. */
export function commentRun(event: Event | undefined): boolean {
  return event?.occasion === 'comment'
}

/**
 * Whether the run is about a change of its own, on the commit it names: a push, a pull
 * request's activity or review, or a comment on one (a command about its head). A schedule, a
 * manual run or any other event runs on whatever commit its branch is at.
 */
export function ownChange(event: Event): boolean {
  const { occasion } = event
  return (
    occasion === 'push' ||
    occasion === 'pull-request' ||
    occasion === 'review' ||
    occasion === 'comment'
  )
}

/**
 * Whether GitHub runs it as the pull request's head would, without the base repository's
 * secrets when the head is a fork's or Dependabot's: a pull request event or a review, but not
 * `pull_request_target`, which runs with the base repository's.
 */
export function runsAsHead(event: Event): boolean {
  return (event.occasion === 'pull-request' && !event.targetsBase) || event.occasion === 'review'
}

/**
 * The pull request the event is about: that of a pull request event (`pull_request`,
 * `pull_request_target`, …), or the one commented on (`issue_comment` on a pull request).
 * Undefined for other events, whose payload may still mention one.
 */
export function eventPullRequest(event: Event): PullRequest | undefined {
  const { occasion } = event
  return occasion === 'pull-request' || occasion === 'review' || occasion === 'comment'
    ? event.pullRequest
    : undefined
}

/** A push's commit before and after it, with its branch or tag; undefined for other runs. */
export function pushOf(
  event: Event
): { readonly before?: string; readonly after?: string; readonly tag: boolean } | undefined {
  if (event.occasion !== 'push') return undefined
  return {
    before: event.before,
    after: event.after,
    tag: event.ref?.startsWith('refs/tags/') === true
  }
}

/**
 * A schedule or a manual run: it runs on whatever commit its branch is at, with no change of its
 * own; undefined for other runs.
 */
export function onBranchOf(event: Event): 'schedule' | 'manual' | undefined {
  return event.occasion === 'schedule' || event.occasion === 'manual' ? event.occasion : undefined
}

/**
 * The event, from the `GITHUB_*` variables and the payload (`raw`, as read from the file;
 * `payloadError` says why it could not be). Undefined outside a workflow (no `GITHUB_REPOSITORY`).
 * The one place the event's name is read. Pure.
 */
export function parseEvent(
  env: NodeJS.ProcessEnv,
  raw: unknown,
  payloadError?: string
): Event | undefined {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/')
  if (!owner || !repo) return undefined
  const parsed = PayloadSchema.safeParse(raw)
  const payload: Payload = parsed.success ? parsed.data : {}
  const serverUrl = (env.GITHUB_SERVER_URL ?? 'https://github.com').replace(/\/+$/, '')
  const name = env.GITHUB_EVENT_NAME ?? ''
  const occasion = occasionOf(name)
  const pushed = occasion === 'push'
  const issue = occasion === 'comment' && payload.issue?.pull_request ? payload.issue : undefined
  const pr = payload.pull_request
  const baseRepo = pr?.base?.repo?.full_name ?? `${owner}/${repo}`
  const headRepo = pr?.head?.repo?.full_name
  const head = pushed ? payload.head_commit : undefined
  return {
    ...named(name),
    actor: env.GITHUB_ACTOR || undefined,
    action: payload.action ?? undefined,
    owner,
    repo,
    ref: env.GITHUB_REF ?? payload.ref ?? undefined,
    sha: env.GITHUB_SHA ?? undefined,
    serverUrl,
    runUrl: env.GITHUB_RUN_ID
      ? `${serverUrl}/${owner}/${repo}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined,
    before: payload.before ?? undefined,
    after: payload.after ?? undefined,
    defaultBranch: (pushed && payload.repository?.default_branch) || undefined,
    deleted: pushed && payload.deleted === true,
    pullRequest: issue
      ? commentedPullRequest(issue)
      : pr && typeof pr.number === 'number'
        ? {
            number: pr.number,
            title: pr.title ?? '',
            body: pr.body ?? '',
            url: pr.html_url ?? undefined,
            author: pr.user?.login ?? undefined,
            headSha: pr.head?.sha ?? undefined,
            // Only a `closed` event says for sure: a pull request merged later reads false before.
            merged:
              payload.action === 'closed' && typeof pr.merged === 'boolean' ? pr.merged : undefined,
            // A head repository that is gone (a deleted fork) cannot be vouched for either.
            fork:
              headRepo && headRepo !== baseRepo
                ? headRepo
                : pr.head && pr.head.repo === null
                  ? 'a deleted fork'
                  : undefined
          }
        : undefined,
    commits: (payload.commits?.length ? payload.commits : head ? [head] : []).flatMap((c) =>
      c.id
        ? [
            {
              sha: c.id,
              message: c.message ?? '',
              author: c.author?.name ?? undefined,
              login: c.author?.username ?? undefined
            }
          ]
        : []
    ),
    compareUrl: payload.compare ?? undefined,
    comment:
      occasion === 'comment' && payload.comment
        ? {
            id: payload.comment.id ?? undefined,
            body: payload.comment.body ?? '',
            author: payload.comment.user?.login ?? undefined,
            authorType: payload.comment.user?.type ?? undefined,
            url: payload.comment.html_url ?? undefined,
            createdAt: payload.comment.created_at ?? undefined
          }
        : undefined,
    payloadError
  }
}

/**
 * The pull request an `issue_comment` is on: the issue is the pull request (same number, title
 * and body). The payload says neither its head commit nor whether it comes from a fork.
 */
function commentedPullRequest(issue: NonNullable<Payload['issue']>): PullRequest | undefined {
  if (typeof issue.number !== 'number') return undefined
  return {
    number: issue.number,
    title: issue.title ?? '',
    body: issue.body ?? '',
    url: issue.pull_request?.html_url ?? issue.html_url ?? undefined,
    author: issue.user?.login ?? undefined,
    headSha: undefined,
    fork: undefined
  }
}

/**
 * How a pull request event that closed its pull request left it: `merged`, or `closed` without
 * merging. Undefined for every other event, including other activity on a closed pull request.
 */
export function closedPull(event: Event): 'merged' | 'closed' | undefined {
  if (event.occasion !== 'pull-request' || event.action !== 'closed') return undefined
  const pr = event.pullRequest
  if (!pr) return undefined
  return pr.merged ? 'merged' : 'closed'
}
