/**
 * What changed in the event that started the workflow: the payload, plus at most a couple of
 * GitHub requests for the files and their patches. Never fails: what cannot be read becomes a
 * warning, and the change is described with what the payload offers.
 */
import type { Commit, Event } from './event.js'
import { eventPullRequest, pushOf, ZERO_SHA } from './event.js'
import { codeCommit } from './code.js'
import {
  type ChangedFile,
  type Comparison,
  describeGitHubError,
  type GitHubApi,
  gitHubError
} from '../github/api.js'
import { forLog } from '../sanitize.js'

/** Most files of a pull request read for the context and for `paths` (100 a request). */
export const MAX_PULL_FILES = 300

/** Most files a comparison or a commit lists in one answer. */
const MAX_LISTED_FILES = 300

/** Most commits a comparison lists; its `total_commits` counts them all. */
const MAX_COMPARE_COMMITS = 250

/** Most commits a push payload lists: a list this long may have left some out. */
export const MAX_PAYLOAD_COMMITS = 20

export interface Change {
  /** A link to the change: the comparison or the pull request. */
  readonly url?: string
  /** The commits read, oldest first; there may be more (see `totalCommits`). */
  readonly commits: readonly Commit[]
  /** How many commits the change has in all; undefined when that is not known. */
  readonly totalCommits: number | undefined
  /** The changed files; undefined when they could not be determined. */
  readonly files?: readonly ChangedFile[]
  /**
   * Not every commit or file of the change was read, so what was read cannot show that nothing
   * relevant changed (`paths` must not skip on it).
   */
  readonly partial: boolean
  /** Where the files came from, for the log: "the comparison of a...b", "the head commit". */
  readonly source: string
  /** The change is everything on the branch since this commit, the last the docs were told. */
  readonly since?: string
}

export interface ChangeReading {
  readonly change: Change
  /** One warning at most: what could not be read, and what to grant. */
  readonly warning?: string
  /** GitHub requests made. */
  readonly requests: number
}

/** The count of the commits a payload lists, unless the list may have been cut. */
function payloadTotal(commits: readonly Commit[]): number | undefined {
  return commits.length < MAX_PAYLOAD_COMMITS ? commits.length : undefined
}

/** The change as far as the event payload alone describes it: no files. */
export function changeFromPayload(event: Event): Change {
  const pr = eventPullRequest(event)
  return {
    url: pr?.url ?? event.compareUrl,
    commits: event.commits,
    // A pull request's payload lists none of its commits.
    totalCommits: pr ? undefined : payloadTotal(event.commits),
    files: undefined,
    partial: false,
    source: 'the event payload'
  }
}

/** What a push is compared with to read every commit it brought. */
interface PushBase {
  readonly ref: string
  /** For the log: the short sha, or the branch's name. */
  readonly name: string
  /** Why GitHub may answer 404 for it although the token can read the repository. */
  readonly gone: string
}

/**
 * What to compare a push with to read all it brought: the commit before it. For a new branch, the
 * default branch: one request lists the branch's own work whole (up to 250 commits, 300 files, one
 * net diff), where reading each commit the payload lists would take a request per commit, stop
 * at the 20 a payload lists, and repeat a file once per commit that touched it. A branch made from
 * another branch than the default one is then read with that branch's commits too: more than the
 * push, never less, so `paths` errs towards starting the job. Undefined for a new tag (its commit
 * may have been pushed long before), for the first push of the default branch itself (there is
 * nothing to compare it with), and when the payload says neither the commit before nor the
 * default branch.
 */
function pushBase(event: Event): PushBase | undefined {
  const { before, defaultBranch } = event
  if (before && !ZERO_SHA.test(before)) {
    return {
      ref: before,
      name: before.slice(0, 7),
      gone:
        `the commit before the push (${before.slice(0, 7)}) is gone or shares no history ` +
        'with the pushed one, as after a force push'
    }
  }
  const branch = /^refs\/heads\/(.+)$/.exec(event.ref ?? '')?.[1]
  if (!before || !branch || !defaultBranch || branch === defaultBranch) return undefined
  const name = forLog(defaultBranch, 100)
  return {
    ref: defaultBranch,
    name,
    gone:
      `the new branch shares no history with the default branch (${name}), or GitHub no ` +
      'longer has that branch'
  }
}

/** The commit the docs were last told about on a branch: everything after it is the change. */
function sinceBase(since: string): PushBase {
  return {
    ref: since,
    name: since.slice(0, 7),
    gone:
      `the commit the docs were last told about (${since.slice(0, 7)}) is gone or shares no ` +
      'history with this one, as after a force push'
  }
}

/**
 * Reads the change behind `event`; with `since`, everything on the branch after that commit (the
 * last one the docs were told about), whatever the event. `github` is undefined when there is no token; `signal` bounds
 * the whole reading (the step's cancellation and the time set aside for it).
 */
export async function readChange(
  event: Event,
  github: GitHubApi | undefined,
  signal: AbortSignal,
  since?: string
): Promise<ChangeReading> {
  const { owner, repo } = event
  const pr = eventPullRequest(event)
  const fallback = changeFromPayload(event)
  const unread = (what: string, error: unknown, permission: string): ChangeReading => ({
    change: fallback,
    warning:
      `Could not read ${what} from GitHub: ${describeGitHubError(error, permission)}. The agent ` +
      'is told what the event payload says, without the changed files.',
    requests
  })
  if (!github) {
    return {
      change: fallback,
      warning:
        'github-token is empty, so the changed files cannot be read; the agent is told what the ' +
        'event payload says. Pass github-token (the default is the workflow token).',
      requests: 0
    }
  }

  let requests = 0
  if (pr) {
    requests = 1
    try {
      const { files, complete, pages } = await github.pullFiles(
        owner,
        repo,
        pr.number,
        MAX_PULL_FILES,
        signal
      )
      requests = pages
      return {
        change: { ...fallback, files, partial: !complete, source: `pull request #${pr.number}` },
        requests
      }
    } catch (error: unknown) {
      return unread(`the files of pull request #${pr.number}`, error, 'pull-requests: read')
    }
  }

  const head = codeCommit(event)?.sha
  if (!head) return { change: fallback, requests: 0 }
  const base = since ? sinceBase(since) : pushOf(event) ? pushBase(event) : undefined
  let gone: string | undefined
  requests = 1
  if (base) {
    try {
      const compared = await github.compare(owner, repo, base.ref, head, signal)
      const change = comparedChange(compared, base, head, fallback)
      return { change: since ? { ...change, since } : change, requests }
    } catch (error: unknown) {
      // A 404 where the repository can be read means a side of the comparison is gone: read
      // what is left. Were the repository hidden from the token, the head commit fails as well.
      if (gitHubError(error).status !== 404) {
        return unread('the changed files', error, 'contents: read')
      }
      gone =
        `GitHub answered 404 to comparing ${base.name}...${head.slice(0, 7)}: ${base.gone}. ` +
        `Only the head commit ${head.slice(0, 7)} is read, so not every commit of the push is ` +
        'known (`paths` does not skip the job on it).'
      requests = 2
    }
  }
  // A new tag, the default branch's first push, a push whose comparison is gone, a manual or
  // scheduled run, or any other event: the head commit.
  try {
    const commit = await github.commit(owner, repo, head, signal)
    const whole = !pushOf(event) || (!gone && onlyCommitPushed(event, head))
    return {
      change: {
        url: commit.url ?? fallback.url,
        commits: commit.commits,
        totalCommits: whole ? commit.commits.length : undefined,
        files: commit.files,
        partial: !whole || commit.files.length >= MAX_LISTED_FILES,
        source: `the head commit ${head.slice(0, 7)}`
      },
      ...(gone ? { warning: gone } : {}),
      requests
    }
  } catch (error: unknown) {
    return unread('the changed files', error, 'contents: read')
  }
}

/** The change a comparison shows, partial when GitHub listed only part of it. */
function comparedChange(compared: Comparison, base: PushBase, head: string, fallback: Change) {
  const listed = compared.commits.length
  const total = compared.totalCommits ?? (listed < MAX_COMPARE_COMMITS ? listed : undefined)
  return {
    url: compared.url ?? fallback.url,
    commits: compared.commits,
    totalCommits: total,
    files: compared.files,
    partial: compared.files.length >= MAX_LISTED_FILES || total === undefined || listed < total,
    source: `the comparison of ${base.name}...${head.slice(0, 7)}`
  } satisfies Change
}

/**
 * Whether the head commit is all a push brought: its payload lists that one commit. Never for a
 * tag, whose commit may have been pushed long before it.
 */
function onlyCommitPushed(event: Event, head: string): boolean {
  return (
    !/^refs\/tags\//.test(event.ref ?? '') &&
    event.commits.length === 1 &&
    event.commits[0]?.sha === head
  )
}
