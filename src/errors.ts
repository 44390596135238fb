/**
 * The failures the action knows how to explain. Each carries the message a user reads in the log,
 * written so that it says what went wrong and what to do about it.
 */

/** Where an admin API key is made, and where the project id is shown. */
export const API_KEYS_PAGE = 'https://app.mintlify.com/settings/organization/api-keys'

/** An input that cannot be used; raised before any request is sent. */
export class InputError extends Error {
  override name = 'InputError'
  constructor(
    readonly input: string,
    message: string
  ) {
    super(`Input "${input}": ${message}`)
  }
}

/** What an operation was doing when it failed; shapes the advice in messages. */
export type Operation = 'create' | 'poll'

/** How a request failed, in the terms the retry rules need. */
export type Failure =
  | { kind: 'http'; status: number; retryAfterMs?: number }
  | { kind: 'network'; sent: boolean }
  | { kind: 'tls' }
  | { kind: 'invalid-response' }

/** A request that did not produce a usable job. `failure` says whether it may be retried. */
export class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    message: string,
    readonly operation: Operation,
    readonly failure: Failure,
    readonly requestId?: string
  ) {
    super(requestId ? `${message} (request id ${requestId})` : message)
  }
}

/** The create request may have reached the server; retrying could start a second job. */
export class UncertainCreateError extends Error {
  override name = 'UncertainCreateError'
  constructor(cause: string) {
    super(
      `The request to create the agent job failed after it was sent (${cause}), so the job may or ` +
        'may not have been created. It was not retried, to avoid starting a duplicate job. Check ' +
        "the agent's jobs in the Mintlify dashboard before running this step again."
    )
  }
}

/** The step's deadline arrived, or a wait the server asked for would pass it. */
export class DeadlineError extends Error {
  override name = 'DeadlineError'
}

/** The workflow was cancelled while the step was running. */
export class CancelledError extends Error {
  override name = 'CancelledError'
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
