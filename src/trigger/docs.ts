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

/**
 * The account Mintlify's agent opens pull requests as, and its user id on github.com: 109931778
 * (GitHub's users API for `mintlify[bot]`; see the fixture in `__tests__/docs-owner.test.ts`).
 * A login ending in `[bot]` is a GitHub App's and cannot be taken by a person's account; the id
 * is checked too where GitHub gives one, on github.com, where it is known.
 */
export const AGENT_APP = { login: 'mintlify[bot]', id: 109931778, server: 'https://github.com' }

/** Who opened a pull request, as GitHub says. */
export interface PullAuthor {
  readonly number: number
  readonly author?: string
  readonly authorId?: number
}

/**
 * Why the pull request `pull` at `ref` is not the agent's, or undefined when it is: GitHub must
 * say it was opened by one of `agents` (`agent-accounts`, which always holds `mintlify[bot]`),
 * with `mintlify[bot]`'s id where GitHub gives one on github.com; and where a record names the
 * docs pull request (`recorded`), it must be that one. Pure.
 */
export function notTheAgents(
  ref: PullRef,
  pull: PullAuthor,
  agents: readonly string[],
  serverUrl: string,
  recorded?: PullRef
): string | undefined {
  const name = pullName(ref)
  const leave = 'so the action writes nothing to it and never calls it ready.'
  if (pull.number !== ref.number) {
    return `GitHub answered for another pull request than ${name}, ${leave}`
  }
  if (recorded && !(sameRepo(recorded, ref) && recorded.number === ref.number)) {
    return (
      `The job names docs pull request ${name}, but the record on the code pull request names ` +
      `${pullName(recorded)}, ${leave}`
    )
  }
  const author = pull.author ? { login: pull.author, id: pull.authorId } : undefined
  if (!isAgentAuthor(author, agents, serverUrl)) {
    const app = AGENT_APP.login
    const by = pull.author ? `was opened by ${forLog(pull.author, 60)}` : 'names no author'
    return (
      `GitHub says docs pull request ${name} ${by}, not by an agent account (${app} or one of ` +
      `agent-accounts), ${leave} If your organisation has the agent's pull requests opened by ` +
      'another account, add it to agent-accounts.'
    )
  }
  return undefined
}

/** The docs repository a token may read, or why none may. */
export type DocsRepo =
  | {
      readonly repo: RepoRef
      /** The docs live in the code repository itself (Mintlify's monorepo setup). */
      readonly inCodeRepo: boolean
    }
  | { readonly problem: string }

/**
 * The job's own docs repository (`source.repository`), only as a repository on the workflow's own
 * GitHub (`serverUrl`), as `docsTargetOf` checks it: anywhere else, no token is sent for it. Pure.
 */
export function docsRepoOf(
  job: DocsJob | undefined,
  serverUrl: string,
  code: RepoRef | undefined
): DocsRepo {
  const source = job?.source?.repository
  const repo = source ? parseRepoLink(source, serverUrl) : undefined
  if (!repo) {
    return {
      problem:
        `The job names no docs repository on ${forLog(serverUrl, 100)} (source.repository: ` +
        `${source ? describeLink(source) : 'none'}), so no token is sent to read it.`
    }
  }
  return { repo, inCodeRepo: code !== undefined && sameRepo(repo, code) }
}

/** An account as a commit's author is named in GitHub's answer. */
export interface CommitAuthor {
  readonly login: string
  readonly id?: number
}

/**
 * Whether GitHub names `author` as one of the agent accounts (`agent-accounts`, which always hold
 * `mintlify[bot]`): by login, and for `mintlify[bot]` on github.com by its id too where GitHub
 * gives one, as `notTheAgents` checks a pull request's author. Pure.
 */
export function isAgentAuthor(
  author: CommitAuthor | undefined,
  agents: readonly string[],
  serverUrl: string
): boolean {
  const login = author?.login.toLowerCase()
  if (!login || !agents.some((agent) => agent.toLowerCase() === login)) return false
  const onGitHubCom = serverUrl.replace(/\/+$/, '') === AGENT_APP.server
  return !(
    login === AGENT_APP.login &&
    onGitHubCom &&
    author?.id !== undefined &&
    author.id !== AGENT_APP.id
  )
}
