// Preview deployments on Mintlify's v1 REST API, as its openapi.json gives them (2026-08-21):
// `POST /v1/project/preview/{projectId}` `{branch}` answers 202 `{statusId, previewUrl}`, 400, or
// 403 for a plan without previews, 5 a minute; `GET /v1/project/update-status/{statusId}` answers
// `{status, summary}`. The POST has no idempotency key, so it passes the gate of `mayRetry`.
import { z } from 'zod'
import {
  ApiError,
  DeadlineError,
  cancellation,
  errorMessage,
  type Failure
} from '../../base/errors.js'
import { pathSegment } from '../../base/http.js'
import type { Runtime } from '../../base/runtime.js'
import { forLog } from '../../base/sanitize.js'
import { isSiteLinkShape } from '../../given/ref.js'
import { invalidBody, refusedBy, type Refused } from './api.js'
import { json } from './explain.js'
import { inShape, stringField } from './job.js'
import { MAX_ATTEMPTS, READ, decide, mayRetry, type RequestKind, type Situation } from './policy.js'
import { lastCheckAt, requestTimeout, situation, type Schedule } from './poll.js'
import { pollDelay, retryDelay } from './schedule.js'
import type { Transport } from './transport.js'

export const PREVIEW_REQUEST: RequestKind = {
  action: 'request the preview deployment',
  idempotent: false,
  duplicate: 'deploying twice',
  uncertain: 'the preview may or may not have been requested',
  before: '',
  noEffect: 'Nothing was deployed'
}

/** What a preview request's answer names, each field only in its one accepted shape. */
export interface Deployment {
  readonly statusId?: string
  readonly previewUrl?: string
  /** The answer gave a `previewUrl` out of the strict shape: it is written nowhere. */
  readonly urlRefused?: boolean
}

/** The update statuses the platform documents; any other is taken as still building. */
const DEPLOY_STATUSES = ['queued', 'in_progress', 'success', 'failure'] as const

export interface UpdateStatus {
  readonly status?: (typeof DEPLOY_STATUSES)[number]
  /** The status as given, for the log, when it is not one the action knows. */
  readonly unknown?: string
  readonly summary?: string
}

/** Why a preview was not requested, or may or may not have been. */
export type PreviewCause =
  /** 403: the plan has no preview deployments (the job's own POSTs went through with this key). */
  | { readonly kind: 'plan'; readonly server: string }
  /** 429: the wait asked for (when given) is longer than the time left. */
  | { readonly kind: 'rate-limit'; readonly waitMs?: number; readonly leftMs: number }
  /** Another refusal (400, 404, 401): nothing was done. */
  | { readonly kind: 'refused'; readonly status: number; readonly server: string }
  /** A 5xx, no answer, or an answer that is not a deployment, and no status id to ask. */
  | { readonly kind: 'unanswered'; readonly message: string }
  /** The request could not be sent in the time left, or never left the runner. */
  | { readonly kind: 'unsent'; readonly message: string }
  /** The job's branch and the docs pull request's head branch differ, or neither is known. */
  | { readonly kind: 'branch'; readonly job?: string; readonly pull?: string }

/** A preview request that failed, with the server's words and the deployment its body named. */
class PreviewError extends ApiError {
  override name = 'PreviewError'
  readonly server: string
  readonly deployment: Deployment | undefined
  constructor(refused: Refused, requestId?: string, deployment?: Deployment) {
    super(refused.message, refused.failure, requestId)
    this.server = refused.server
    this.deployment = deployment
  }
}

export interface PreviewApi {
  /** Asks for a preview deployment of `branch`. Throws a `PreviewError` for any other answer. */
  request(branch: string, timeoutMs: number, signal: AbortSignal): Promise<Deployment>
  status(statusId: string, timeoutMs: number, signal: AbortSignal): Promise<UpdateStatus>
}

const DeploymentSchema = z.object({ statusId: stringField, previewUrl: stringField })
const StatusSchema = z.object({ status: stringField, summary: stringField })

/** The deployment an answer names, each field in its one shape; undefined when it names none. */
export function parseDeployment(body: unknown): Deployment | undefined {
  const parsed = DeploymentSchema.safeParse(body)
  if (!parsed.success || Array.isArray(body)) return undefined
  const { statusId, previewUrl } = parsed.data
  const deployment = {
    ...(statusId && inShape('id', statusId) ? { statusId } : {}),
    ...(previewUrl && isSiteLinkShape(previewUrl) ? { previewUrl } : {}),
    ...(previewUrl && !isSiteLinkShape(previewUrl) ? { urlRefused: true } : {})
  }
  return Object.keys(deployment).length > 0 ? deployment : undefined
}

/** An update status answer as the action reads it; undefined when it is no object. */
export function parseStatus(body: unknown): UpdateStatus | undefined {
  const parsed = StatusSchema.safeParse(body)
  if (!parsed.success || Array.isArray(body)) return undefined
  const { status, summary } = parsed.data
  const known = DEPLOY_STATUSES.find((s) => s === status)
  return {
    ...(known ? { status: known } : status ? { unknown: status } : {}),
    ...(summary ? { summary } : {})
  }
}

/** The preview routes of one project, over `transport` (the agent API's origin and key). */
export function createPreviewApi(
  transport: Transport,
  projectId: string,
  now: () => number = Date.now
): PreviewApi {
  const words = (said: string) => (server: string) => said + (server ? `: ${server}` : '.')
  return {
    async request(branch, timeoutMs, signal) {
      const path = `/v1/project/preview/${pathSegment(projectId)}`
      const answer = await transport.send(
        'POST',
        path,
        JSON.stringify({ branch }),
        timeoutMs,
        signal
      )
      const said = `Mintlify answered HTTP ${answer.status} to the preview request`
      const body = json(answer.text)
      const refused = refusedBy(answer, now(), words(said))
      if (refused) {
        const named = answer.status >= 400 ? parseDeployment(body) : undefined
        throw new PreviewError(refused, answer.requestId, named)
      }
      const deployment = parseDeployment(body)
      if (!deployment) throw invalidBody('a deployment', answer, said)
      return deployment
    },
    async status(statusId, timeoutMs, signal) {
      const path = `/v1/project/update-status/${pathSegment(statusId)}`
      const answer = await transport.send('GET', path, undefined, timeoutMs, signal)
      const said = `Mintlify answered HTTP ${answer.status} to the preview status read`
      const refused = refusedBy(answer, now(), words(said))
      if (refused) throw new ApiError(refused.message, refused.failure, answer.requestId)
      const read = parseStatus(json(answer.text))
      if (!read) throw invalidBody('a status', answer, said)
      return read
    }
  }
}

type AfterFailure =
  | { readonly retry: true; readonly waitMs: number }
  | { readonly retry: false; readonly cause: PreviewCause }

/**
 * After a preview request failed: sent again only through the gate (`mayRetry`), after the wait
 * `Retry-After` asks for or the backoff, at most `MAX_ATTEMPTS` times and within the deadline; or
 * why it stops. A 5xx or no readable answer may have started a deployment. Pure.
 */
export function afterRequestFailure(failure: Failure, attempt: Situation): AfterFailure {
  const left = attempt.deadline - attempt.now
  const backoff = retryDelay(attempt.failures, attempt.pace, attempt.random)
  const asked = failure.kind === 'http' ? failure.retryAfterMs : undefined
  const waitMs = asked ?? backoff
  const again = mayRetry(PREVIEW_REQUEST, failure)
  if (again && attempt.failures < MAX_ATTEMPTS && waitMs < left) {
    return { retry: true, waitMs: Math.round(waitMs) }
  }
  const unsent = again ? 'no time is left to send it again' : 'the API cannot be reached'
  const cause: PreviewCause =
    failure.kind === 'unsent'
      ? { kind: 'unsent', message: unsent }
      : failure.kind !== 'http' || failure.status >= 500
        ? { kind: 'unanswered', message: '' }
        : again
          ? { kind: 'rate-limit', waitMs: asked, leftMs: Math.max(0, left) }
          : failure.status === 403
            ? { kind: 'plan', server: '' }
            : { kind: 'refused', status: failure.status, server: '' }
  return { retry: false, cause }
}

type Requested =
  | { readonly deployment: Deployment; readonly cause?: undefined }
  | { readonly cause: PreviewCause; readonly deployment?: Deployment }

/** Asks for a preview of `branch`, again only as `afterRequestFailure` allows; failing, a cause. */
export async function requestPreview(
  api: PreviewApi,
  branch: string,
  schedule: Schedule,
  runtime: Runtime
): Promise<Requested> {
  for (let failures = 1; ; failures++) {
    if (runtime.signal.aborted) throw cancellation(runtime.signal)
    if (schedule.deadline <= runtime.now()) {
      return { cause: { kind: 'unsent', message: "the step's timeout came first" } }
    }
    try {
      const timeout = requestTimeout(runtime, schedule.deadline)
      return { deployment: await api.request(branch, timeout, runtime.signal) }
    } catch (error: unknown) {
      if (!(error instanceof ApiError)) throw error
      const next = afterRequestFailure(error.failure, situation(failures, schedule, runtime))
      if (!next.retry) {
        const { server = '', deployment } = error instanceof PreviewError ? error : {}
        return { cause: withWords(next.cause, error.message, server), deployment }
      }
      runtime.log.info(
        `${error.message} Nothing was deployed; asking again in ${Math.ceil(next.waitMs / 1000)}s.`
      )
      await runtime.sleep(next.waitMs, runtime.signal)
    }
  }
}

/** The cause with the server's words, and the failure's own message where the cause has one. */
function withWords(cause: PreviewCause, message: string, server: string): PreviewCause {
  if (cause.kind === 'plan' || cause.kind === 'refused') return { ...cause, server }
  if (cause.kind === 'unanswered') return { ...cause, message }
  if (cause.kind === 'unsent') return { ...cause, message: `${message} (${cause.message})` }
  return cause
}

/**
 * Follows the update status `statusId` to `success` or `failure` on the job's poll schedule, the
 * last read at `lastCheckAt`: its last status, and why the last read failed if it did.
 */
export async function followPreview(
  api: PreviewApi,
  statusId: string,
  schedule: Schedule,
  runtime: Runtime,
  onStatus: (status: UpdateStatus) => void = () => undefined
): Promise<{ last?: UpdateStatus; unread?: string }> {
  const { now } = runtime
  const lastAt = lastCheckAt(now(), schedule.deadline)
  const unknown = new Set<string>()
  let last: UpdateStatus | undefined
  let polls = 0
  let failures = 0
  let wait = 0
  let final = false
  for (;;) {
    if (final) return { last }
    if (now() + wait >= lastAt) {
      wait = Math.max(0, lastAt - now())
      final = true
    }
    if (wait > 0) await runtime.sleep(Math.round(wait), runtime.signal)
    if (schedule.deadline <= now()) return { last }
    try {
      const timeout = requestTimeout(runtime, final ? schedule.deadline : lastAt)
      const read = await api.status(statusId, timeout, runtime.signal)
      failures = 0
      polls++
      last = read
      onStatus(read)
      if (read.unknown !== undefined && !unknown.has(read.unknown)) {
        unknown.add(read.unknown)
        runtime.log.info(
          `The preview deployment reported a status this action does not know, ` +
            `"${forLog(read.unknown, 60)}"; taking it as still building.`
        )
      }
      if (read.status === 'success' || read.status === 'failure') return { last }
      // The first read is made at once; the waits after it are the job's, from the first.
      wait = pollDelay(polls - 1, schedule, runtime.random)
    } catch (error: unknown) {
      if (!(error instanceof ApiError)) throw error
      if (final) return { last, unread: errorMessage(error) }
      const kind = { ...READ, action: 'read the preview deployment status' }
      const decision = decide(kind, error, situation(++failures, schedule, runtime))
      if (decision.retry) wait = decision.waitMs
      else if (decision.error instanceof DeadlineError) wait = Math.max(0, lastAt - now())
      else return { last, unread: errorMessage(error) }
      runtime.log.debug(`Reading the preview status failed: ${errorMessage(error)}`)
    }
  }
}
