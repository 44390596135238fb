/**
 * Which docs pull request a job names, and whether a token may be sent for it: only one on the
 * workflow's own GitHub, in the job's own docs repository, gets any request.
 */
import { describeLink, forLog } from '../base/sanitize.js'
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

/** `inCodeRepo`: Mintlify's monorepo setup, the docs live in the code repository. */
type Docs<T> = ({ readonly inCodeRepo: boolean } & T) | { readonly problem: string }

/** Why no token is sent for a job that names no docs repository on `serverUrl`. */
function noDocsRepo(source: string | null | undefined, serverUrl: string, then: string) {
  return {
    problem:
      `The job names no docs repository on ${forLog(serverUrl, 100)} (source.repository: ` +
      `${source ? describeLink(source) : 'none'}), ${then}`
  }
}

/** The docs pull request of `job`, if it names one; `code` is the workflow's repository. */
export function docsTargetOf(
  job: DocsJob | undefined,
  serverUrl: string,
  code: RepoRef | undefined
): Docs<{ readonly ref: PullRef }> | undefined {
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
    const then = `so its pull request link ${pullName(ref)} cannot be checked against it`
    return noDocsRepo(source, serverUrl, `${then} and no token is sent for it.`)
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
 * The account Mintlify's agent opens pull requests as; the id is GitHub's users API for
 * `mintlify[bot]` on github.com (fixture in `__tests__/docs-owner.test.ts`). A `[bot]` login is
 * a GitHub App's, which no person's account can take.
 */
export const AGENT_APP = { login: 'mintlify[bot]', id: 109931778, server: 'https://github.com' }

/**
 * Why the pull request `pull` at `ref` is not the agent's, or undefined when GitHub says one of
 * `agents` opened it and it is the one the record names.
 */
export function notTheAgents(
  ref: PullRef,
  pull: { readonly number: number; readonly author?: string; readonly authorId?: number },
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

/** The job's own docs repository, only on the workflow's own GitHub, as `docsTargetOf` checks it. */
export function docsRepoOf(
  job: DocsJob | undefined,
  serverUrl: string,
  code: RepoRef | undefined
): Docs<{ readonly repo: RepoRef }> {
  const source = job?.source?.repository
  const repo = source ? parseRepoLink(source, serverUrl) : undefined
  if (!repo) return noDocsRepo(source, serverUrl, 'so no token is sent to read it.')
  return { repo, inCodeRepo: code !== undefined && sameRepo(repo, code) }
}

/** Whether `author` is one of `agents`; `mintlify[bot]` on github.com with another id is not. */
export function isAgentAuthor(
  author: { readonly login: string; readonly id?: number } | undefined,
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
