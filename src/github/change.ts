/**
 * What changed in the event that started the workflow: the payload, plus at most a couple of
 * GitHub requests for the files and their patches. Never fails: what cannot be read becomes a
 * warning, and the change is described with what the payload offers.
 */
import type { Commit, Event } from './event.js'
import { eventPullRequest, ZERO_SHA } from './event.js'
import { codeCommit } from '../trigger/code.js'
import type { ChangedFile, GitHubApi } from './octokit.js'
import { describeGitHubError } from './policy.js'

/** Most files of a pull request read for the context and for `paths` (100 a request). */
export const MAX_PULL_FILES = 300

export interface Change {
  /** A link to the change: the comparison or the pull request. */
  readonly url?: string
  readonly commits: readonly Commit[]
  /** The changed files; undefined when they could not be determined. */
  readonly files?: readonly ChangedFile[]
  /** More files changed than were read. */
  readonly partial: boolean
  /** Where the files came from, for the log: "the comparison of a...b", "the head commit". */
  readonly source: string
}

export interface ChangeReading {
  readonly change: Change
  /** One warning at most: what could not be read, and what to grant. */
  readonly warning?: string
  /** GitHub requests made. */
  readonly requests: number
}

/** The change as far as the event payload alone describes it: no files. */
export function changeFromPayload(event: Event): Change {
  const pr = eventPullRequest(event)
  return {
    url: pr?.url ?? event.compareUrl,
    commits: event.commits,
    files: undefined,
    partial: false,
    source: 'the event payload'
  }
}

/**
 * Reads the change behind `event`. `github` is undefined when there is no token; `signal` bounds
 * the whole reading (the step's cancellation and the time set aside for it).
 */
export async function readChange(
  event: Event,
  github: GitHubApi | undefined,
  signal: AbortSignal
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
  requests = 1
  try {
    if (event.name === 'push' && event.before && !ZERO_SHA.test(event.before)) {
      const compared = await github.compare(owner, repo, event.before, head, signal)
      return {
        change: {
          url: compared.url ?? fallback.url,
          commits: compared.commits.length ? compared.commits : event.commits,
          files: compared.files,
          // The comparison lists at most 300 files.
          partial: compared.files.length >= 300,
          source: `the comparison of ${event.before.slice(0, 7)}...${head.slice(0, 7)}`
        },
        requests
      }
    }
    // A new branch or tag, a manual or scheduled run, or any other event: the head commit.
    const commit = await github.commit(owner, repo, head, signal)
    return {
      change: {
        url: commit.url ?? fallback.url,
        commits: commit.commits,
        files: commit.files,
        partial: commit.files.length >= 300,
        source: `the head commit ${head.slice(0, 7)}`
      },
      requests
    }
  } catch (error: unknown) {
    return unread('the changed files', error, 'contents: read')
  }
}
