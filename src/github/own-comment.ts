/**
 * Finding the action's own comment in a conversation: a comment counts only when the token's own
 * account wrote it (learned from GraphQL `viewer`, which answers for personal and GitHub App
 * tokens alike) and the action's hidden marker opens its body. Anyone can quote a marker; nobody
 * else can write as the token's account. Used for the status comment on the code pull request and
 * for the backlink comment on the docs pull request.
 */
import type { Bounded } from '../runtime.js'
import { MAX_COMMENT_PAGES, type GitHubApi, type IssueComment } from './octokit.js'

/** Whether `account` wrote `comment`; logins compare without case, as GitHub compares them. */
export function writtenBy(comment: IssueComment, account: string): boolean {
  return comment.author !== undefined && comment.author.toLowerCase() === account.toLowerCase()
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
  within: Bounded,
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
