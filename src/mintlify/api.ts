/**
 * The agent job API (v2): its routes, what each request is for the request policy, and the
 * parsing of answers into jobs. One call per request; the loops in `poll.ts` decide repeats.
 */
import { API_KEYS_PAGE, ApiError } from '../errors.js'
import {
  describeHttpFailure,
  describeRedirect,
  quote,
  serverText,
  type Operation
} from './explain.js'
import { parseJob, type Job } from './job.js'
import { READ, parseRetryAfter, type RequestKind } from './policy.js'
import type { Transport } from './transport.js'
import { pathSegment } from '../http.js'

/**
 * The Mintlify dashboard, where the agent's jobs are seen: the origin of the API keys page that
 * Mintlify's API reference links as "in your dashboard".
 */
export const DASHBOARD = new URL(API_KEYS_PAGE).origin

const DASHBOARD_CHECK =
  `Check the Mintlify dashboard (${DASHBOARD}) for a job that may exist before running this ` +
  'step again.'

/** Creating a job: not idempotent, and the API offers no idempotency key. */
export const CREATE: RequestKind = {
  action: 'create the agent job',
  idempotent: false,
  duplicate: 'starting a duplicate job',
  uncertain: 'the job may or may not have been created',
  before: DASHBOARD_CHECK,
  noEffect: 'No job was created'
}

/** Sending a follow-up message: not idempotent either; a repeat would repeat the instructions. */
export const MESSAGE: RequestKind = {
  action: 'send the follow-up message',
  idempotent: false,
  duplicate: 'sending the instructions twice',
  uncertain: 'the message may or may not have been delivered',
  before: `Check the job in the Mintlify dashboard (${DASHBOARD}) before sending the message again.`,
  noEffect: 'The message was not delivered'
}

/** Reading a job: harmless to repeat. */
export const POLL: RequestKind = { ...READ, action: 'read the agent job' }

export interface MintlifyApi {
  /** Starts an agent job with `prompt`. */
  createJob(prompt: string, timeoutMs: number, signal: AbortSignal): Promise<Job>
  /** Reads the job with id `jobId`. */
  getJob(jobId: string, timeoutMs: number, signal: AbortSignal): Promise<Job>
  /** Sends `prompt` to the job with id `jobId` as a follow-up message. */
  sendMessage(jobId: string, prompt: string, timeoutMs: number, signal: AbortSignal): Promise<Job>
}

/** The API of one project, over `transport`. */
export function createMintlifyApi(
  transport: Transport,
  projectId: string,
  now: () => number = Date.now
): MintlifyApi {
  const projectPath = `/v2/agent/${pathSegment(projectId)}`

  async function request(
    operation: Operation,
    method: 'GET' | 'POST',
    path: string,
    body: string | undefined,
    timeoutMs: number,
    signal: AbortSignal,
    jobId?: string
  ): Promise<Job> {
    const answer = await transport.send(method, path, body, timeoutMs, signal)
    const { status, requestId } = answer
    if (status >= 300 && status < 400) {
      throw new ApiError(
        describeRedirect(status, answer.headers.get('location')),
        { kind: 'http', status },
        requestId
      )
    }
    if (status < 200 || status >= 300) {
      const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'), now())
      throw new ApiError(
        describeHttpFailure(operation, status, serverText(answer.text), { projectId, jobId }),
        { kind: 'http', status, retryAfterMs },
        requestId
      )
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(answer.text)
    } catch {
      parsed = undefined
    }
    const job = parseJob(parsed)
    if (!job) {
      throw new ApiError(
        `The API answered HTTP ${status} with a body that is not a job` +
          (answer.text.trim() ? `: ${quote(answer.text, 120)}` : ' (empty body)'),
        { kind: 'invalid-response' },
        requestId
      )
    }
    return job
  }

  return {
    createJob(prompt, timeoutMs, signal) {
      const body = JSON.stringify({ prompt })
      return request('create', 'POST', `${projectPath}/job`, body, timeoutMs, signal)
    },
    getJob(jobId, timeoutMs, signal) {
      const path = `${projectPath}/job/${pathSegment(jobId)}`
      return request('poll', 'GET', path, undefined, timeoutMs, signal, jobId)
    },
    sendMessage(jobId, prompt, timeoutMs, signal) {
      const path = `${projectPath}/job/${pathSegment(jobId)}/message`
      const body = JSON.stringify({ prompt })
      return request('message', 'POST', path, body, timeoutMs, signal, jobId)
    }
  }
}
