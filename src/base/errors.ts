/** The failures the action explains: each message says what went wrong and what to do. */

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

/** Every input that cannot be used, so that one run names them all. */
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

  get inputs(): string[] {
    return this.errors.flatMap((error) => (error instanceof InputError ? [error.input] : []))
  }
}

/** GitHub gives this run no secrets (a fork, Dependabot): it is skipped rather than failed. */
export class SecretsWithheldError extends Error {
  override name = 'SecretsWithheldError'
}

/** What provably happened to a failed request: only this decides whether it may be sent again. */
export type Failure =
  /** It never reached the API, so sending it again cannot repeat it. */
  | { readonly kind: 'unsent'; readonly permanent: boolean }
  /** Sent, but no whole answer came: it may have taken effect. */
  | { readonly kind: 'lost' }
  | { readonly kind: 'http'; readonly status: number; readonly retryAfterMs?: number }
  /** A 2xx with something that is not what was asked for. */
  | { readonly kind: 'invalid-response' }

/** A request that did not produce a usable answer. */
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

/** A 429 on a request that is not idempotent, with no time left to wait: nothing was done. */
export class RateLimitError extends Error {
  override name = 'RateLimitError'
}

/** The deadline left `no-time` for another try, or a wait the server `asked` for would pass it. */
export class DeadlineError extends Error {
  override name = 'DeadlineError'
  readonly why: 'asked' | 'no-time'
  readonly last: Error | undefined
  constructor(message: string, why: 'asked' | 'no-time' = 'asked', last?: Error) {
    super(message)
    this.why = why
    this.last = last
  }
}

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
