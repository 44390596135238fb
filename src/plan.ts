/**
 * What this step does with a job, and with which one: start a new one, continue the one given as
 * `job-id` (a follow-up with a prompt, attaching without), or send the prompt to the job the pull
 * request's status comment records (`reuse-job`). Pure.
 */
import type { Recorded } from './github/companion.js'
import type { Joined } from './trigger/branch.js'
import type { Settings } from './inputs.js'
import type { Mode } from './run.js'
import { forLog } from './sanitize.js'
import type { DocsPullState } from './trigger/docs.js'
import { eventPullRequest, type Event } from './trigger/event.js'
import { pullName } from './trigger/ref.js'

export interface Plan {
  readonly mode: Mode
  /** The job to continue; '' for a new one. */
  readonly jobId: string
  /** The pull request whose status comment records the job (`reuse-job`); undefined otherwise. */
  readonly reusingFrom?: number
  /** Why the plan is what it is, for the log. */
  readonly reason?: string
  /** A line for the status comment: why the recorded job was not sent the change. */
  readonly note?: string
  /** Start nothing: the change is documented already. `check` is what the docs check says. */
  readonly skip?: { readonly reason: string; readonly check: string; readonly leaveCheck?: boolean }
}

/** What the pull request's status comment records, and what became of that job's docs. */
export interface Found {
  readonly number: number
  /** The code pull request's head commit, when known. */
  readonly headSha?: string
  /** Login of the account that opened the pull request. */
  readonly author?: string
  /** The pull request carries this action's backlink: it is a docs pull request. */
  readonly docsPull?: boolean
  readonly recorded?: Recorded
  /** The recorded job's docs pull request, read before sending it anything. */
  readonly docs?: DocsPullState
}

/**
 * The plan for `prompt`, given what the pull request's status comment records, if anything. A
 * recorded job whose docs pull request is merged or closed is sent nothing more: the change goes
 * to a new job, or, when that pull request was merged after the job was told the code pull
 * request's last commit, there is nothing new to document.
 */
export function planJob(
  settings: Pick<Settings, 'jobId' | 'reuseJob'>,
  prompt: string,
  found: Found | undefined,
  joined?: Joined
): Plan {
  if (settings.jobId) {
    return { mode: prompt ? 'follow-up' : 'attach', jobId: settings.jobId }
  }
  if (joined?.nothingNew) {
    const since = forLog((joined.since ?? '').slice(0, 7), 7)
    return {
      mode: 'create',
      jobId: '',
      skip: {
        reason: `Nothing changed on ${forLog(joined.branch, 100)} since ${since}, the last commit the docs were told about: no job was started or messaged.`,
        check: `No new commits since the docs were last told (${since})`,
        // The check on this very commit holds the record: writing over it would lose the job.
        leaveCheck: true
      }
    }
  }
  if (joined) {
    const reason = joined.reason
    return joined.jobId
      ? { mode: 'follow-up', jobId: joined.jobId, reason, note: reason }
      : { mode: 'create', jobId: '', reason, note: reason }
  }
  const recorded = found?.recorded
  if (!found || !recorded || !settings.reuseJob) return { mode: 'create', jobId: '' }
  const docs = found.docs
  if (docs?.ref && (docs.state === 'merged' || docs.state === 'closed')) {
    const name = pullName(docs.ref)
    const job = forLog(recorded.jobId, 100)
    if (docs.state === 'merged' && recorded.sha && recorded.sha === found.headSha) {
      return {
        mode: 'create',
        jobId: '',
        skip: {
          reason:
            `Docs pull request ${name} of agent job ${job} is merged, and that job was told ` +
            `every commit of pull request #${found.number}: nothing new to document, so no job was started.`,
          check: `Docs already merged: ${name}`
        }
      }
    }
    const how = docs.state === 'merged' ? 'was merged' : 'was closed without merging'
    const note = `Docs pull request ${name} of agent job ${job} ${how}, so this change went to a new job.`
    return { mode: 'create', jobId: '', reason: note, note }
  }
  return {
    mode: 'follow-up',
    jobId: recorded.jobId,
    reusingFrom: found.number,
    reason:
      `Pull request #${found.number} already has agent job ${forLog(recorded.jobId, 100)} ` +
      '(reuse-job: true): sending the prompt to it as a follow-up.'
  }
}

/** The dry-run's title for the prompt it shows: what the step would have done with it. */
export function dryRunTitle(plan: Plan): string {
  const id = forLog(plan.jobId, 100)
  switch (plan.mode) {
    case 'create':
      return 'The prompt a new agent job would be given (dry-run)'
    case 'follow-up':
      return (
        `The follow-up message agent job ${id} would be sent` +
        (plan.reusingFrom ? `, the job recorded on pull request #${plan.reusingFrom}` : '') +
        ' (dry-run)'
      )
    case 'attach':
      return `Would attach to agent job ${id} and send it nothing (dry-run)`
  }
}

/**
 * The last code commit the job knows of, for the status comment to record: this run's, when its
 * prompt described the change (`context: auto`) and was sent; else what the record said of the
 * same job.
 */
export function toldCommit(
  settings: Pick<Settings, 'context'>,
  begun: { readonly mode: Mode; readonly job: { readonly id?: string | null } },
  found: Found | undefined,
  commit: string | undefined
): string | undefined {
  if (settings.context === 'auto' && begun.mode !== 'attach') return commit
  return begun.job.id === found?.recorded?.jobId ? found?.recorded?.sha : undefined
}

/** Why a run starts nothing because its change is the agent's own work, and what the check says. */
export interface AgentWork {
  readonly reason: string
  readonly check: string
}

const DOCS_PULL_CHECK = 'This is the docs pull request itself'
const AGENT_PUSH_CHECK = "The agent's own docs change: nothing to document"

/**
 * Whether the event alone says the change is the agent's (`agent-accounts`): a pull request one
 * of them opened, or a push whose commits they all wrote. Another bot's work is not the agent's.
 */
export function agentEvent(
  settings: Pick<Settings, 'agentAccounts'>,
  event: Event
): AgentWork | undefined {
  const agent = (login: string | undefined) =>
    login !== undefined && settings.agentAccounts.includes(login.toLowerCase())
  const pr = eventPullRequest(event)
  if (pr && agent(pr.author)) {
    return {
      reason:
        `Pull request #${pr.number} was opened by ${forLog(pr.author ?? '', 60)} (agent-accounts): ` +
        "it is the agent's own docs pull request, so no docs job is started.",
      check: DOCS_PULL_CHECK
    }
  }
  const commits = event.name === 'push' ? event.commits : []
  if (commits.length > 0 && commits.every((commit) => agent(commit.login))) {
    return {
      reason:
        `Every pushed commit is by ${forLog(commits[0]?.login ?? '', 60)} (agent-accounts): the ` +
        "agent's own work starts no docs job.",
      check: AGENT_PUSH_CHECK
    }
  }
  return undefined
}

/**
 * Whether the pull request the change belongs to is a docs pull request: one the agent opened,
 * or one the action follows (its backlink is on it), whoever is shown as its author.
 */
export function agentPull(
  settings: Pick<Settings, 'agentAccounts'>,
  event: Event,
  found: Found
): AgentWork | undefined {
  const byAgent =
    found.author !== undefined && settings.agentAccounts.includes(found.author.toLowerCase())
  if (!byAgent && !found.docsPull) return undefined
  const what = byAgent
    ? `opened by ${forLog(found.author ?? '', 60)} (agent-accounts)`
    : "followed by this action as a docs pull request (it carries the action's backlink)"
  return eventPullRequest(event)
    ? {
        reason: `Pull request #${found.number} was ${what}: no docs job is started for the docs themselves.`,
        check: DOCS_PULL_CHECK
      }
    : {
        reason: `The pushed commit comes from pull request #${found.number}, ${what}: no docs job is started for the docs themselves.`,
        check: AGENT_PUSH_CHECK
      }
}
