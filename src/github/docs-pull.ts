/**
 * Reading the docs pull request's state before anything says it is ready, and before a recorded
 * job is sent more work: with `docs-token` when it is given, otherwise with the workflow token
 * (enough for a public docs repository, or docs in the code repository itself). Only the job's
 * own docs repository is ever asked (see `trigger/docs.ts`). Best effort: what cannot be read is
 * `unknown`, with the reason and what would let it be read.
 */
import { describeGitHubError, type GitHubApi, gitHubError, type GitHubFailureKind } from './api.js'
import { ProvenPull } from './docs-handle.js'
import type { Within } from '../runtime.js'
import { AGENT_APP, docsTargetOf, type DocsJob } from '../trigger/docs.js'
import { pullName, type PullRef, type RepoRef } from '../trigger/ref.js'

/**
 * The docs pull request's state. Open, merged or closed only with the proof that GitHub shows
 * it as the agent's and the recorded one (`ProvenPull`): nothing calls a pull request ready,
 * or writes to it, without one.
 */
export type DocsPull =
  | {
      readonly state: 'open' | 'merged' | 'closed'
      readonly ref: PullRef
      readonly proven: ProvenPull
      readonly why?: undefined
      readonly failure?: undefined
    }
  | {
      /** `unknown`: it could not be read; `foreign`: GitHub shows it is not the agent's. */
      readonly state: 'unknown' | 'foreign'
      readonly ref?: PullRef
      /** Why, for the log. */
      readonly why: string
      readonly proven?: undefined
      /** How the read failed, when it was asked and not answered. */
      readonly failure?: GitHubFailureKind
      /** The token the read was sent with, when it was sent. */
      readonly token?: 'docs-token' | 'github-token'
    }

/**
 * The tokens that may read a docs pull request (the workflow's, and `docs-token`), and the
 * accounts whose pull requests are the agent's (`agent-accounts`): a docs pull request is the
 * agent's only when GitHub says one of them opened it.
 */
export interface DocsReaders {
  readonly workflow?: GitHubApi
  readonly docs?: GitHubApi
  readonly agents?: readonly string[]
}

/**
 * The token that reads the docs repository: the workflow token for docs in the code repository
 * itself, else `docs-token` where it is given, else the workflow token (enough for a public one).
 * Every read of the docs repository chooses here.
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
  /** The code repository the workflow runs in, on this GitHub. */
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
