// The agent job API (v2): its routes, each request's kind for the policy, and its answers.
import { API_KEYS_PAGE, ApiError, type Failure } from '../../base/errors.js'
import { pathSegment } from '../../base/http.js'
import {
  describeHttpFailure,
  describeRedirect,
  json,
  quote,
  serverText,
  type Operation
} from './explain.js'
import { parseJob, type Job } from './job.js'
import { READ, parseRetryAfter, type RequestKind } from './policy.js'
import type { Answer, Transport } from './transport.js'

/** The Mintlify dashboard, where the agent's jobs are seen: the API keys page's origin. */
export const DASHBOARD = new URL(API_KEYS_PAGE).origin

/** Creating a job: not idempotent, and the API offers no idempotency key. */
export const CREATE: RequestKind = {
  action: 'create the agent job',
  idempotent: false,
  duplicate: 'starting a duplicate job',
  uncertain: 'the job may or may not have been created',
  before:
    `Check the Mintlify dashboard (${DASHBOARD}) for a job that may exist before running this ` +
    'step again.',
  noEffect: 'No job was created'
}

/** Sending a follow-up message: a repeat would repeat the instructions. */
export const MESSAGE: RequestKind = {
  action: 'send the follow-up message',
  idempotent: false,
  duplicate: 'sending the instructions twice',
  uncertain: 'the message may or may not have been delivered',
  before: `Check the job in the Mintlify dashboard (${DASHBOARD}) before sending the message again.`,
  noEffect: 'The message was not delivered'
}

export const POLL: RequestKind = { ...READ, action: 'read the agent job' }

export interface MintlifyApi {
  createJob(prompt: string, timeoutMs: number, signal: AbortSignal): Promise<Job>
  getJob(jobId: string, timeoutMs: number, signal: AbortSignal): Promise<Job>
  sendMessage(jobId: string, prompt: string, timeoutMs: number, signal: AbortSignal): Promise<Job>
}

/** Why an answer is not a 2xx: a redirect (never followed) or a status, and the server's words. */
export interface Refused {
  readonly message: string
  readonly failure: Failure
  readonly server: string
}

/** How `answer` refused the request, in `words` around the server's own; undefined for a 2xx. */
export function refusedBy(
  answer: Answer,
  now: number,
  words: (server: string) => string
): Refused | undefined {
  const { status } = answer
  if (status >= 200 && status < 300) return undefined
  if (status >= 300 && status < 400) {
    const message = describeRedirect(status, answer.headers.get('location'))
    return { message, failure: { kind: 'http', status }, server: '' }
  }
  const server = serverText(answer.text)
  const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'), now)
  return { message: words(server), failure: { kind: 'http', status, retryAfterMs }, server }
}

/** The error for a 2xx whose body is not `what` was asked for. */
export function invalidBody(what: string, answer: Answer, said: string): ApiError {
  const body = answer.text.trim() ? `: ${quote(answer.text, 120)}` : ' (empty body)'
  return new ApiError(
    `${said} with a body that is not ${what}${body}`,
    { kind: 'invalid-response' },
    answer.requestId
  )
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
    path: string,
    body: string | undefined,
    timeoutMs: number,
    signal: AbortSignal,
    jobId?: string
  ): Promise<Job> {
    const method = body === undefined ? 'GET' : 'POST'
    const answer = await transport.send(method, path, body, timeoutMs, signal)
    const refused = refusedBy(answer, now(), (server) =>
      describeHttpFailure(operation, answer.status, server, { projectId, jobId })
    )
    if (refused) throw new ApiError(refused.message, refused.failure, answer.requestId)
    const job = parseJob(json(answer.text))
    if (!job) throw invalidBody('a job', answer, `The API answered HTTP ${answer.status}`)
    return job
  }

  const jobPath = (jobId: string) => `${projectPath}/job/${pathSegment(jobId)}`
  return {
    createJob: (prompt, timeoutMs, signal) =>
      request('create', `${projectPath}/job`, JSON.stringify({ prompt }), timeoutMs, signal),
    getJob: (jobId, timeoutMs, signal) =>
      request('poll', jobPath(jobId), undefined, timeoutMs, signal, jobId),
    sendMessage: (jobId, prompt, timeoutMs, signal) =>
      request(
        'message',
        `${jobPath(jobId)}/message`,
        JSON.stringify({ prompt }),
        timeoutMs,
        signal,
        jobId
      )
  }
}
