/**
 * What the platform says its requests that are not idempotent answer, and what each answer means
 * for sending the request again: the beliefs the request policy's gate (`provedNotDone` in
 * `src/clients/mintlify/policy.ts`) rests on, as data its tests check it against.
 *
 * Where they come from:
 * - The routes and their responses: Mintlify's admin API OpenAPI document ("Mintlify Admin API",
 *   version 2.0.0), `POST /v2/agent/{projectId}/job` ("Create agent job") and
 *   `POST /v2/agent/{projectId}/job/{id}/message` ("Send follow-up message"); the preview route
 *   from its v1 `openapi.json` ("Trigger preview deployment", as of 2026-08-21), which lists no 429
 *   but states a limit of 5 requests a minute per organization. The descriptions are quoted as
 *   published. None of the three documents an idempotency key.
 * - What 429 means: RFC 6585, section 4, "The 429 status code indicates that the user has sent
 *   too many requests in a given amount of time ("rate limiting")". The request was refused, not
 *   carried out; `@octokit/plugin-throttling` (this action's GitHub client) waits it out too.
 * - What a 5xx or a lost answer means: nothing is promised either way. A gateway's 502 or 504, or
 *   a connection that breaks after the request was written, can come after the work was done.
 */

/** One documented answer of a route: its status and the reference's own words for it. */
export interface DocumentedAnswer {
  readonly status: number
  readonly description: string
}

export interface PlatformRoute {
  readonly route: string
  /** The request kind in `src/clients/mintlify/` that sends it. */
  readonly kind: 'create' | 'message' | 'preview'
  readonly answers: readonly DocumentedAnswer[]
}

/** The requests that are not idempotent, with the answers their reference documents. */
export const NON_IDEMPOTENT_ROUTES: readonly PlatformRoute[] = [
  {
    route: 'POST /v2/agent/{projectId}/job',
    kind: 'create',
    answers: [
      { status: 201, description: 'Agent job created successfully' },
      { status: 400, description: 'Invalid request' },
      { status: 429, description: 'Rate limit exceeded' }
    ]
  },
  {
    route: 'POST /v2/agent/{projectId}/job/{id}/message',
    kind: 'message',
    answers: [
      { status: 200, description: 'Message sent successfully' },
      { status: 400, description: 'Invalid request' },
      { status: 404, description: 'Job not found' },
      { status: 429, description: 'Rate limit exceeded' }
    ]
  },
  {
    route: 'POST /v1/project/preview/{projectId}',
    kind: 'preview',
    answers: [
      { status: 202, description: 'Preview deployment queued successfully.' },
      { status: 400, description: 'Invalid request. The `branch` field is required.' },
      { status: 403, description: 'Preview deployments are not available on your current plan.' }
    ]
  }
]

/**
 * What an answer (or its absence) proves about a request that was sent, by the sources above:
 * `not-done` is proof the platform did nothing (so the request may go again), `refused` a refusal
 * that would be refused again, `unknown` no proof either way (never sent again).
 */
export type Proof = 'not-done' | 'refused' | 'unknown'

/** The failures the gate meets, each with what it proves. */
export const FAILURE_PROOFS = [
  {
    what: 'never left the runner',
    failure: { kind: 'unsent', permanent: false },
    proof: 'not-done'
  },
  {
    what: 'HTTP 429, rate limit exceeded',
    failure: { kind: 'http', status: 429 },
    proof: 'not-done'
  },
  {
    what: 'HTTP 429 with Retry-After',
    failure: { kind: 'http', status: 429, retryAfterMs: 1000 },
    proof: 'not-done'
  },
  { what: 'HTTP 400, invalid request', failure: { kind: 'http', status: 400 }, proof: 'refused' },
  { what: 'HTTP 404, job not found', failure: { kind: 'http', status: 404 }, proof: 'refused' },
  { what: 'HTTP 500', failure: { kind: 'http', status: 500 }, proof: 'unknown' },
  {
    what: 'HTTP 503 with Retry-After',
    failure: { kind: 'http', status: 503, retryAfterMs: 1000 },
    proof: 'unknown'
  },
  { what: 'HTTP 504 from a gateway', failure: { kind: 'http', status: 504 }, proof: 'unknown' },
  { what: 'connection lost after sending', failure: { kind: 'lost' }, proof: 'unknown' },
  {
    what: '2xx with a body that is not a job',
    failure: { kind: 'invalid-response' },
    proof: 'unknown'
  }
] as const
