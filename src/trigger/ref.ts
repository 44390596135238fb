/**
 * One reference type for a pull request or a commit on a GitHub host, decided in one place for
 * the code change that started the workflow, and parsed from the job's `prLink` for the docs pull
 * request. Pure.
 */
import { eventPullRequest, ZERO_SHA, type Event } from '../github/event.js'

/** A commit in a repository. */
export interface CommitRef {
  readonly owner: string
  readonly repo: string
  readonly sha: string
}

/** A pull request in a repository, with its head commit when known. */
export interface PullRef {
  readonly owner: string
  readonly repo: string
  readonly number: number
  readonly headSha?: string
}

/** `owner/repo#number`, as GitHub names a pull request across repositories. */
export function pullName(ref: PullRef): string {
  return `${ref.owner}/${ref.repo}#${ref.number}`
}

/**
 * The commit the code change ends on, where a check about it belongs: the pull request's head
 * for pull request events (`GITHUB_SHA` is the test merge commit there), the pushed commit for a
 * push, `GITHUB_SHA` otherwise.
 */
export function codeCommit(event: Event): CommitRef | undefined {
  const pr = eventPullRequest(event)
  const pushed = event.name === 'push' && event.after && !ZERO_SHA.test(event.after)
  const sha = pr ? pr.headSha : pushed ? event.after : event.sha
  return sha ? { owner: event.owner, repo: event.repo, sha } : undefined
}

/** The pull request the event names itself (pull request events), with its head commit. */
export function codePull(event: Event): PullRef | undefined {
  const pr = eventPullRequest(event)
  return pr
    ? { owner: event.owner, repo: event.repo, number: pr.number, headSha: pr.headSha }
    : undefined
}

const NAME = /^[A-Za-z0-9_.-]{1,100}$/

/**
 * The pull request a link names, when it is a pull request page on `serverUrl`'s host (same
 * scheme, host and port): `https://github.com/acme/docs/pull/110`, with or without a trailing
 * part such as `/files`. Anything else (another host, an issue, a commit) is undefined.
 */
export function parsePullLink(link: string, serverUrl: string): PullRef | undefined {
  let url: URL
  let server: URL
  try {
    url = new URL(link)
    server = new URL(serverUrl)
  } catch {
    return undefined
  }
  if (url.origin !== server.origin || url.username || url.password) return undefined
  const prefix = server.pathname.replace(/\/+$/, '')
  if (!url.pathname.startsWith(`${prefix}/`)) return undefined
  const [owner = '', repo = '', kind, number, ...rest] = url.pathname
    .slice(prefix.length + 1)
    .split('/')
  if (!NAME.test(owner) || !NAME.test(repo) || repo === '.' || repo === '..') return undefined
  if (kind !== 'pull' || !/^[1-9]\d{0,9}$/.test(number ?? '') || rest.length > 1) return undefined
  return { owner, repo, number: Number(number) }
}
