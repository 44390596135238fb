/**
 * The one way to act on a docs pull request: calling it ready needs a `ProvenPull`, writing to it
 * a `DocsHandle`. Neither has a public constructor, so the types refuse an unproven pull request.
 */
import { notTheAgents } from '../../given/docs.js'
import type { PullRef } from '../../given/ref.js'
import type { GitHubApi, PullState } from './api.js'
import type { ThreadApi } from './own-comment.js'

/** A docs pull request GitHub showed as the agent's, and the one the record names. */
export class ProvenPull {
  readonly ref: PullRef
  readonly pull: PullState
  /** Makes the type nominal: a look-alike object is not a proof. */
  readonly #proven = true

  private constructor(ref: PullRef, pull: PullState) {
    this.ref = ref
    this.pull = pull
  }

  is(ref: PullRef): boolean {
    return (
      this.#proven &&
      this.ref.number === ref.number &&
      this.ref.owner.toLowerCase() === ref.owner.toLowerCase() &&
      this.ref.repo.toLowerCase() === ref.repo.toLowerCase()
    )
  }

  /** The proof that GitHub's answer for the job's link is the agent's and the recorded one. */
  static prove(
    ref: PullRef,
    pull: PullState,
    rules: ProofRules
  ): ProvenPull | { readonly refused: string } {
    const refused = notTheAgents(ref, pull, rules.agents, rules.serverUrl, rules.recorded)
    return refused === undefined ? new ProvenPull(ref, pull) : { refused }
  }
}

interface ProofRules {
  /** `agent-accounts`, always with `mintlify[bot]`. */
  readonly agents: readonly string[]
  readonly serverUrl: string
  readonly recorded?: PullRef
}

/** Every write to a docs pull request goes through one, to the pull request it was proven for. */
export class DocsHandle {
  readonly proven: ProvenPull
  readonly token: 'docs-token' | 'github-token'
  readonly #github: GitHubApi

  private constructor(proven: ProvenPull, github: GitHubApi, token: DocsHandle['token']) {
    this.proven = proven
    this.#github = github
    this.token = token
  }

  static of(proven: ProvenPull, github: GitHubApi, token: DocsHandle['token']): DocsHandle {
    return new DocsHandle(proven, github, token)
  }

  get ref(): PullRef {
    return this.proven.ref
  }

  get pull(): PullState {
    return this.proven.pull
  }

  addLabels(labels: readonly string[], signal: AbortSignal): Promise<void> {
    const { owner, repo, number } = this.ref
    return this.#github.addLabels(owner, repo, number, labels, signal)
  }

  requestReviewers(
    reviewers: { readonly users: readonly string[]; readonly teams: readonly string[] },
    signal: AbortSignal
  ): Promise<void> {
    const { owner, repo, number } = this.ref
    return this.#github.requestReviewers(owner, repo, number, reviewers, signal)
  }

  close(signal: AbortSignal): Promise<PullState> {
    const { owner, repo, number } = this.ref
    return this.#github.closePull(owner, repo, number, signal)
  }

  /** Comment calls that go to this pull request, whatever thread a caller names. */
  thread(): ThreadApi {
    const github = this.#github
    const { owner, repo, number } = this.ref
    return {
      viewer: (signal) => github.viewer(signal),
      listComments: (_o, _r, _n, page, signal) =>
        github.listComments(owner, repo, number, page, signal),
      createComment: (_o, _r, _n, body, signal) =>
        github.createComment(owner, repo, number, body, signal),
      updateComment: (_o, _r, id, body, signal) =>
        github.updateComment(owner, repo, id, body, signal)
    }
  }
}
