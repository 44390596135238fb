// Runs GitHub gives no secrets, where an `api-key` from a secret reads as empty and the step
// skips: a workflow triggered from a fork (but for `GITHUB_TOKEN`; `pull_request_target` runs with
// the base repository's secrets), and any Dependabot starts, which get only Dependabot secrets
// ("Using secrets in GitHub Actions", "Automating Dependabot with GitHub Actions").
import { runsAsHead, type Event } from '../event.js'

const DEPENDABOT = 'dependabot[bot]'

/** The guard of the documented workflows: runs without secrets never start. */
export const SECRETS_GUARD =
  "if: github.event.pull_request.head.repo.full_name == github.repository && github.actor != 'dependabot[bot]'"

/** Why GitHub gave this run no secrets, to end "GitHub gives no secrets to …"; or undefined. */
export function withheldSecrets(event: Event | undefined): string | undefined {
  if (!event) return undefined
  if (event.actor?.toLowerCase() === DEPENDABOT) {
    return 'runs Dependabot starts (GITHUB_ACTOR is dependabot[bot])'
  }
  const pull = runsAsHead(event) ? event.pullRequest : undefined
  if (!pull) return undefined
  if (pull.author?.toLowerCase() === DEPENDABOT) {
    return `pull requests Dependabot opens (pull request #${pull.number} is by dependabot[bot])`
  }
  if (pull.fork) {
    // From the payload: shown only when it is a repository's name.
    const fork = /^[\w.-]+\/[\w.-]+$/.test(pull.fork) ? pull.fork : 'a fork'
    return `pull requests from forks (pull request #${pull.number} comes from ${fork})`
  }
  return undefined
}

/** The skip's words: which inputs are empty and why, and the guard that keeps such runs away. */
export function withheldWords(empty: readonly string[], why: string): string {
  const inputs = empty.join(' and ')
  return (
    `${inputs} ${empty.length === 1 ? 'is' : 'are'} empty: GitHub gives no secrets to ${why}, ` +
    'so no docs job was started and this step is skipped. To keep such runs from starting, ' +
    `guard the docs job or step with \`${SECRETS_GUARD}\`.`
  )
}
