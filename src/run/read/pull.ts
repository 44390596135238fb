/**
 * The pull requests a change belongs to, and the status comment of the one it belongs to. A
 * push's are asked whatever `comment` says: a commit of the agent's own pull request starts nothing.
 */
import {
  type CommitPull,
  describeGitHubError,
  type GitHubApi,
  gitHubError
} from '../../clients/github/api.js'
import { Companion } from '../../clients/github/companion.js'
import type { Settings } from '../../given/inputs.js'
import type { Within } from '../../base/runtime.js'
import type { Step } from '../step.js'
import { codeCommit } from '../change/code.js'
import { eventPullRequest, onBranchOf, pushOf, type Event } from '../../given/event.js'
import type { PullFacts } from './facts.js'
import { causeOf, known, unknown, type Knowable } from './known.js'

interface PullRead {
  readonly pulls: Knowable<readonly CommitPull[]>
  readonly pull?: PullFacts
  /** For the sinks. */
  readonly companion?: Companion
}

/** The commit's pull requests, and the one it belongs to with what its comment records. */
export async function readPull(
  settings: Settings,
  event: Event,
  github: GitHubApi | undefined,
  gathers: boolean,
  step: Step
): Promise<PullRead> {
  const within = step.time.within('lookup')
  const pulls = await pullsOf(event, github, gathers, within, step.log)
  const only = pulls.known && pulls.value.length === 1 ? pulls.value[0] : undefined
  const branchPush = pushOf(event)?.tag === false && !event.deleted && !eventPullRequest(event)
  if (settings.comment === 'auto' && pulls.known && !only && branchPush) {
    step.log.info(
      pulls.value.length === 0
        ? 'The pushed commit belongs to no pull request, so no status comment is written.'
        : `The pushed commit belongs to ${pulls.value.length} pull requests, so no status comment is written.`
    )
  }
  if (!only) return { pulls }
  const bare: PullFacts = { ...only, docsPull: false, recorded: known(undefined) }
  if (settings.comment !== 'auto' || !github) return { pulls, pull: bare }
  // A schedule or manual run keeps its record on the branch, not on its commit's long-merged
  // pull request, whose comments are read only for the backlink.
  const onBranch = onBranchOf(event) !== undefined
  const companion = new Companion(
    github,
    { owner: event.owner, repo: event.repo, fork: Boolean(event.pullRequest?.fork) },
    only.number,
    settings.projectId,
    step.log,
    settings.reuseJob && !onBranch
  )
  const recorded = await companion.find(within)
  const failure = companion.failure
  const pull: PullFacts = {
    ...bare,
    docsPull: companion.docsPull,
    recorded: onBranch
      ? known(undefined)
      : failure
        ? unknown(
            `The status comment on pull request #${only.number} could not be read.`,
            // Without reuse-job no job is continued from the comment: no record is asked of it.
            settings.reuseJob ? causeOf(failure.error) : 'not-asked'
          )
        : known(recorded)
  }
  return onBranch ? { pulls, pull } : { pulls, pull, companion }
}

/** The event's own pull request, or those GitHub lists for the pushed or gathered commit. */
async function pullsOf(
  event: Event,
  github: GitHubApi | undefined,
  gathers: boolean,
  within: Within,
  log: Step['log']
): Promise<Knowable<readonly CommitPull[]>> {
  const pr = eventPullRequest(event)
  if (pr) return known([{ number: pr.number, headSha: pr.headSha, author: pr.author }])
  // A tag points at a commit that may have come from a pull request long done with.
  const asks = pushOf(event) !== undefined || gathers
  if (!asks || event.deleted || event.ref?.startsWith('refs/tags/')) return known([])
  const sha = codeCommit(event)?.sha
  if (!sha) return known([])
  if (!github) {
    return unknown(
      'No github-token was given, so the pull requests of the commit were not asked.',
      'not-asked'
    )
  }
  try {
    return known(await within((signal) => github.commitPulls(event.owner, event.repo, sha, signal)))
  } catch (error: unknown) {
    const why =
      `Could not find the pull requests of commit ${sha.slice(0, 7)}: ` +
      `${describeGitHubError(error, 'pull-requests: read')}.`
    // A refusal is the workflow's choice, the same on every run: go on as without a token.
    if (gitHubError(error).kind !== 'refused') return unknown(why)
    log.warning(
      `${why} Without them the agent's own merges cannot be told from other changes: grant ` +
        'pull-requests: read so that they start no docs job.'
    )
    return unknown(why, 'not-asked')
  }
}
