/**
 * Preview deployments (Mintlify's v1 REST API, the same admin key): asking for a preview of a
 * docs branch, and following the deployment's update status to its end. The routes, the shape
 * of their answers, what a failed request means (pure: `afterRequestFailure`), and the two loops.
 *
 * As published (Mintlify's `openapi.json`, "Trigger preview deployment" and "Get update status",
 * 2026-08-21): `POST /v1/project/preview/{projectId}` with `{branch}` answers 202
 * `{statusId, previewUrl}` and redeploys a branch that has a preview; 400 without a branch; 403
 * when the plan has no previews; 5 requests a minute per organization.
 * `GET /v1/project/update-status/{statusId}` answers `{status: queued | in_progress | success |
 * failure, summary, …}`. The POST has no idempotency key, so an answer that does not prove
 * nothing was done (a 5xx, no answer) is never followed by a second request.
 */
import { z } from 'zod'
import { ApiError, DeadlineError, cancellation, errorMessage, type Failure } from '../errors.js'
import { pathSegment } from '../http.js'
import type { Runtime } from '../runtime.js'
import { forLog } from '../sanitize.js'
import { isSiteLinkShape } from '../trigger/ref.js'
import { describeRedirect, quote, serverText } from './explain.js'
import { inShape } from './job.js'
import {
  MAX_ATTEMPTS,
  READ,
  decide,
  mayRetry,
  parseRetryAfter,
  type RequestKind
} from './policy.js'
import { lastCheckAt, REQUEST_TIMEOUT_MS, type Schedule } from './poll.js'
import { backoffDelay, pollDelay, type PollPace } from './schedule.js'
import type { Transport } from './transport.js'

/** Reading a deployment's status: harmless to repeat. */
export const STATUS_READ: RequestKind = { ...READ, action: 'read the preview deployment status' }

/** What a preview request's answer names: each field only in its one accepted shape. */
export interface Deployment {
  /** The update status to follow, when it can be an id (`jobIdProblem`): opaque, as a job's. */
  readonly statusId?: string
  /** The preview's address, when it is a docs site link in the strict shape (`isSiteLinkShape`). */
  readonly previewUrl?: string
  /** The answer gave a `previewUrl` out of that shape: it is never written anywhere. */
  readonly urlRefused?: boolean
}

/** The update statuses the platform documents; any other is taken as still building. */
export const DEPLOY_STATUSES = ['queued', 'in_progress', 'success', 'failure'] as const

export type DeployStatus = (typeof DEPLOY_STATUSES)[number]

/** A deployment's update status, as far as the action reads it. */
export interface UpdateStatus {
  /** One of `DEPLOY_STATUSES`; undefined when the answer gave none the action knows. */
  readonly status?: DeployStatus
  /** The status as given, for the log, when it is not one the action knows. */
  readonly unknown?: string
  /** The platform's summary, already redacted by the transport; words cut it and make it inert. */
  readonly summary?: string
}

/**
 * What the run knows of its preview, for every sink. `building` is requested and not seen to end
 * (queued, in progress, or not read before the deadline).
 */
export interface Preview {
  readonly state:
    | 'would-request'
    | 'building'
    | 'ready'
    | 'failed'
    | 'not-requested'
    | 'uncertain'
    /** The docs pull request's head is the commit the last preview was requested for. */
    | 'unchanged'
  /** The branch asked for (or that would be). */
  readonly branch?: string
  /** The preview's address, in the strict shape only. */
  readonly url?: string
  readonly urlRefused?: boolean
  /** The platform's summary of a failed build. */
  readonly summary?: string
  /** Why no preview was requested, or why its fate is unknown. */
  readonly cause?: PreviewCause
  /** The docs pull request's head commit the preview is of (`unchanged`: the earlier one). */
  readonly sha?: string
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

/** A preview request that failed; `deployment` is what its body named, if anything. */
export class PreviewError extends ApiError {
  override name = 'PreviewError'
  /** The server's own words, quoted and cut. */
  readonly server: string
  readonly deployment: Deployment | undefined
  constructor(
    message: string,
    failure: Failure,
    requestId?: string,
    server = '',
    deployment?: Deployment
  ) {
    super(message, failure, requestId)
    this.server = server
    this.deployment = deployment
  }
}

export interface PreviewApi {
  /** Asks for a preview deployment of `branch`. Throws a `PreviewError` for any other answer. */
  request(branch: string, timeoutMs: number, signal: AbortSignal): Promise<Deployment>
  /** Reads the update status `statusId`. */
  status(statusId: string, timeoutMs: number, signal: AbortSignal): Promise<UpdateStatus>
}

/**
 * A field the platform documents as a string: any other value reads as absent, as in `job.ts`.
 */
const text = z.string().nullish().catch(undefined)

const DeploymentSchema = z.looseObject({ statusId: text, previewUrl: text })

const StatusSchema = z.looseObject({ status: text, summary: text })

/** The deployment an answer names, each field in its shape; undefined when it names none. */
export function parseDeployment(body: unknown): Deployment | undefined {
  const parsed = DeploymentSchema.safeParse(body)
  if (!parsed.success || Array.isArray(body)) return undefined
  const { statusId, previewUrl } = parsed.data
  const id = statusId && inShape('id', statusId) ? statusId : undefined
  const url = previewUrl && isSiteLinkShape(previewUrl) ? previewUrl : undefined
  if (!statusId && !previewUrl) return undefined
  return {
    ...(id ? { statusId: id } : {}),
    ...(url ? { previewUrl: url } : {}),
    ...(previewUrl && !url ? { urlRefused: true } : {})
  }
}

/** An update status answer as the action reads it; undefined when it is no object. */
export function parseStatus(body: unknown): UpdateStatus | undefined {
  if (Array.isArray(body)) return undefined
  const parsed = StatusSchema.safeParse(body)
  if (!parsed.success) return undefined
  const { status, summary } = parsed.data
  const known = DEPLOY_STATUSES.find((s) => s === status)
  return {
    ...(known ? { status: known } : status ? { unknown: status } : {}),
    ...(summary ? { summary } : {})
  }
}

function json(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The preview routes of one project, over `transport` (the agent API's origin and key). */
export function createPreviewApi(
  transport: Transport,
  projectId: string,
  now: () => number = Date.now
): PreviewApi {
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
      const { status, requestId } = answer
      const body = json(answer.text)
      if (status >= 300 && status < 400) {
        const message = describeRedirect(status, answer.headers.get('location'))
        throw new PreviewError(message, { kind: 'http', status }, requestId)
      }
      if (status < 200 || status >= 300) {
        const server = serverText(answer.text)
        const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'), now())
        throw new PreviewError(
          `Mintlify answered HTTP ${status} to the preview request` +
            (server ? `: ${server}` : '.'),
          { kind: 'http', status, retryAfterMs },
          requestId,
          server,
          parseDeployment(body)
        )
      }
      const deployment = parseDeployment(body)
      if (!deployment?.statusId && !deployment?.previewUrl && !deployment?.urlRefused) {
        throw new PreviewError(
          `Mintlify answered HTTP ${status} to the preview request with a body that is not a ` +
            'deployment' +
            (answer.text.trim() ? `: ${quote(answer.text, 120)}` : ' (empty body)'),
          { kind: 'invalid-response' },
          requestId
        )
      }
      return deployment
    },
    async status(statusId, timeoutMs, signal) {
      const path = `/v1/project/update-status/${pathSegment(statusId)}`
      const answer = await transport.send('GET', path, undefined, timeoutMs, signal)
      const { status, requestId } = answer
      if (status < 200 || status >= 300) {
        const server = serverText(answer.text)
        const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'), now())
        throw new ApiError(
          `Mintlify answered HTTP ${status} to the preview status read` +
            (server ? `: ${server}` : '.'),
          { kind: 'http', status, retryAfterMs },
          requestId
        )
      }
      const read = parseStatus(json(answer.text))
      if (!read) {
        throw new ApiError(
          `Mintlify answered HTTP ${status} to the preview status read with a body that is ` +
            'not a status.',
          { kind: 'invalid-response' },
          requestId
        )
      }
      return read
    }
  }
}

/** What to do after a failed preview request. */
export type AfterFailure =
  | { readonly retry: true; readonly waitMs: number }
  | { readonly retry: false; readonly cause: PreviewCause }

/** Where a failed preview request stands, on the run's clock. */
export interface Attempt {
  /** Failed attempts so far, this one included. */
  readonly failures: number
  readonly now: number
  readonly deadline: number
  readonly pace: PollPace
  readonly random: () => number
}

/**
 * The preview request as the request policy sees it: not idempotent (a second request deploys
 * again), so it passes the same gate as a create or a message (`mayRetry`).
 */
export const PREVIEW_REQUEST: RequestKind = {
  action: 'request the preview deployment',
  idempotent: false,
  duplicate: 'deploying twice',
  uncertain: 'the preview may or may not have been requested',
  before: '',
  noEffect: 'Nothing was deployed'
}

/**
 * After a preview request failed, whether it is sent again, and when; or why it stops. Pure.
 * It is sent again only when the request policy's gate lets a request that is not idempotent go
 * again (`mayRetry`: it never left the runner, or the platform's rate limit refused it), after
 * the wait `Retry-After` asks for (or the backoff), at most `MAX_ATTEMPTS` times, and only when
 * that wait ends before the deadline. A 403 is the plan, another 4xx a refusal; a 5xx, no answer
 * or an unreadable answer may have started a deployment, so it is never repeated.
 */
export function afterRequestFailure(failure: Failure, attempt: Attempt): AfterFailure {
  const left = attempt.deadline - attempt.now
  const backoff = Math.max(
    attempt.pace.initialMs / 10,
    backoffDelay(attempt.failures - 1, attempt.pace.initialMs, attempt.pace.maxMs, attempt.random)
  )
  if (mayRetry(PREVIEW_REQUEST, failure)) {
    const limited = failure.kind === 'http'
    const waitMs = (limited ? failure.retryAfterMs : undefined) ?? backoff
    const stop: PreviewCause = limited
      ? { kind: 'rate-limit', waitMs: failure.retryAfterMs, leftMs: Math.max(0, left) }
      : { kind: 'unsent', message: 'no time is left to send it again' }
    return attempt.failures < MAX_ATTEMPTS && waitMs < left
      ? { retry: true, waitMs: Math.round(waitMs) }
      : { retry: false, cause: stop }
  }
  switch (failure.kind) {
    case 'unsent':
      return { retry: false, cause: { kind: 'unsent', message: 'the API cannot be reached' } }
    case 'lost':
    case 'invalid-response':
      return { retry: false, cause: { kind: 'unanswered', message: '' } }
    case 'http': {
      const { status } = failure
      if (status >= 500) return { retry: false, cause: { kind: 'unanswered', message: '' } }
      if (status === 403) return { retry: false, cause: { kind: 'plan', server: '' } }
      return { retry: false, cause: { kind: 'refused', status, server: '' } }
    }
  }
}

/** The result of asking for a preview: the deployment, or why there is none to follow. */
export type Requested =
  | { readonly deployment: Deployment; readonly cause?: undefined }
  | { readonly cause: PreviewCause; readonly deployment?: Deployment }

/**
 * Asks for a preview of `branch`, sending the request again only as `afterRequestFailure`
 * allows, within `schedule`'s deadline. Never throws for a failed request: the cause says why.
 */
export async function requestPreview(
  api: PreviewApi,
  branch: string,
  schedule: Schedule,
  runtime: Runtime
): Promise<Requested> {
  for (let failures = 1; ; failures++) {
    if (runtime.signal.aborted) throw cancellation(runtime.signal)
    const left = schedule.deadline - runtime.now()
    if (left <= 0) {
      return { cause: { kind: 'unsent', message: "the step's timeout came first" } }
    }
    try {
      const timeout = Math.max(1, Math.min(REQUEST_TIMEOUT_MS, left))
      return { deployment: await api.request(branch, timeout, runtime.signal) }
    } catch (error: unknown) {
      if (!(error instanceof ApiError)) throw error
      const next = afterRequestFailure(error.failure, {
        failures,
        now: runtime.now(),
        deadline: schedule.deadline,
        pace: schedule,
        random: runtime.random
      })
      if (!next.retry) {
        const server = error instanceof PreviewError ? error.server : ''
        const deployment = error instanceof PreviewError ? error.deployment : undefined
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
  switch (cause.kind) {
    case 'plan':
    case 'refused':
      return { ...cause, server }
    case 'unanswered':
      return { ...cause, message }
    case 'unsent':
      return { ...cause, message: `${message} (${cause.message})` }
    default:
      return cause
  }
}

/** How following a deployment ended: its last status read, and whether it ended. */
export interface Followed {
  readonly last?: UpdateStatus
  /** Why the last read failed, when the follow stopped on a failure. */
  readonly unread?: string
}

/**
 * Follows the update status `statusId` until it is `success` or `failure`, on the job's poll
 * schedule (`pollDelay`) and within its deadline: when the next read would come after the last
 * check's time (`lastCheckAt`), that read is made then instead. A failed read is handled as the
 * request policy says for a read. Never throws for a failed read.
 */
export async function followPreview(
  api: PreviewApi,
  statusId: string,
  schedule: Schedule,
  runtime: Runtime,
  onStatus: (status: UpdateStatus) => void = () => undefined
): Promise<Followed> {
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
    const left = schedule.deadline - now()
    if (left <= 0) return { last }
    try {
      const timeout = Math.max(
        1,
        Math.min(REQUEST_TIMEOUT_MS, (final ? schedule.deadline : lastAt) - now())
      )
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
      failures++
      const decision = decide(STATUS_READ, error, {
        failures,
        now: now(),
        deadline: schedule.deadline,
        pace: schedule,
        random: runtime.random
      })
      if (!decision.retry) {
        const outOfTime = decision.error instanceof DeadlineError
        if (!outOfTime) return { last, unread: errorMessage(error) }
        wait = Math.max(0, lastAt - now())
      } else wait = decision.waitMs
      runtime.log.debug(`Reading the preview status failed: ${errorMessage(error)}`)
    }
  }
}
