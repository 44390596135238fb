/**
 * Runs GitHub gives no secrets: a `pull_request` (or review) run on a pull request from a fork,
 * and any run Dependabot starts (its runs get only Dependabot's own secrets). There `api-key`
 * passed from a secret reads as empty, which is no mistake in the workflow: the step skips, and
 * says why and how a workflow keeps such runs from starting. Pure.
 *
 * Facts, from GitHub's documentation ("Using secrets in GitHub Actions", "Automating Dependabot
 * with GitHub Actions"): with the exception of `GITHUB_TOKEN`, secrets are not passed to the runner
 * when a workflow is triggered from a forked repository; `pull_request_target` runs in the base
 * repository's context, with its secrets. Workflows triggered by Dependabot (`github.actor` is
 * `dependabot[bot]`) get no Actions secrets, only Dependabot secrets.
 */
import { runsAsHead, type Event } from '../trigger/event.js'

/** The account Dependabot acts as: `GITHUB_ACTOR`, and the author of the pull requests it opens. */
export const DEPENDABOT = 'dependabot[bot]'

/**
 * The condition the documented workflows guard a docs step or job with, so that runs without
 * secrets never start: this repository's pull requests that Dependabot did not open.
 */
export const SECRETS_GUARD =
  "if: github.event.pull_request.head.repo.full_name == github.repository && github.actor != 'dependabot[bot]'"

/**
 * Why GitHub gave this run no secrets, as the end of a sentence ("GitHub gives no secrets to …"),
 * or undefined when it gives them (a run of the repository's own, `pull_request_target`,
 * `issue_comment`, a push).
 */
export function withheldSecrets(event: Event | undefined): string | undefined {
  if (!event) return undefined
  if (event.actor?.toLowerCase() === DEPENDABOT) {
    return 'runs Dependabot starts (GITHUB_ACTOR is dependabot[bot])'
  }
  // pull_request_target runs with the base repository's secrets, whoever opened the pull request.
  const withoutSecrets = runsAsHead(event)
  const pull = withoutSecrets ? event.pullRequest : undefined
  if (!pull) return undefined
  if (pull.author?.toLowerCase() === DEPENDABOT) {
    return `pull requests Dependabot opens (pull request #${pull.number} is by dependabot[bot])`
  }
  if (pull.fork) {
    // The fork's name comes from the payload: only a repository's name is shown, never more.
    const fork = /^[\w.-]+\/[\w.-]+$/.test(pull.fork) ? pull.fork : 'a fork'
    return `pull requests from forks (pull request #${pull.number} comes from ${fork})`
  }
  return undefined
}

/**
 * The skip's words: which inputs are empty and why, that nothing was started, and the guard that
 * keeps such runs from starting.
 */
export function withheldWords(empty: readonly string[], why: string): string {
  const inputs = empty.join(' and ')
  return (
    `${inputs} ${empty.length === 1 ? 'is' : 'are'} empty: GitHub gives no secrets to ${why}, ` +
    'so no docs job was started and this step is skipped. To keep such runs from starting, ' +
    `guard the docs job or step with \`${SECRETS_GUARD}\`.`
  )
}
