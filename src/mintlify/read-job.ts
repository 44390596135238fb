/** Reading a job once, through the Mintlify request policy. */
import { cancellation, errorMessage } from '../errors.js'
import type { Runtime } from '../runtime.js'
import { forLog } from '../sanitize.js'
import { POLL, type MintlifyApi } from './api.js'
import { mergeJob, type Job } from './job.js'
import { send, type Schedule } from './poll.js'

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
 * Reads a job a record names, within `schedule` (the lookup budget): the job, or undefined when it
 * cannot be read in that time, with the reason logged. A cancellation of the step stays one.
 */
export async function tryReadJob(
  api: MintlifyApi,
  id: string,
  schedule: Schedule,
  runtime: Runtime
): Promise<Job | undefined> {
  try {
    return await readJob(api, id, schedule, runtime)
  } catch (error: unknown) {
    if (runtime.signal.aborted) throw cancellation(runtime.signal)
    const why = forLog(errorMessage(error), 300)
    runtime.log.info(`Agent job ${forLog(id, 100)} could not be read: ${why}`)
    return undefined
  }
}
