// @ts-check
import { randomBytes } from 'node:crypto'

/**
 * @typedef {import('./scenario.js').JobStatus} JobStatus
 * @typedef {import('./scenario.js').Scenario} Scenario
 */

/**
 * A job as the published contract describes it.
 *
 * @typedef {object} AgentJob
 * @property {string} id
 * @property {JobStatus} status
 * @property {{ repository: string, ref: string | null }} source
 * @property {string} model
 * @property {string | null} prLink
 * @property {string} createdAt
 * @property {string | null} archivedAt
 */

/**
 * What the simulator keeps per job: the public fields plus who owns it, what it was asked, the
 * pull request it opened (which outlives follow-ups) and the view stale reads still show.
 *
 * @typedef {AgentJob & {
 *   projectId: string,
 *   prompts: string[],
 *   number: number,
 *   activeSince: number,
 *   openedPrLink: string | null,
 *   stale: { reads: number, view: AgentJob } | null
 * }} JobRecord
 */

export const REPOSITORY = 'https://github.com/acme/docs'
export const MODEL = 'claude-sonnet-4-5'

/** @returns {string} an opaque id shaped like the real ones */
export function randomJobId() {
  return `job_${randomBytes(10).toString('hex')}`
}

/**
 * @param {{ id: string, projectId: string, prompt: string, number: number, now: number }} init
 * @returns {JobRecord}
 */
export function newJob({ id, projectId, prompt, number, now }) {
  return {
    id,
    status: 'active',
    source: { repository: REPOSITORY, ref: null },
    model: MODEL,
    prLink: null,
    createdAt: new Date(now).toISOString(),
    archivedAt: null,
    projectId,
    prompts: [prompt],
    number,
    activeSince: now,
    openedPrLink: null,
    stale: null
  }
}

/**
 * Moves an active job to its final state once its time is up. How it ends is read from the
 * scenario at that moment, so a test may change the outcome while a job runs; after that the job
 * stays as it ended.
 *
 * A job that already opened a pull request keeps working in it: after a follow-up it ends with
 * the same link whatever the knobs say, even when the follow-up fails. A job without one opens one
 * as `followUpPrLink` (or, when that is null, `prLink`) says.
 *
 * @param {JobRecord} job
 * @param {Scenario} scenario
 * @param {number} now
 */
export function settle(job, scenario, now) {
  if (job.status !== 'active' || scenario.finalStatus === 'active') return
  const endedAt = job.activeSince + scenario.jobDurationMs
  if (now < endedAt) return
  job.status = scenario.finalStatus
  if (job.status === 'failed') {
    job.prLink = job.openedPrLink
    return
  }
  job.source = { ...job.source, ref: `mintlify/agent-${job.number}` }
  const knob =
    job.prompts.length > 1 && scenario.followUpPrLink !== null
      ? scenario.followUpPrLink
      : scenario.prLink
  job.prLink = job.openedPrLink ?? pullRequestLink(knob, job.number)
  job.openedPrLink = job.prLink
  if (job.status === 'archived') job.archivedAt = new Date(endedAt).toISOString()
}

/**
 * A follow-up puts the agent back to work on the same job and branch; the contract says `prLink`
 * is null while a job is active. With `staleReads`, that many answers (the message's own first)
 * still show the job as it was.
 *
 * @param {JobRecord} job
 * @param {string} prompt
 * @param {number} now
 * @param {number} [staleReads]
 */
export function followUp(job, prompt, now, staleReads = 0) {
  job.stale = staleReads > 0 ? { reads: staleReads, view: publicView(job) } : null
  job.prompts.push(prompt)
  job.status = 'active'
  job.prLink = null
  job.archivedAt = null
  job.activeSince = now
}

/**
 * What a read shows: the job itself, or while stale reads remain, the job from before the last
 * follow-up (each such read uses one up).
 *
 * @param {JobRecord} job
 * @returns {AgentJob}
 */
export function readView(job) {
  if (job.stale === null) return job
  const { view } = job.stale
  job.stale.reads -= 1
  if (job.stale.reads <= 0) job.stale = null
  return view
}

/**
 * @param {AgentJob} job
 * @returns {AgentJob}
 */
function publicView(job) {
  return {
    id: job.id,
    status: job.status,
    source: { ...job.source },
    model: job.model,
    prLink: job.prLink,
    createdAt: job.createdAt,
    archivedAt: job.archivedAt
  }
}

/**
 * The job as it goes on the wire, with the scenario's `jobFields` laid over it.
 *
 * @param {AgentJob} job
 * @param {Record<string, unknown>} jobFields
 * @returns {Record<string, unknown>}
 */
export function renderJob(job, jobFields) {
  return { ...publicView(job), ...jobFields }
}

/**
 * @param {boolean | string} knob
 * @param {number} number
 * @returns {string | null}
 */
function pullRequestLink(knob, number) {
  if (typeof knob === 'string') return knob
  return knob ? `${REPOSITORY}/pull/${100 + number}` : null
}
