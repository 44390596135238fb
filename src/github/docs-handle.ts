/**
 * The one way to act on a docs pull request. `ProvenPull.prove` takes GitHub's answer for the
 * pull request the job's link names and the record, and returns a proof, or why there is none: the
 * link names a pull request in the job's own docs repository on this GitHub (`trigger/docs.ts`),
 * GitHub says one of the agent accounts opened it, and it is the one the record names for the
 * job (or nothing is recorded yet). Calling it ready needs the proof (`DocsPull`); writing to it
 * (backlink, reviewers, labels, comments, closing) needs a `DocsHandle`, which only a proof and a
 * token make. Neither has a public constructor, so no code can hand a sink an unproven pull
 * request: the types refuse it (`__tests__/docs-handle.test.ts`).
 */
import { notTheAgents } from '../trigger/docs.js'
import type { PullRef } from '../trigger/ref.js'
import type { GitHubApi, PullState } from './api.js'
import type { ThreadApi } from './own-comment.js'

/** A docs pull request GitHub showed as the agent's, and the one the record names. */
export class ProvenPull {
  readonly ref: PullRef
  readonly pull: PullState
  /** Only `prove` makes one: the private field makes the type nominal. */
  readonly #proven = true

  private constructor(ref: PullRef, pull: PullState) {
    this.ref = ref
    this.pull = pull
  }

  /** Whether this proof is for the pull request at `ref`. */
  is(ref: PullRef): boolean {
    return (
      this.#proven &&
      this.ref.number === ref.number &&
      this.ref.owner.toLowerCase() === ref.owner.toLowerCase() &&
      this.ref.repo.toLowerCase() === ref.repo.toLowerCase()
    )
  }

  /**
   * The proof that GitHub's answer `pull` for the pull request at `ref` (the job's link, already
   * checked to be in the job's docs repository) is the agent's and the recorded one; or why not.
   */
  static prove(
    ref: PullRef,
    pull: PullState,
    rules: ProofRules
  ): ProvenPull | { readonly refused: string } {
    const refused = notTheAgents(ref, pull, rules.agents, rules.serverUrl, rules.recorded)
    return refused === undefined ? new ProvenPull(ref, pull) : { refused }
  }
}

/** What a docs pull request is proven against. */
export interface ProofRules {
  /** `agent-accounts` (always with `mintlify[bot]`). */
  readonly agents: readonly string[]
  /** `GITHUB_SERVER_URL`. */
  readonly serverUrl: string
  /** The docs pull request the record names for the job, when it names one. */
  readonly recorded?: PullRef
}

/**
 * A proven docs pull request and the token that may write to it: every write to a docs pull
 * request goes through one, and only to the pull request it was proven for.
 */
export class DocsHandle {
  readonly proven: ProvenPull
  readonly token: 'docs-token' | 'github-token'
  readonly #github: GitHubApi

  private constructor(proven: ProvenPull, github: GitHubApi, token: DocsHandle['token']) {
    this.proven = proven
    this.#github = github
    this.token = token
  }

  /** A handle for `proven`, writing with `github` (named `token` in warnings). */
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

  /**
   * The comment calls for this pull request's conversation: whatever thread a caller names, they
   * go to this one.
   */
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
