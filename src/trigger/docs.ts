/**
 * Which docs pull request a job's answer names, and whether any token may be sent for it: the
 * link must name a pull request on the workflow's own GitHub (`GITHUB_SERVER_URL`), in the job's
 * own docs repository (its `source.repository`). A link anywhere else gets no request from the
 * action, whatever token it holds. Pure.
 */
import { describeLink, forLog } from '../sanitize.js'
import {
  parsePullLink,
  parseRepoLink,
  pullName,
  sameRepo,
  type PullRef,
  type RepoRef
} from './ref.js'

/** What a job says about where its docs live. */
export interface DocsJob {
  readonly prLink?: string | null
  readonly source?: { readonly repository?: string | null } | null
}

/** The docs pull request a token may act on, or why none may. */
export type DocsTarget =
  | {
      readonly ref: PullRef
      /** The docs live in the code repository itself (Mintlify's monorepo setup). */
      readonly inCodeRepo: boolean
    }
  | { readonly problem: string }

/**
 * The docs pull request of `job`, checked against its own docs repository; undefined when the
 * job has no pull request link. `code` is the repository the workflow runs in.
 */
export function docsTargetOf(
  job: DocsJob | undefined,
  serverUrl: string,
  code: RepoRef | undefined
): DocsTarget | undefined {
  const link = job?.prLink
  if (!link) return undefined
  const ref = parsePullLink(link, serverUrl)
  if (!ref) {
    return {
      problem:
        `The docs pull request link (${describeLink(link)}) is not a pull request on ` +
        `${forLog(serverUrl, 100)}, so no token is sent for it: the action acts only on pull ` +
        "requests on the workflow's own GitHub (GITHUB_SERVER_URL)."
    }
  }
  const source = job.source?.repository
  const home = source ? parseRepoLink(source, serverUrl) : undefined
  if (!home) {
    return {
      problem:
        `The job names no docs repository on ${forLog(serverUrl, 100)} (source.repository: ` +
        `${source ? describeLink(source) : 'none'}), so its pull request link ${pullName(ref)} ` +
        'cannot be checked against it and no token is sent for it.'
    }
  }
  if (!sameRepo(ref, home)) {
    return {
      problem:
        `The docs pull request link ${pullName(ref)} is not in the job's own docs repository ` +
        `(${home.owner}/${home.repo}), so no token is sent for it.`
    }
  }
  return { ref, inCodeRepo: code !== undefined && sameRepo(ref, code) }
}

/** What the action learned of the docs pull request before saying anything about it. */
export interface DocsPullState {
  readonly ref?: PullRef
  /** `closed` is closed without merging; `unknown` when it could not be read. */
  readonly state: 'open' | 'merged' | 'closed' | 'unknown'
  /** Why the state is unknown, for the log. */
  readonly why?: string
}
