/**
 * The event that started the workflow, from the `GITHUB_*` variables and the payload, read
 * through zod so a payload of another shape degrades to "nothing known" instead of failing.
 */
import { z } from 'zod'

/** A field of another type reads as absent rather than failing the whole payload. */
const maybe = <T extends z.ZodType>(type: T) => type.nullish().catch(undefined)
const text = maybe(z.string())
const count = maybe(z.number().int().nonnegative())
const flag = maybe(z.boolean())
const account = maybe(z.looseObject({ login: text, type: text }))
const repository = maybe(z.looseObject({ full_name: text, default_branch: text }))
const posted = { number: count, title: text, body: text, html_url: text, user: account }
const committer = z.looseObject({ name: text, username: text })
/** A commit without an id is left out. */
const pushedCommit = z
  .looseObject({ id: text, message: text, author: committer.nullish() })
  .transform(({ id, message, author }): Commit[] => {
    const by = { author: author?.name ?? undefined, login: author?.username ?? undefined }
    return id ? [{ sha: id, message: message ?? '', ...by }] : []
  })

const PayloadSchema = z.looseObject({
  action: text,
  before: text,
  after: text,
  ref: text,
  deleted: flag,
  compare: text,
  repository,
  commits: maybe(z.array(pushedCommit)),
  head_commit: maybe(pushedCommit),
  pull_request: maybe(
    z.looseObject({
      ...posted,
      merged: flag,
      head: maybe(z.looseObject({ sha: text, repo: repository })),
      base: maybe(z.looseObject({ repo: repository }))
    })
  ),
  issue: maybe(
    z.looseObject({ ...posted, pull_request: maybe(z.looseObject({ html_url: text })) })
  ),
  comment: maybe(
    z.looseObject({ id: count, body: text, html_url: text, user: account, created_at: text })
  )
})

type Payload = z.infer<typeof PayloadSchema>

/** A pull request as the event describes it. */
export interface PullRequest {
  readonly number: number
  readonly title: string
  readonly body: string
  readonly url?: string
  readonly author?: string
  readonly headSha?: string
  /** `owner/name` of the head's repository when it is a fork. */
  readonly fork?: string
  /** Known only on a `closed` event. */
  readonly merged?: boolean
}

/** issue_comment: the comment that started the run, by anyone who may comment. */
interface EventComment {
  readonly id?: number
  readonly body: string
  readonly author?: string
  /** `User`, `Bot` or `Organization`. */
  readonly authorType?: string
  readonly url?: string
  /** GitHub's clock: which head of the pull request the command saw. */
  readonly createdAt?: string
}

/** What started the run, read once from the event's name; `other` has no change of its own. */
type Occasion = 'push' | 'pull-request' | 'comment' | 'review' | 'schedule' | 'manual' | 'other'

/** A review is conversation about the code, never a command: only a `/docs` comment is one. */
const OCCASIONS: Readonly<Record<string, Occasion>> = {
  push: 'push',
  pull_request: 'pull-request',
  pull_request_target: 'pull-request',
  issue_comment: 'comment',
  pull_request_review: 'review',
  pull_request_review_comment: 'review',
  pull_request_review_thread: 'review',
  schedule: 'schedule',
  workflow_dispatch: 'manual'
}

/** What started the run, from the event's name. */
export function occasionOf(name: string): Occasion {
  return (Object.hasOwn(OCCASIONS, name) && OCCASIONS[name]) || 'other'
}

/** The event's name, only to show: the lint `action/event-name` refuses reading it elsewhere. */
type EventName = string & { readonly __eventName: 'shown only' }

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

/** What the event's name says: what started the run, and whose secrets it has. */
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
  readonly name: EventName
  readonly occasion: Occasion
  /** `pull_request_target`: the base repository's code and secrets, whoever opened the PR. */
  readonly targetsBase?: boolean
  readonly actor?: string
  readonly action?: string
  readonly owner: string
  readonly repo: string
  readonly ref?: string
  readonly sha?: string
  readonly serverUrl: string
  readonly runUrl?: string
  readonly before?: string
  readonly after?: string
  /** push: what a new branch is compared with. */
  readonly defaultBranch?: string
  readonly deleted: boolean
  readonly pullRequest?: PullRequest
  /** push: at most 20 listed, none for some force pushes. */
  readonly commits: readonly Commit[]
  readonly compareUrl?: string
  readonly comment?: EventComment
  /** Why `GITHUB_EVENT_PATH` could not be read; the event is then known from `GITHUB_*` alone. */
  readonly payloadError?: string
}

/** A commit as the context shows it. */
export interface Commit {
  readonly sha: string
  readonly message: string
  readonly author?: string
  readonly login?: string
}

/** A push's `before` when it created its branch or tag, its `after` when it deleted it. */
export const ZERO_SHA = /^0{40}$/

/** Whether a comment in a conversation started the run (`issue_comment`): maybe a command. */
export function commentRun(event: Event | undefined): boolean {
  return event?.occasion === 'comment'
}

/** Whether the run is about a change of its own, not whatever commit its branch is at. */
export function ownChange(event: Event): boolean {
  return ['push', 'pull-request', 'review', 'comment'].includes(event.occasion)
}

/**
 * Whether GitHub runs it as the head would, without the base repository's secrets when the head
 * is a fork's or Dependabot's; `pull_request_target` runs with them.
 */
export function runsAsHead(event: Event): boolean {
  return (event.occasion === 'pull-request' && !event.targetsBase) || event.occasion === 'review'
}

/** The pull request the event is about; other events' payloads may mention one that is not. */
export function eventPullRequest(event: Event): PullRequest | undefined {
  const about = ['pull-request', 'review', 'comment'].includes(event.occasion)
  return about ? event.pullRequest : undefined
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

/** A schedule or a manual run, which has no change of its own; undefined for other runs. */
export function onBranchOf(event: Event): 'schedule' | 'manual' | undefined {
  return event.occasion === 'schedule' || event.occasion === 'manual' ? event.occasion : undefined
}

/** The event, from the `GITHUB_*` variables and the payload; undefined outside a workflow. */
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
  const head = pushed ? payload.head_commit : undefined
  const comment = occasion === 'comment' ? payload.comment : undefined
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
    pullRequest: pullOf(payload, occasion === 'comment', `${owner}/${repo}`),
    commits: (payload.commits?.length ? payload.commits : head ? [head] : []).flat(),
    compareUrl: payload.compare ?? undefined,
    comment: comment
      ? {
          id: comment.id ?? undefined,
          body: comment.body ?? '',
          author: comment.user?.login ?? undefined,
          authorType: comment.user?.type ?? undefined,
          url: comment.html_url ?? undefined,
          createdAt: comment.created_at ?? undefined
        }
      : undefined,
    payloadError
  }
}

/**
 * The pull request of a pull request event, or the one an `issue_comment` is on: that issue is
 * the pull request, but says neither its head nor whether it comes from a fork.
 */
function pullOf(payload: Payload, onComment: boolean, repository: string): PullRequest | undefined {
  const issue = onComment && payload.issue?.pull_request ? payload.issue : undefined
  const pr = issue ? undefined : payload.pull_request
  const posted = issue ?? pr
  if (typeof posted?.number !== 'number') return undefined
  const baseRepo = pr?.base?.repo?.full_name ?? repository
  const headRepo = pr?.head?.repo?.full_name
  return {
    number: posted.number,
    title: posted.title ?? '',
    body: posted.body ?? '',
    url: issue?.pull_request?.html_url ?? posted.html_url ?? undefined,
    author: posted.user?.login ?? undefined,
    headSha: pr?.head?.sha ?? undefined,
    // A pull request merged later reads false before: only a `closed` event says for sure.
    merged: payload.action === 'closed' && typeof pr?.merged === 'boolean' ? pr.merged : undefined,
    // A head repository that is gone (a deleted fork) cannot be vouched for either.
    fork:
      headRepo && headRepo !== baseRepo
        ? headRepo
        : pr?.head && pr.head.repo === null
          ? 'a deleted fork'
          : undefined
  }
}

/** How a `closed` pull request event left it; undefined for any other activity. */
export function closedPull(event: Event): 'merged' | 'closed' | undefined {
  const pr = event.pullRequest
  if (event.occasion !== 'pull-request' || event.action !== 'closed' || !pr) return undefined
  return pr.merged ? 'merged' : 'closed'
}
