// @ts-check

/**
 * @typedef {'active' | 'completed' | 'failed' | 'archived'} JobStatus
 * @typedef {import('./rate-limit.js').RateLimit} RateLimit
 * @typedef {import('./routes.js').RouteKind} RouteKind
 */

/**
 * One misbehaviour, consumed by the next request of its kind.
 *
 * @typedef {object} Fault
 * @property {number} [status] status to answer with when there is no `action` (default 500)
 * @property {Record<string, string>} [headers] sent as given; they may replace `x-request-id`
 * @property {string} [body] sent verbatim (default empty)
 * @property {'reset' | 'hang' | 'truncate'} [action] drop the connection, never answer, or
 *   answer 200 with JSON cut in half
 * @property {boolean} [createJob] handle the request as usual first, so the job exists although
 *   the client only sees the fault (a create whose answer was lost)
 */

/**
 * @typedef {object} Scenario
 * @property {number} jobDurationMs
 * @property {JobStatus} finalStatus
 * @property {boolean | string} prLink
 * @property {Record<string, unknown>} jobFields
 * @property {string[]} jobIds
 * @property {Record<RouteKind, Fault[]>} faults
 * @property {number} flakiness
 * @property {RateLimit} rateLimit
 */

/**
 * What tests and the CLI pass in: every knob optional, nested ones partial.
 *
 * @typedef {object} ScenarioInput
 * @property {number} [jobDurationMs] time from create (or follow-up) until the job ends
 * @property {JobStatus} [finalStatus] how jobs end; `active` means never
 * @property {boolean | string} [prLink] `true`: a plausible pull request link, `false`: none,
 *   a string: used verbatim
 * @property {Record<string, unknown>} [jobFields] merged over every job in a response; a key set
 *   to `undefined` removes that field
 * @property {string[]} [jobIds] ids handed to created jobs in order, before random ones
 * @property {Partial<Record<RouteKind, Fault[]>>} [faults] queues per route kind
 * @property {number} [flakiness] fraction (0..1) of job reads answered with a transient error
 * @property {number} [seed] reseeds the generator behind `flakiness`
 * @property {Partial<RateLimit>} [rateLimit] creates and follow-ups per project per window
 */

export const STATUSES = /** @type {const} */ (['active', 'completed', 'failed', 'archived'])

/** @returns {Scenario} */
export function defaultScenario() {
  return {
    jobDurationMs: 3000,
    finalStatus: 'completed',
    prLink: true,
    jobFields: {},
    jobIds: [],
    faults: { create: [], get: [], message: [] },
    flakiness: 0,
    rateLimit: { limit: 100, windowMs: 3_600_000 }
  }
}

/**
 * Applies knobs over a scenario. Queues are copied so the simulator never consumes arrays the
 * caller still holds; `faults` and `rateLimit` merge per key so one queue or one number can be
 * changed alone.
 *
 * @param {Scenario} base
 * @param {ScenarioInput} input
 * @returns {Scenario}
 */
export function mergeScenario(base, input) {
  const next = {
    ...base,
    faults: { ...base.faults },
    rateLimit: { ...base.rateLimit }
  }
  if (input.jobDurationMs !== undefined) {
    next.jobDurationMs = check(input.jobDurationMs, 'jobDurationMs', (v) => v >= 0)
  }
  if (input.finalStatus !== undefined) {
    if (!STATUSES.includes(input.finalStatus)) {
      throw new TypeError(
        `finalStatus must be one of ${STATUSES.join(', ')}; got ${String(input.finalStatus)}`
      )
    }
    next.finalStatus = input.finalStatus
  }
  if (input.prLink !== undefined) next.prLink = input.prLink
  if (input.jobFields !== undefined) next.jobFields = { ...input.jobFields }
  if (input.jobIds !== undefined) next.jobIds = [...input.jobIds]
  for (const kind of /** @type {const} */ (['create', 'get', 'message'])) {
    const queue = input.faults?.[kind]
    if (queue !== undefined) next.faults[kind] = queue.map((fault) => ({ ...fault }))
  }
  if (input.flakiness !== undefined) {
    next.flakiness = check(input.flakiness, 'flakiness', (v) => v >= 0 && v <= 1)
  }
  if (input.rateLimit?.limit !== undefined) {
    next.rateLimit.limit = check(input.rateLimit.limit, 'rateLimit.limit', (v) => v >= 0)
  }
  if (input.rateLimit?.windowMs !== undefined) {
    next.rateLimit.windowMs = check(input.rateLimit.windowMs, 'rateLimit.windowMs', (v) => v > 0)
  }
  return next
}

/**
 * @param {number} value
 * @param {string} name
 * @param {(value: number) => boolean} ok
 * @returns {number}
 */
function check(value, name, ok) {
  if (typeof value !== 'number' || !Number.isFinite(value) || !ok(value)) {
    throw new RangeError(`scenario knob ${name} is out of range: ${String(value)}`)
  }
  return value
}
