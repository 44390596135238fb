import { cancellation, errorMessage } from '../../base/errors.js'
import type { Runtime } from '../../base/runtime.js'
import { forLog } from '../../base/sanitize.js'
import { POLL, type MintlifyApi } from './api.js'
import { mergeJob, type Job } from './job.js'
import { send, type Schedule } from './poll.js'

/** Reads a job once, as the request policy retries a read, keeping the id it was asked for. */
export async function readJob(
  api: MintlifyApi,
  id: string,
  schedule: Schedule,
  runtime: Runtime
): Promise<Job> {
  const answer = await send(POLL, (ms, signal) => api.getJob(id, ms, signal), schedule, runtime)
  return mergeJob({ id }, answer)
}

/** Reads a job a record names within `schedule`; undefined, the reason logged, when it cannot. */
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
