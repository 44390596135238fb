/**
 * A comment the action owns in a conversation, the one mechanism under every record it keeps on
 * GitHub (the status comment on the code pull request, the backlink and the closing note on the
 * docs pull request). A comment counts only when the token's own account wrote it (learned from
 * GraphQL `viewer`, which answers for personal and GitHub App tokens alike) and the action's
 * hidden marker opens its body: anyone can quote a marker, nobody else can write as the token's
 * account, which is told by its id (`viewer`'s `databaseId`, a comment's `user.id`), never by a
 * login another account could hold in another spelling. It is found newest first however long
 * the conversation, created once (when GitHub's answer leaves it unknown whether a create
 * landed, it is looked for before anything is created again), replaced once when someone deletes
 * it mid-run, and written beside the polling, which never waits for it. Its users only supply
 * the text.
 */
import type { Within, Log } from '../runtime.js'
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

/** The calls an owned comment makes, on its one thread. */
export type ThreadApi = Pick<
  GitHubApi,
  'viewer' | 'listComments' | 'createComment' | 'updateComment'
>

/** Whether `account` wrote `comment`: the same account by id (see `sameAccount`). */
export function writtenBy(comment: IssueComment, account: Account): boolean {
  return comment.author !== undefined && sameAccount(comment.author, account)
}

/** What makes a comment the one looked for. */
export type Wanted = (comment: IssueComment) => boolean

/** An issue or pull request whose conversation is searched. */
export interface Thread {
  readonly owner: string
  readonly repo: string
  readonly number: number
}

/**
 * The newest comment of `thread` that satisfies `wanted`: the first page tells how many pages
 * there are, then the pages are read from the last back, up to `MAX_COMMENT_PAGES` in all.
 * `wanted` may still be coming (undefined when it could not be learned: nothing is wanted).
 */
export async function newestComment(
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

/** What makes a comment one particular owned comment, and how its failures read. */
export interface OwnedCommentOptions {
  /** Whether a body is this comment's: its marker opens it. */
  readonly mine: (body: string) => boolean
  /** Why a write failed, for the one warning; `replaced` when it was replacing a deleted one. */
  readonly describe: (failure: GitHubError, replaced: boolean) => string
  /** The log line when a deleted comment was replaced. */
  readonly replacedNote?: string
  /**
   * The account the token acts as when `viewer` cannot be read, for a token that always acts as
   * one known account (the workflow token): only that account's comments are then searched. A
   * comment anyone else wrote is never a record, whatever `viewer` answers.
   */
  readonly assumed?: Account
}

/** Why the last state was not written: GitHub still held the write before it. */
const HELD =
  'GitHub still held the write before it when the time for the last writes ran out, so it may ' +
  'show an older state; re-run the workflow job to update it'

/** The comment was deleted a second time in one run: no third one is written. */
export class DeletedAgain extends GitHubError {}

/** Why `find` found nothing it can trust. */
export type FindFailure = { readonly step: 'account' | 'comments'; readonly error: unknown }

export class OwnedComment {
  private comment: IssueComment | undefined
  /** The comment as this run last wrote it; undefined until written, and once it is gone. */
  private written: IssueComment | undefined
  /** A deleted comment was replaced: one replacement a run, so never two comments. */
  private replaced = false
  /** A create's answer left unknown whether the comment exists: look before creating again. */
  private uncertain = false
  /** This run created the comment (or found the one its unanswered create made). */
  private made = false
  /** The account the token acts as; undefined until learned, and then nothing is trusted. */
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

  /** The account the token acts as, when it was learned elsewhere (the same token's `viewer`). */
  actingAs(account: Account): this {
    this.account = account
    return this
  }

  /**
   * Learns the token's account (unless known) and finds the newest comment it wrote that is this
   * one; who the token is and the first page of comments are asked for at once. With `other`,
   * the same search also stops at the newest comment of the account that `other` matches (another
   * record the action keeps in the conversation), handed back as `other`, never as this one.
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
   * Writes the comment while the job runs, without anyone waiting for it; `finish` settles it.
   * With `after`, only once the earlier writes were answered: beside a create GitHub still holds,
   * a second write would create a second comment.
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

  /**
   * Writes the comment's last state once GitHub has answered the write still under way, so that
   * GitHub stores it last. While that one is held, nothing is sent beside it (a held create would
   * make a second comment): when the last writes' time runs out first, the surface warns.
   */
  async finish(body: string, within: Within): Promise<string | undefined> {
    const url = await this.beside.last((bounds) => this.write(body, bounds), within, false)
    return url ?? this.written?.url
  }

  /**
   * Creates the comment, or updates the one found or written. Returns the URL of the comment this
   * run wrote, as long as it is not known to be gone, or undefined; a failure is one warning
   * through the surface.
   */
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

  /**
   * Updates `existing`; undefined when it answers 404 the first time, as a comment that was
   * deleted does: the caller then creates its replacement. The same answer again is final.
   */
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

  /** This comment, when the token's account is known. */
  private async look(within: Within): Promise<IssueComment | undefined> {
    const account = this.account
    if (!account) return undefined
    return newestComment(this.github, this.thread, within, this.test(account))
  }

  private test(account: Account): Wanted {
    return (comment) => writtenBy(comment, account) && this.options.mine(comment.body)
  }
}
