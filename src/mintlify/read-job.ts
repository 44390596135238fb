/** Reading a job once, through the Mintlify request policy. */
import { mergeJob, type Job } from './job.js'
import { POLL, type MintlifyApi } from './api.js'
import { send, type Schedule } from './poll.js'
import type { Runtime } from '../runtime.js'

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
