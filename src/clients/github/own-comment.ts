/**
 * A comment the action owns in a conversation, under every record it keeps on GitHub. It counts
 * only when the token's account (by id: a login can be held in another spelling) wrote it and the
 * marker opens it: anyone can quote a marker, nobody else can write as the token.
 */
import type { Within, Log } from '../../base/runtime.js'
import {
  type Account,
  type GitHubApi,
  gitHubError,
  GitHubError,
  type IssueComment,
  MAX_COMMENT_PAGES,
  sameAccount
} from './api.js'
import { Beside, createOnce, type Surface } from './policy.js'

export type ThreadApi = Pick<
  GitHubApi,
  'viewer' | 'listComments' | 'createComment' | 'updateComment'
>

/** Whether `account` wrote `comment`: the same account by id (see `sameAccount`). */
export function writtenBy(comment: IssueComment, account: Account): boolean {
  return comment.author !== undefined && sameAccount(comment.author, account)
}

type Wanted = (comment: IssueComment) => boolean

interface Thread {
  readonly owner: string
  readonly repo: string
  readonly number: number
}

/** The newest comment `wanted` (which may still be coming) in the last `MAX_COMMENT_PAGES` pages. */
async function newestComment(
  github: Pick<GitHubApi, 'listComments'>,
  thread: Thread,
  within: Within,
  wanted: Wanted | Promise<Wanted | undefined>
): Promise<IssueComment | undefined> {
  const { owner, repo, number } = thread
  const page = (n: number) =>
    within((signal) => github.listComments(owner, repo, number, n, signal))
  // The first page is read while the test is still being learned (who the token is).
  const [first, test] = await Promise.all([page(1), wanted])
  if (!test) return undefined
  const last = (comments: readonly IssueComment[]) => comments.findLast(test)
  const lowest = Math.max(2, first.lastPage - MAX_COMMENT_PAGES + 2)
  for (let n = first.lastPage; n >= lowest; n--) {
    const found = last((await page(n)).comments)
    if (found) return found
  }
  return last(first.comments)
}

interface OwnedCommentOptions {
  readonly mine: (body: string) => boolean
  /** Why a write failed, for the one warning; `replaced` when it was replacing a deleted one. */
  readonly describe: (failure: GitHubError, replaced: boolean) => string
  readonly replacedNote?: string
  /** The account a token always acts as (the workflow token's), when `viewer` cannot be read. */
  readonly assumed?: Account
}

const HELD =
  'GitHub still held the write before it when the time for the last writes ran out, so it may ' +
  'show an older state; re-run the workflow job to update it'

/** The comment was deleted a second time in one run: no third one is written. */
export class DeletedAgain extends GitHubError {}

export type FindFailure = { readonly step: 'account' | 'comments'; readonly error: unknown }

/** Found newest first, created once, replaced once if deleted mid-run, written beside polling. */
export class OwnedComment {
  private comment: IssueComment | undefined
  /** Undefined until written, and once it is gone. */
  private written: IssueComment | undefined
  /** One replacement a run, so never two comments. */
  private replaced = false
  /** A create's answer left unknown whether it landed: look before creating again. */
  private uncertain = false
  private made = false
  /** Until learned, nothing is trusted. */
  private account: Account | undefined
  private readonly beside: Beside
  private readonly github: ThreadApi
  private readonly thread: Thread
  private readonly options: OwnedCommentOptions
  private readonly surface: Surface
  private readonly log: Log

  constructor(
    github: ThreadApi,
    thread: Thread,
    options: OwnedCommentOptions,
    surface: Surface,
    log: Log
  ) {
    this.github = github
    this.thread = thread
    this.options = options
    this.surface = surface
    this.log = log
    this.beside = new Beside(surface, options.describe(new GitHubError(HELD, 'no-answer'), false))
  }

  /** Whether this run created the comment, rather than updating one an earlier run wrote. */
  get created(): boolean {
    return this.made
  }

  /** The token's account, when learned elsewhere (the same token's `viewer`). */
  actingAs(account: Account): this {
    this.account = account
    return this
  }

  /**
   * Learns the token's account and finds the newest comment it wrote that is this one, or that
   * `other` matches (another record of the action), which comes back as `other`.
   */
  async find(
    within: Within,
    other?: (body: string) => boolean
  ): Promise<{ found?: IssueComment; other?: IssueComment } | FindFailure> {
    const known = this.account
    const viewer = known
      ? Promise.resolve({ account: known })
      : within((signal) => this.github.viewer(signal)).then(
          (account) => ({ account }),
          (error: unknown) => ({ error })
        )
    const marked = (c: IssueComment) => this.options.mine(c.body) || other?.(c.body) === true
    const assumed = this.options.assumed
    const by = (account: Account) => (c: IssueComment) => writtenBy(c, account) && marked(c)
    const wanted = viewer.then((v) =>
      'account' in v ? by(v.account) : assumed ? by(assumed) : undefined
    )
    const listed = newestComment(this.github, this.thread, within, wanted).then(
      (comment) => ({ comment }),
      (error: unknown) => ({ error })
    )
    const learned = await viewer
    if ('error' in learned && !assumed) {
      // The listing is abandoned: nothing it finds could be trusted.
      listed.catch(() => undefined)
      return { step: 'account', error: learned.error }
    }
    const result = await listed
    if ('error' in result) return { step: 'comments', error: result.error }
    const comment = result.comment
    this.account = 'account' in learned ? learned.account : assumed
    if (comment && !this.options.mine(comment.body)) return { other: comment }
    this.comment = comment
    return { found: comment }
  }

  /**
   * Writes the comment while the job runs, unawaited. With `after`, only once earlier writes were
   * answered: beside a create GitHub still holds, a second write would create a second comment.
   */
  begin(
    body: string,
    within: (stop: AbortSignal) => Within,
    onUrl?: (url: string | undefined) => void,
    after = false
  ): void {
    const write = async (bounds: Within) => {
      const url = await this.write(body, bounds)
      onUrl?.(url)
    }
    this.beside.start(write, within, after)
  }

  /** Writes the last state once the write under way was answered, so GitHub stores it last. */
  async finish(body: string, within: Within): Promise<string | undefined> {
    const url = await this.beside.last((bounds) => this.write(body, bounds), within, false)
    return url ?? this.written?.url
  }

  /** Creates or updates the comment; the URL this run wrote unless it is gone. Failures warn. */
  async write(body: string, within: Within): Promise<string | undefined> {
    const { owner, repo, number } = this.thread
    const written = await this.surface.write(
      (failure) => this.options.describe(failure, this.replaced),
      () =>
        within(async (signal) => {
          if (!this.comment && this.uncertain) this.comment = await this.look(within)
          const existing = this.comment
          if (existing) {
            const updated = await this.update(existing, body, signal)
            if (updated) return updated
          }
          try {
            const created = await createOnce(
              () => this.github.createComment(owner, repo, number, body, signal),
              () => this.look(within)
            )
            this.made = true
            return created
          } catch (error: unknown) {
            this.uncertain = gitHubError(error).mayHaveLanded
            throw error
          }
        })
    )
    if (written) {
      if (this.replaced && this.written === undefined && this.options.replacedNote) {
        this.log.info(this.options.replacedNote)
      }
      this.comment = written
      this.written = written
      this.uncertain = false
    }
    return this.written?.url
  }

  /** Undefined on a first 404 (the comment was deleted): the caller creates its replacement. */
  private async update(
    existing: IssueComment,
    body: string,
    signal: AbortSignal
  ): Promise<IssueComment | undefined> {
    const { owner, repo } = this.thread
    try {
      return await this.github.updateComment(owner, repo, existing.id, body, signal)
    } catch (error: unknown) {
      if (gitHubError(error).status !== 404) throw error
      this.comment = undefined
      this.written = undefined
      if (this.replaced) throw new DeletedAgain('The comment was deleted again', 'refused', 404)
      this.replaced = true
      return undefined
    }
  }

  private async look(within: Within): Promise<IssueComment | undefined> {
    const account = this.account
    if (!account) return undefined
    const mine = (c: IssueComment) => writtenBy(c, account) && this.options.mine(c.body)
    return newestComment(this.github, this.thread, within, mine)
  }
}
