/**
 * The agent's commits on the docs deploy branch since a job without a pull request link began: the
 * platform cannot tell "changed nothing" from "pushed straight to the branch", so GitHub is asked.
 */
import { describeGitHubError, type ListedCommit } from './api.js'
import { docsReader, type DocsReaders } from './docs-pull.js'
import { inShape } from '../mintlify/job.js'
import type { Within } from '../../base/runtime.js'
import { AGENT_APP, docsRepoOf, isAgentAuthor } from '../../given/docs.js'
import type { RepoRef } from '../../given/ref.js'

/** The most commits shown; the count says how many there were (of the 20 GitHub lists). */
export const MAX_SHOWN_COMMITS = 3

/** What the docs repository's deploy branch shows of the job. */
export type DocsPushes =
  | {
      readonly known: true
      readonly repo: RepoRef
      /** The job's `source.ref`, else the repository's default branch. */
      readonly branch: string
      /** Newest first. */
      readonly commits: readonly PushedCommit[]
    }
  | {
      readonly known: false
      /** With the token and permission that would let it be read. */
      readonly why: string
    }

interface PushedCommit {
  readonly sha: string
  readonly url: string
}

interface PushedJob {
  readonly createdAt?: string | null
  readonly source?: { readonly repository?: string | null; readonly ref?: string | null } | null
}

/** The commits one of `agents` wrote at or after `since`; one without a date is not counted. */
export function agentCommitsSince(
  commits: readonly ListedCommit[],
  agents: readonly string[],
  serverUrl: string,
  since: string
): string[] {
  const from = Date.parse(since)
  if (!Number.isFinite(from)) return []
  return commits
    .filter((commit) => {
      const at = commit.date === undefined ? NaN : Date.parse(commit.date)
      return Number.isFinite(at) && at >= from && isAgentAuthor(commit.author, agents, serverUrl)
    })
    .map((commit) => commit.sha)
}

/** The agent's pushes since `job` was created, for a job that completed without a link. */
export async function readDocsPushes(
  job: PushedJob,
  code: RepoRef & { readonly serverUrl: string },
  readers: DocsReaders,
  within: Within
): Promise<DocsPushes> {
  const target = docsRepoOf(job, code.serverUrl, code)
  if ('problem' in target) return { known: false, why: target.problem }
  const { repo } = target
  const name = `${repo.owner}/${repo.repo}`
  const since = job.createdAt ?? ''
  if (!Number.isFinite(Date.parse(since))) {
    return {
      known: false,
      why: `The job gave no creation time, so whether the agent pushed to ${name} since is not known.`
    }
  }
  const ref = job.source?.ref ?? undefined
  if (ref !== undefined && !inShape('source.ref', ref)) {
    return {
      known: false,
      why: `The job's source.ref is not a branch name, so ${name} is not read.`
    }
  }
  const reader = docsReader(readers, target.inCodeRepo)
  if (!reader) return { known: false, why: `No token was given that can read ${name}.` }
  const { github, token } = reader
  try {
    return await within(async (signal) => {
      const branch = ref ?? (await github.defaultBranch(repo.owner, repo.repo, signal))
      if (!branch || !inShape('source.ref', branch)) {
        return { known: false, why: `GitHub named no default branch of ${name}.` } as const
      }
      const listed = await github.branchCommits(repo.owner, repo.repo, branch, since, signal)
      const agents = readers.agents ?? [AGENT_APP.login]
      const web = `${code.serverUrl}/${repo.owner}/${repo.repo}/commit/`
      const commits = agentCommitsSince(listed, agents, code.serverUrl, since).map((sha) => ({
        sha,
        url: web + sha
      }))
      return { known: true, repo, branch, commits } as const
    })
  } catch (error: unknown) {
    const fix =
      token === 'docs-token' || target.inCodeRepo
        ? ''
        : ' The workflow token reads only public repositories beyond its own: give docs-token ' +
          `(with \`contents: read\` on ${name}) to let the action read it.`
    return {
      known: false,
      why:
        `Could not read whether the agent pushed to ${name}: ` +
        `${describeGitHubError(error, 'contents: read', token)}.${fix}`
    }
  }
}
