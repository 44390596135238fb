/**
 * The failures the action knows how to explain. Each carries the message a user reads in the log,
 * written so that it says what went wrong and what to do about it.
 */

/** Where an admin API key is made, and where the project id is shown. */
export const API_KEYS_PAGE = 'https://app.mintlify.com/settings/organization/api-keys'

/** An input that cannot be used; raised before any request is sent. */
export class InputError extends Error {
  override name = 'InputError'
  readonly input: string
  constructor(input: string, message: string) {
    super(`Input "${input}": ${message}`)
    this.input = input
  }
}

/**
 * Every input that cannot be used, found in one reading of them all, so that one run names each
 * of them; raised before any request is sent.
 */
export class InputErrors extends Error {
  override name = 'InputErrors'
  readonly errors: readonly Error[]
  constructor(errors: readonly Error[]) {
    super(
      `${errors.length} inputs cannot be used:\n` +
        errors.map((error) => `- ${error.message}`).join('\n')
    )
    this.errors = errors
  }

  /** The names of the inputs at fault, in the order they were read. */
  get inputs(): string[] {
    return this.errors.flatMap((error) => (error instanceof InputError ? [error.input] : []))
  }
}

/**
 * The inputs a run needs from secrets are empty because GitHub gives this run none (a pull
 * request from a fork, a run Dependabot started): nothing is wrong with the workflow's inputs, so
 * the run is skipped rather than failed. The message says why and how to guard the workflow.
 */
export class SecretsWithheldError extends Error {
  override name = 'SecretsWithheldError'
}

/**
 * What provably happened to a request that did not produce a usable answer. Only this decides
 * whether it may be sent again (see `policy.ts`).
 */
export type Failure =
  /** It never reached the API: no connection, a proxy or TLS refusal, or it was never written. */
  | { readonly kind: 'unsent'; readonly permanent: boolean }
  /** It was sent, but no answer came, or the answer could not be read whole. */
  | { readonly kind: 'lost' }
  /** The API answered with a status other than 2xx. */
  | { readonly kind: 'http'; readonly status: number; readonly retryAfterMs?: number }
  /** The API answered 2xx with something that is not what was asked for. */
  | { readonly kind: 'invalid-response' }

/** A request that did not produce a usable answer; `failure` says what happened to it. */
export class ApiError extends Error {
  override name = 'ApiError'
  readonly failure: Failure
  readonly requestId: string | undefined
  constructor(message: string, failure: Failure, requestId?: string) {
    super(requestId ? `${message} (request id ${requestId})` : message)
    this.failure = failure
    this.requestId = requestId
  }
}

/** A request that is not idempotent may have taken effect; sending it again could repeat it. */
export class UncertainError extends Error {
  override name = 'UncertainError'
}

/**
 * The platform's rate limit refused a request that is not idempotent (HTTP 429), and the wait could
 * not be made within the step's timeout or its attempts: nothing was done, and the message says
 * when to try again. Not a timeout of the job: the request never took effect.
 */
export class RateLimitError extends Error {
  override name = 'RateLimitError'
}

/**
 * The step's deadline arrived, or a wait the server asked for would pass it. `why` tells a wait
 * the server asked for (`asked`) from a deadline that leaves no time for another try (`no-time`).
 */
export class DeadlineError extends Error {
  override name = 'DeadlineError'
  readonly why: 'asked' | 'no-time'
  /** The last failure, when the deadline came while a request kept failing. */
  readonly last: Error | undefined
  constructor(message: string, why: 'asked' | 'no-time' = 'asked', last?: Error) {
    super(message)
    this.why = why
    this.last = last
  }
}

/** The workflow was cancelled while the step was running. */
export class CancelledError extends Error {
  override name = 'CancelledError'
}

/** The error an aborted signal stands for: its reason, or a plain cancellation. */
export function cancellation(signal: AbortSignal): Error {
  const reason: unknown = signal.reason
  return reason instanceof Error ? reason : new CancelledError('The step was cancelled.')
}

/** A readable one-line message for anything thrown, without a stack. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name
  if (typeof error === 'string') return error
  try {
    return JSON.stringify(error) ?? String(error)
  } catch {
    return String(error)
  }
}
