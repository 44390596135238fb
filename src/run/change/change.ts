/**
 * What changed in the event that started the workflow: the payload, plus a couple of GitHub
 * requests for the files. Never fails: what cannot be read becomes a warning.
 */
import type { Commit, Event } from '../../given/event.js'
import { eventPullRequest, pushOf, ZERO_SHA } from '../../given/event.js'
import { codeCommit } from './code.js'
import {
  type ChangedFile,
  type Comparison,
  describeGitHubError,
  type GitHubApi,
  gitHubError
} from '../../clients/github/api.js'
import { forLog } from '../../base/sanitize.js'

/** Most files of a pull request read for the context and for `paths` (100 a request). */
export const MAX_PULL_FILES = 300

/** GitHub's caps: a comparison or commit lists 300 files and 250 commits, a push payload 20. */
const MAX_LISTED_FILES = 300
const MAX_COMPARE_COMMITS = 250
const MAX_PAYLOAD_COMMITS = 20

/** The change that started the workflow, as far as it could be read. */
export interface Change {
  readonly url?: string
  /** Oldest first. */
  readonly commits: readonly Commit[]
  readonly totalCommits: number | undefined
  /** Undefined when they could not be read. */
  readonly files?: readonly ChangedFile[]
  /** Not all was read, so `paths` must not skip on it. */
  readonly partial: boolean
  /** For the log: "the comparison of a...b", "the head commit". */
  readonly source: string
  /** Everything on the branch after this commit, the last the docs were told about. */
  readonly since?: string
}

interface ChangeReading {
  readonly change: Change
  /** What could not be read, and what to grant. */
  readonly warning?: string
  readonly requests: number
}

/** The change as far as the event payload alone describes it: no files. */
export function changeFromPayload(event: Event): Change {
  const pr = eventPullRequest(event)
  return {
    url: pr?.url ?? event.compareUrl,
    commits: event.commits,
    // A pull request's payload lists none of its commits; a list as long as the cap may be cut.
    totalCommits:
      pr || event.commits.length >= MAX_PAYLOAD_COMMITS ? undefined : event.commits.length,
    files: undefined,
    partial: false,
    source: 'the event payload'
  }
}

/** What a push is compared with; `gone`: why GitHub may answer 404 although it can be read. */
interface PushBase {
  readonly ref: string
  readonly name: string
  readonly gone: string
}

/** A commit to compare with, gone (or unrelated) for the reason `what` and `after` give. */
function commitBase(sha: string, what: string, after: string): PushBase {
  const name = sha.slice(0, 7)
  return { ref: sha, name, gone: `${what} (${name}) is gone or shares no history with ${after}` }
}

/**
 * The commit before the push; for a new branch, the default branch: one request reads its whole
 * work, and a branch made from another reads more than the push, never less, so `paths` errs
 * towards running. Undefined for a new tag, whose commit may be old, or nothing to compare with.
 */
function pushBase(event: Event): PushBase | undefined {
  const { before, defaultBranch } = event
  if (before && !ZERO_SHA.test(before)) {
    return commitBase(before, 'the commit before the push', 'the pushed one, as after a force push')
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

/**
 * Reads the change behind `event`, or with `since` everything on the branch after that commit;
 * `github` is undefined without a token.
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
      const read = await github.pullFiles(owner, repo, pr.number, MAX_PULL_FILES, signal)
      const source = `pull request #${pr.number}`
      return {
        change: { ...fallback, files: read.files, partial: !read.complete, source },
        requests: read.pages
      }
    } catch (error: unknown) {
      return unread(`the files of pull request #${pr.number}`, error, 'pull-requests: read')
    }
  }

  const head = codeCommit(event)?.sha
  if (!head) return { change: fallback, requests: 0 }
  const base = since
    ? commitBase(
        since,
        'the commit the docs were last told about',
        'this one, as after a force push'
      )
    : pushOf(event)
      ? pushBase(event)
      : undefined
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

/** Whether the head commit is all a push brought; never for a tag, whose commit may be old. */
function onlyCommitPushed(event: Event, head: string): boolean {
  return (
    !/^refs\/tags\//.test(event.ref ?? '') &&
    event.commits.length === 1 &&
    event.commits[0]?.sha === head
  )
}
