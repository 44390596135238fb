/**
 * The docs pull request's state, read before anything calls it ready or sends its job more work.
 * What cannot be read is `unknown`, with why and what would let it be read.
 */
import { describeGitHubError, type GitHubApi, gitHubError, type GitHubFailureKind } from './api.js'
import { ProvenPull } from './docs-handle.js'
import type { Within } from '../../base/runtime.js'
import { AGENT_APP, docsTargetOf, type DocsJob } from '../../given/docs.js'
import { pullName, type PullRef, type RepoRef } from '../../given/ref.js'

/** Open, merged or closed only with the proof that it is the agent's and the recorded one. */
export type DocsPull =
  | {
      readonly state: 'open' | 'merged' | 'closed'
      readonly ref: PullRef
      readonly proven: ProvenPull
      readonly why?: undefined
      readonly failure?: undefined
    }
  | {
      /** `foreign`: GitHub shows it is not the agent's. */
      readonly state: 'unknown' | 'foreign'
      readonly ref?: PullRef
      readonly why: string
      readonly proven?: undefined
      readonly failure?: GitHubFailureKind
      readonly token?: 'docs-token' | 'github-token'
    }

/** The tokens that may read a docs pull request, and the accounts that open the agent's. */
export interface DocsReaders {
  readonly workflow?: GitHubApi
  readonly docs?: GitHubApi
  readonly agents?: readonly string[]
}

/**
 * The token every read of the docs repository uses: the workflow's for docs in the code repository,
 * else `docs-token` when given, else the workflow's (enough for a public one).
 */
export function docsReader(
  readers: DocsReaders,
  inCodeRepo: boolean
): { readonly github: GitHubApi; readonly token: 'docs-token' | 'github-token' } | undefined {
  const github = inCodeRepo ? readers.workflow : (readers.docs ?? readers.workflow)
  if (!github) return undefined
  return { github, token: github === readers.docs ? 'docs-token' : 'github-token' }
}

/** The state of `job`'s docs pull request; undefined when the job has no pull request link. */
export async function readDocsPull(
  job: DocsJob | undefined,
  code: RepoRef & { readonly serverUrl: string },
  readers: DocsReaders,
  within: Within,
  recorded?: PullRef
): Promise<DocsPull | undefined> {
  const target = docsTargetOf(job, code.serverUrl, code)
  if (!target) return undefined
  if ('problem' in target) return { state: 'unknown', why: target.problem }
  const { ref } = target
  const reader = docsReader(readers, target.inCodeRepo)
  if (!reader) {
    return {
      ref,
      state: 'unknown',
      why: `No token was given that can read ${pullName(ref)}, so its state is not known.`
    }
  }
  const { github, token } = reader
  try {
    const pull = await within((signal) => github.getPull(ref.owner, ref.repo, ref.number, signal))
    const agents = readers.agents ?? [AGENT_APP.login]
    const proven = ProvenPull.prove(ref, pull, { agents, serverUrl: code.serverUrl, recorded })
    if ('refused' in proven) return { ref, state: 'foreign', why: proven.refused }
    return { ref, state: pull.merged ? 'merged' : pull.state, proven }
  } catch (error: unknown) {
    const failure = gitHubError(error)
    const repository = `${ref.owner}/${ref.repo}`
    // The workflow token reaches no other repository, whatever `permissions:` says.
    const elsewhere = token === 'github-token' && !target.inCodeRepo
    const reach =
      ` The workflow token reads only public repositories beyond its own: give docs-token ` +
      `(with \`pull-requests: read\` on ${repository}) to let the action read it.`
    const said =
      elsewhere && failure.kind === 'refused' && failure.status !== 401
        ? `GitHub refused github-token (HTTP ${failure.status}).${reach}`
        : `${describeGitHubError(error, 'pull-requests: read', token, repository)}.` +
          (elsewhere ? reach : '')
    return {
      ref,
      state: 'unknown',
      failure: failure.kind,
      token,
      why: `Could not read the state of docs pull request ${pullName(ref)}: ${said}`
    }
  }
}
