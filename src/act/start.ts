/** Starting the work on the platform as the plan says, through the Mintlify request policy. */
import { ApiError } from '../base/errors.js'
import type { Keep, Start } from '../run/decide/plan.js'
import type { Settings } from '../given/inputs.js'
import { CREATE, MESSAGE, type MintlifyApi } from '../clients/mintlify/api.js'
import { mergeJob, type Job } from '../clients/mintlify/job.js'
import { send } from '../clients/mintlify/poll.js'
import { readJob } from '../clients/mintlify/read-job.js'
import { refusedNote } from '../report/plan.js'
import type { Reporter } from '../report/sinks/report.js'
import type { Mode } from '../run/state.js'
import { forLog } from '../base/sanitize.js'
import type { Step } from '../run/step.js'

/**
 * Whether a refused follow-up says the job takes none: any 4xx but those about the key (401, 403),
 * time (408) and rate (429), which a new job would meet too.
 */
function cannotGoOn(error: unknown): error is ApiError & { failure: { status: number } } {
  if (!(error instanceof ApiError) || error.failure.kind !== 'http') return false
  const { status } = error.failure
  return status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status)
}

interface Begun {
  readonly job: Job
  readonly mode: Mode
  /** Why the job is not the planned one, for the status comment. */
  readonly note?: string
  /** The branch's record for a job that replaced a refused follow-up. */
  readonly keep?: Keep
}

/**
 * Creates the job, messages it or attaches to it, and publishes its id; a follow-up it refuses
 * becomes a new job when the plan says so. A created job may lack an id.
 */
export async function begin(
  plan: Start,
  prompt: string,
  api: MintlifyApi,
  run: { readonly settings: Settings; readonly step: Step; readonly report: Reporter }
): Promise<Begun> {
  const { settings, step, report } = run
  const schedule = step.time.schedule('job')
  const where = `project ${settings.projectId} at ${settings.baseUrl.origin}`
  const create = async (): Promise<Begun> => {
    report.info(`Starting an agent job in ${where}.`)
    const created = await send(
      CREATE,
      (timeoutMs, signal) => api.createJob(prompt, timeoutMs, signal),
      schedule,
      step
    )
    if (created.id) report.jobCreated(created)
    return { job: created, mode: 'create' }
  }
  if (plan.act === 'create') return create()

  const id = plan.jobId
  // The id is known before any request: publish it now, so it survives whatever happens next.
  if (!plan.reusingFrom) report.jobId(id)
  if (plan.act === 'follow-up') {
    report.info(`Sending a follow-up message to agent job ${forLog(id, 100)} in ${where}.`)
    let answer: Job
    try {
      answer = await send(
        MESSAGE,
        (timeoutMs, signal) => api.sendMessage(id, prompt, timeoutMs, signal),
        schedule,
        step
      )
    } catch (error: unknown) {
      if (!plan.fallback || !cannotGoOn(error)) throw error
      const note = refusedNote(plan, error.failure.status)
      report.info(`${forLog(note, 300)} ${error.message}`)
      return { ...(await create()), note, keep: plan.fallback.keep }
    }
    const job = mergeJob({ id }, answer)
    report.jobCreated(job, 'Sent a follow-up message to')
    return { job, mode: 'follow-up' }
  }
  report.info(`Attaching to agent job ${forLog(id, 100)} in ${where}; nothing is sent to it.`)
  const job = await readJob(api, id, schedule, step)
  report.jobCreated(job, 'Attached to')
  return { job, mode: 'attach' }
}
