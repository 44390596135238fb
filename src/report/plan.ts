/**
 * The plan's words: why the run does what it does, for the log, the status comment and the
 * check, what a dry run shows, and the act stage's few lines of its own. Pure.
 */
import type { AgentHand } from '../run/read/own.js'
import { describeGitHubError } from '../clients/github/api.js'
import { forLog } from '../base/sanitize.js'
import { pullName, type PullRef } from '../given/ref.js'
import type { Plan, PlanWords, Skip, Start, Where, Why } from '../run/decide/plan.js'

const DOCS_PULL_CHECK = 'This is the docs pull request itself'
const AGENT_PUSH_CHECK = "The agent's own docs change: nothing to document"

const job = (id: string) => forLog(id, 100)
const docsName = (ref: PullRef | undefined) => (ref ? pullName(ref) : 'its docs pull request')
const at = (where: Where) =>
  'pull' in where ? `pull request #${where.pull}` : forLog(where.branch, 100)

export function planWords(plan: Plan): PlanWords {
  return plan.why ? words(plan.why) : {}
}

function own(hand: AgentHand, pullEvent: boolean): PlanWords {
  const by = 'author' in hand ? `${forLog(hand.author, 60)} (agent-accounts)` : ''
  if (hand.by === 'pull-author') {
    const reason = `Pull request #${hand.number} was opened by ${by}: it is the agent's own docs pull request, so no docs job is started.`
    return { reason, check: DOCS_PULL_CHECK }
  }
  if (hand.by === 'push-commits') {
    const reason = `Every pushed commit is by ${by}: the agent's own work starts no docs job.`
    return { reason, check: AGENT_PUSH_CHECK }
  }
  const what =
    hand.by === 'commit-pull'
      ? `opened by ${by}`
      : "followed by this action as a docs pull request (it carries the action's backlink)"
  const from = pullEvent
    ? `Pull request #${hand.number} was`
    : `The pushed commit comes from pull request #${hand.number},`
  return {
    reason: `${from} ${what}: no docs job is started for the docs themselves.`,
    check: pullEvent ? DOCS_PULL_CHECK : AGENT_PUSH_CHECK
  }
}

function words(why: Why): PlanWords {
  const both = (text: string): PlanWords => ({ reason: text, note: text })
  switch (why.code) {
    case 'own':
      return own(why.hand, why.pullEvent)
    case 'own-unknown': {
      const text =
        `${why.why} Whether it is the agent's own work cannot be told, so no docs job is ` +
        'started for it; re-run the workflow once GitHub answers.'
      const check = "Could not tell whether this is the agent's own change: re-run to document it"
      return { reason: text, warning: text, check }
    }
    case 'change':
      return { reason: why.text }
    case 'docs-merged-told': {
      const name = docsName(why.docs)
      const every = `every commit ${'pull' in why.where ? 'of' : 'on'} ${at(why.where)}`
      return {
        reason:
          `Docs pull request ${name} of agent job ${job(why.jobId)} is merged, and that job was ` +
          `told ${every}: nothing new to document, so no job was started.`,
        check: `Docs already merged: ${name}`
      }
    }
    case 'nothing-new': {
      const since = forLog(why.since.slice(0, 7), 7)
      const reason = `Nothing changed on ${forLog(why.branch, 100)} since ${since}, the last commit the docs were told about: no job was started or messaged.`
      return { reason, check: `No new commits since the docs were last told (${since})` }
    }
    case 'reuse-pull':
      return {
        reason:
          `Pull request #${why.number} already has agent job ${job(why.jobId)} ` +
          '(reuse-job: true): sending the prompt to it as a follow-up.'
      }
    case 'join':
      return both(
        why.docs
          ? `This change joins agent job ${job(why.jobId)} and its open docs pull request ${pullName(why.docs)} on ${forLog(why.branch, 100)} (reuse-job: true).`
          : `This change joins agent job ${job(why.jobId)}, still running on ${forLog(why.branch, 100)} (reuse-job: true).`
      )
    case 'mend':
      return {
        reason:
          `Agent job ${job(why.jobId)} was already told commit ${forLog(why.commit.slice(0, 7), 7)}: ` +
          'this run sends it nothing and follows it to its end.'
      }
    case 'job-unreadable':
    case 'job-ended': {
      const how = why.code === 'job-ended' ? why.phase : 'could not be read'
      return both(
        `Agent job ${job(why.jobId)} recorded on ${at(why.where)} ${how}, so a new job was started.`
      )
    }
    case 'no-link':
      return both(
        `Agent job ${job(why.jobId)} completed without a docs pull request, so a new job was started.`
      )
    case 'docs-done': {
      const how = why.state === 'merged' ? 'was merged' : 'was closed without merging'
      return both(
        `Docs pull request ${docsName(why.docs)} of agent job ${job(why.jobId)} ${how}, so this change went to a new job.`
      )
    }
    case 'docs-unknown': {
      const text = `Docs pull request ${docsName(why.docs)} of agent job ${job(why.jobId)} could not be read, so a new job was started.`
      const gathers =
        'branch' in why.where
          ? `: runs on ${forLog(why.where.branch, 100)} gather into one docs pull request only while it can be read.`
          : ', never a follow-up sent blind.'
      return {
        ...both(text),
        warning: `${why.why} Its state is not known, so this change went to a new docs job${gathers}`
      }
    }
    case 'record-unknown':
      return recordUnknown(why)
    case 'record-mismatch': {
      const text =
        `Agent job ${job(why.jobId)} now names ${forLog(why.named, 200)} as its docs pull ` +
        `request, but the status comment records ${pullName(why.recorded)}: nothing was sent to ` +
        'Mintlify and neither pull request was written to. Check which one holds the docs ' +
        `change in the Mintlify dashboard; to start over, delete the status comment and re-run.`
      return { reason: text, warning: text, check: RECORD_MISMATCH_CHECK }
    }
    case 'kind': {
      // A kind's words come first; the core reason it goes on to adds what they leave out.
      const then = why.then ? words(why.then) : {}
      const reason = [why.words.reason, then.reason].filter(Boolean).join(' ')
      const own = Object.entries({ ...why.words, ...(reason && { reason }) })
      return { ...then, ...Object.fromEntries(own.map(([k, v]) => [k, v && forLog(v, 1000)])) }
    }
  }
}

const RECORD_MISMATCH_CHECK =
  'Nothing was sent: the job names another docs pull request than the record'
const RECORD_UNKNOWN_CHECK = 'Nothing was sent: a docs record could not be read; a re-run sends it'

/**
 * A record that could not be read: what, and that nothing was sent. The read stage warned of the
 * comment and the checks; a docs pull request is warned of here, once.
 */
function recordUnknown(why: Extract<Why, { code: 'record-unknown' }>): PlanWords {
  const after =
    'so nothing was sent to Mintlify; re-run the workflow job once GitHub answers, and it is sent once.'
  if (why.what !== 'docs') {
    const what = why.what === 'comment' ? 'the status comment' : 'the docs checks'
    return {
      reason: `Whether ${what} on ${at(why.where)} records a docs job could not be read, ${after}`,
      check: RECORD_UNKNOWN_CHECK
    }
  }
  const text =
    `Docs pull request ${docsName(why.docs)} of agent job ${job(why.jobId ?? '')}, recorded on ` +
    `${at(why.where)}, could not be read: the job may still be at work on it, ${after}`
  return { reason: text, warning: `${why.why} ${text}`, check: RECORD_UNKNOWN_CHECK }
}

export function skipWords(plan: Skip): { reason: string; check?: string } {
  const { reason = 'No docs job is needed.', check } = planWords(plan)
  return { reason, check }
}

/** Why a refused follow-up became a new job, for the status comment. */
export function refusedNote(plan: Start, status: number): string {
  const where = plan.reusingFrom ? 'on this pull request' : 'on this branch'
  return (
    `Agent job ${job(plan.jobId)} recorded ${where} could not take a message ` +
    `(HTTP ${status}), so a new job was started.`
  )
}

/** The dry-run's title for the prompt it shows: what the step would have done with it. */
export function dryRunTitle(plan: Start): string {
  const id = job(plan.jobId)
  switch (plan.act) {
    case 'create':
      return 'The prompt a new agent job would be given (dry-run)'
    case 'follow-up': {
      const from = plan.reusingFrom ? `, the job recorded on pull request #${plan.reusingFrom}` : ''
      return `The follow-up message agent job ${id} would be sent${from} (dry-run)`
    }
    case 'attach':
      return `Would attach to agent job ${id} and send it nothing (dry-run)`
  }
}

/** What a run says when it was stopped after its job had ended (while the preview was followed). */
export const FOLLOWED_NO_FURTHER =
  'The docs job had ended when the run was stopped; what came after it was not followed further:'

/** What a closed pull request's run says when no docs pull request can follow it. */
export const CLOSED_WITHOUT = {
  record: 'No docs job is recorded for this pull request, so no docs pull request follows it.',
  job: 'The docs pull request is left as it is.'
} as const

/** The failure when the API answered a create without a job id. */
export const NO_JOB_ID =
  'The API created a job but its answer has no usable job id (none, or one that cannot be an ' +
  'id: empty, with control characters, "." or "..", or longer than 256 characters), so the job ' +
  'cannot be followed; find it in the Mintlify dashboard.'

export function reactionFailed(failure: unknown): string {
  return (
    `Could not react to the /docs comment (${describeGitHubError(failure, 'pull-requests: write')}); ` +
    'the docs job is not affected.'
  )
}
