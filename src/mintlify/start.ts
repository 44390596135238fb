/**
 * Starting the work on the platform: create the job, send the follow-up message, or read the job
 * to attach to, through the Mintlify request policy.
 */
import { ApiError, cancellation, errorMessage } from '../errors.js'
import type { Settings } from '../inputs.js'
import { mergeJob, type Job } from './job.js'
import { CREATE, MESSAGE, POLL, type MintlifyApi } from './api.js'
import type { Plan } from '../plan.js'
import { send, type Schedule } from './poll.js'
import type { Mode } from '../run.js'
import type { Reporter } from '../publish/report.js'
import type { Runtime } from '../runtime.js'
import { forLog } from '../sanitize.js'

/**
 * Whether the API refused a follow-up message in a way that says the job cannot take one: any
 * 4xx but those about the key (401, 403), time (408) and rate (429), which a new job would meet
 * too.
 */
function cannotGoOn(error: unknown): error is ApiError & { failure: { status: number } } {
  if (!(error instanceof ApiError) || error.failure.kind !== 'http') return false
  const { status } = error.failure
  return status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status)
}

/**
 * Starts the job, sends the follow-up message, or reads the job to attach to, and publishes its
 * id. A job recorded on the pull request that can no longer take a message (see `cannotGoOn`) is
 * replaced by a new one. Returns the job as that request's answer shows it (a created job may lack an id).
 */
export async function begin(
  plan: Plan,
  settings: Settings,
  prompt: string,
  api: MintlifyApi,
  schedule: Schedule,
  runtime: Runtime,
  reporter: Reporter
): Promise<{ job: Job; mode: Mode; note?: string }> {
  const where = `project ${settings.projectId} at ${settings.baseUrl.origin}`
  const create = async (note?: string) => {
    reporter.info(`Starting an agent job in ${where}.`)
    const created = await send(
      CREATE,
      (timeoutMs, signal) => api.createJob(prompt, timeoutMs, signal),
      schedule,
      runtime
    )
    if (created.id) reporter.jobCreated(created)
    return { job: created, mode: 'create' as const, note }
  }
  if (plan.mode === 'create') return create()

  const id = plan.jobId
  // The id is known before any request: publish it now, so it survives whatever happens next.
  if (!plan.reusingFrom) reporter.jobId(id)
  if (plan.mode === 'follow-up') {
    reporter.info(`Sending a follow-up message to agent job ${forLog(id, 100)} in ${where}.`)
    let answer: Job
    try {
      answer = await send(
        MESSAGE,
        (timeoutMs, signal) => api.sendMessage(id, prompt, timeoutMs, signal),
        schedule,
        runtime
      )
    } catch (error: unknown) {
      if (!plan.reusingFrom || !cannotGoOn(error)) throw error
      const note =
        `Agent job ${id} recorded on this pull request could not take a message ` +
        `(HTTP ${error.failure.status}), so a new job was started.`
      reporter.info(`${forLog(note, 300)} ${error.message}`)
      return create(note)
    }
    const job = mergeJob({ id }, answer)
    reporter.jobCreated(job, 'Sent a follow-up message to')
    return { job, mode: 'follow-up' }
  }
  reporter.info(`Attaching to agent job ${forLog(id, 100)} in ${where}; nothing is sent to it.`)
  const job = await readJob(api, id, schedule, runtime)
  reporter.jobCreated(job, 'Attached to')
  return { job, mode: 'attach' }
}

/**
 * Reads a job once, through the request policy (retried as a read may be), keeping the id it
 * was asked for whatever the answer leaves out. Throws what the request threw.
 */
export async function readJob(
  api: MintlifyApi,
  id: string,
  schedule: Schedule,
  runtime: Runtime
): Promise<Job> {
  const answer = await send(POLL, (ms, signal) => api.getJob(id, ms, signal), schedule, runtime)
  return mergeJob({ id }, answer)
}

/**
 * Reads a job recorded on GitHub before the plan, within `schedule` (the lookup budget): the job,
 * or undefined when it cannot be read in that time. A cancellation of the step stays one.
 */
export async function readRecordedJob(
  api: MintlifyApi,
  id: string,
  schedule: Schedule,
  runtime: Runtime
): Promise<Job | undefined> {
  try {
    return await readJob(api, id, schedule, runtime)
  } catch (error: unknown) {
    if (runtime.signal.aborted) throw cancellation(runtime.signal)
    runtime.log.info(`Agent job ${forLog(id, 100)} could not be read: ${errorMessage(error)}`)
    return undefined
  }
}
