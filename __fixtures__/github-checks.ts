/**
 * What GitHub's answers say about a commit's checks and a branch's commits: the facts the
 * `docs-checks` and `outcome` reads (`src/clients/github/docs-checks.ts`, `src/clients/github/docs-pushes.ts`) rest
 * on, as data their tests check them against.
 *
 * Where they come from:
 * - Check run `status` and `conclusion`: GitHub's REST documentation, "Check runs" ("Get a check
 *   run" and "List check runs for a Git reference"), and `@octokit/openapi`'s `check-run` schema
 *   (`generated/api.github.com.json`), whose `conclusion` enum is success, failure, neutral,
 *   cancelled, skipped, timed_out and action_required. GitHub's documentation adds `stale`, which
 *   only GitHub sets, on a run left incomplete for 14 days.
 * - Commit status `state`: GitHub's REST documentation, "Commit statuses" ("Create a commit
 *   status": error, failure, pending or success), and `@octokit/openapi`'s `status` schema. The
 *   combined status (`GET /repos/{owner}/{repo}/commits/{ref}/status`) lists the latest status of
 *   each `context` under `statuses`, with its `target_url`.
 * - The check runs of a commit (`GET /repos/{owner}/{repo}/commits/{ref}/check-runs`) answer
 *   `{ total_count, check_runs }`; each run has `name`, `status`, `conclusion` (null until
 *   completed), `details_url` (its app's page) and `html_url` (its page on GitHub).
 * - A branch's commits (`GET /repos/{owner}/{repo}/commits?sha=&since=`) list, newest first, each
 *   commit's `sha`, `author` (the account GitHub matched the author's address to, null when none)
 *   and `commit.committer.date`; `since` keeps those "last updated after the given time".
 *   `GET /repos/{owner}/{repo}` names the `default_branch`.
 */

/** How each check run conclusion counts for a docs pull request: does it pass, or fail. */
export const CHECK_RUN_CONCLUSIONS = {
  success: 'pass',
  neutral: 'pass',
  skipped: 'pass',
  failure: 'fail',
  cancelled: 'fail',
  timed_out: 'fail',
  // Blocks a required check until someone acts: not passed.
  action_required: 'fail',
  // Set by GitHub on a run that never completed: not passed.
  stale: 'fail'
} as const

/** The conclusions GitHub's documentation lists that `@octokit/openapi`'s enum leaves out. */
export const DOCUMENTED_ONLY = ['stale'] as const

/** Check run statuses: only `completed` has a conclusion. */
export const CHECK_RUN_STATUSES = [
  'queued',
  'in_progress',
  'completed',
  'waiting',
  'requested',
  'pending'
] as const

/** Commit status states, and how each counts. */
export const STATUS_STATES = {
  success: 'pass',
  pending: 'run',
  failure: 'fail',
  error: 'fail'
} as const

/** A check run as `GET …/commits/{ref}/check-runs` lists one (GitHub's example, trimmed). */
export const CHECK_RUN_EXAMPLE = {
  id: 4,
  head_sha: 'ce587453ced02b1526dfb4cb910479d431683101',
  html_url: 'https://github.com/github/hello-world/runs/4',
  details_url: 'https://example.com',
  status: 'completed',
  conclusion: 'neutral',
  name: 'mighty_readme'
} as const
