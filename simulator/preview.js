// @ts-check
import { randomBytes } from 'node:crypto'
import { createRateLimiter } from './rate-limit.js'

/**
 * Mintlify's preview deployment routes as published (the v1 `openapi.json`, "Trigger preview
 * deployment" and "Get update status", 2026-08-21): `POST /v1/project/preview/{projectId}` with
 * `{branch}` (at least one character) answers 202 `{statusId, previewUrl}` and redeploys a
 * branch that already has a preview; 400 without a branch; 403 when the plan has no previews;
 * 5 requests a minute per organization. `GET /v1/project/update-status/{statusId}` answers the
 * deployment's status: queued, in_progress, then success or failure, with a summary.
 *
 * @typedef {'preview' | 'previewStatus'} PreviewRouteKind
 * @typedef {object} PreviewRoute
 * @property {PreviewRouteKind} kind
 * @property {'GET' | 'POST'} method
 * @property {string} projectId percent-decoded; on the status route, '' (the deployment's own
 *   project is checked when it is found)
 * @property {null} jobId
 * @property {string} [statusId] percent-decoded, on the status route
 *
 * @typedef {object} PreviewKnobs
 * @property {boolean} available false: the plan has no preview deployments (every request 403)
 * @property {number} buildMs from the request until the build ends
 * @property {'success' | 'failure'} outcome how builds end
 * @property {string} summary the summary of a failed build
 * @property {string | null} previewUrl the `previewUrl` answered, verbatim; null: one made from
 *   the branch, `https://acme-<branch>.mintlify.app`
 * @property {import('./rate-limit.js').RateLimit} rateLimit per organization
 *
 * @typedef {Partial<Omit<PreviewKnobs, 'rateLimit'>> & {
 *   rateLimit?: Partial<import('./rate-limit.js').RateLimit>
 * }} PreviewInput
 *
 * @typedef {object} Deployment
 * @property {string} statusId
 * @property {string} projectId
 * @property {string} branch
 * @property {string} previewUrl
 * @property {number} requestedAt
 * @property {number} buildMs
 * @property {'success' | 'failure'} outcome
 * @property {string} summary
 */

/** @returns {PreviewKnobs} */
export function defaultPreviewKnobs() {
  return {
    available: true,
    buildMs: 1500,
    outcome: 'success',
    summary: 'Build failed: 1 broken link in quickstart.mdx',
    previewUrl: null,
    rateLimit: { limit: 5, windowMs: 60_000 }
  }
}

/**
 * @param {PreviewKnobs} base
 * @param {PreviewInput} input
 * @returns {PreviewKnobs}
 */
export function mergePreviewKnobs(base, input) {
  const next = { ...base, rateLimit: { ...base.rateLimit } }
  if (input.available !== undefined) {
    if (typeof input.available !== 'boolean') {
      throw new TypeError('scenario knob preview.available must be true or false')
    }
    next.available = input.available
  }
  if (input.buildMs !== undefined) {
    if (typeof input.buildMs !== 'number' || !(input.buildMs >= 0)) {
      throw new RangeError(`scenario knob preview.buildMs is out of range: ${input.buildMs}`)
    }
    next.buildMs = input.buildMs
  }
  if (input.outcome !== undefined) {
    if (input.outcome !== 'success' && input.outcome !== 'failure') {
      throw new TypeError('scenario knob preview.outcome must be success or failure')
    }
    next.outcome = input.outcome
  }
  if (input.summary !== undefined) next.summary = String(input.summary)
  if (input.previewUrl !== undefined) {
    if (input.previewUrl !== null && typeof input.previewUrl !== 'string') {
      throw new TypeError('scenario knob preview.previewUrl must be a string or null')
    }
    next.previewUrl = input.previewUrl
  }
  if (input.rateLimit?.limit !== undefined) next.rateLimit.limit = input.rateLimit.limit
  if (input.rateLimit?.windowMs !== undefined) next.rateLimit.windowMs = input.rateLimit.windowMs
  return next
}

/**
 * The preview route a raw request target names, or undefined when it names none. Each segment is
 * percent-decoded on its own; a malformed one names no route.
 *
 * @param {string} target
 * @returns {PreviewRoute | undefined}
 */
export function matchPreviewRoute(target) {
  const pathname = target.split('?', 1)[0] ?? ''
  if (!pathname.startsWith('/v1/project/')) return undefined
  /** @type {string[]} */
  let segments
  try {
    segments = pathname.slice(1).split('/').map(decodeURIComponent)
  } catch {
    return undefined
  }
  const [, , kind, id, ...rest] = segments
  if (!id || rest.length > 0) return undefined
  if (kind === 'preview') return { kind: 'preview', method: 'POST', projectId: id, jobId: null }
  if (kind === 'update-status') {
    return { kind: 'previewStatus', method: 'GET', projectId: '', jobId: null, statusId: id }
  }
  return undefined
}

/** @param {string} branch */
function siteOf(branch) {
  const slug = branch
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return `https://acme-${slug || 'preview'}.mintlify.app`
}

/**
 * The preview deployments one simulator holds, and its answers to their routes.
 */
export function createPreviews() {
  /** @type {Map<string, Deployment>} */
  const deployments = new Map()
  const limiter = createRateLimiter()

  /**
   * The status a deployment shows at `now`.
   *
   * @param {Deployment} deployment
   * @param {number} now
   */
  const statusOf = (deployment, now) => {
    const age = now - deployment.requestedAt
    const ended = age >= deployment.buildMs
    const status = ended
      ? deployment.outcome
      : age < deployment.buildMs / 5
        ? 'queued'
        : 'in_progress'
    const at = (/** @type {number} */ ms) => new Date(ms).toISOString()
    return {
      _id: deployment.statusId,
      projectId: deployment.projectId,
      createdAt: at(deployment.requestedAt),
      ...(ended ? { endedAt: at(deployment.requestedAt + deployment.buildMs) } : {}),
      status,
      summary:
        status === 'failure'
          ? deployment.summary
          : status === 'success'
            ? 'Preview deployed'
            : 'Building the preview',
      logs: [],
      subdomain: URL.canParse(deployment.previewUrl)
        ? (new URL(deployment.previewUrl).hostname.split('.')[0] ?? '')
        : '',
      source: 'api',
      commit: { ref: deployment.branch }
    }
  }

  return {
    deployments,
    /**
     * Answers a preview route the platform has let through (key, scope, address). `refuse`
     * checks the project of a status once the deployment is found.
     *
     * @param {PreviewRoute} route
     * @param {{ body: string, now: number, knobs: PreviewKnobs,
     *   refuse: (projectId: string) => { status: number, error: string } | undefined }} request
     * @returns {{ status: number, body: unknown, headers?: Record<string, string> }}
     */
    handle(route, { body, now, knobs, refuse }) {
      if (route.kind === 'previewStatus') {
        const deployment = deployments.get(route.statusId ?? '')
        if (!deployment) return { status: 404, body: { error: 'Status not found' } }
        const refused = refuse(deployment.projectId)
        if (refused) return { status: refused.status, body: { error: refused.error } }
        return { status: 200, body: statusOf(deployment, now) }
      }
      const refused = refuse(route.projectId)
      if (refused) return { status: refused.status, body: { error: refused.error } }
      if (!knobs.available) {
        return {
          status: 403,
          body: { error: 'Preview deployments are not available on your current plan.' }
        }
      }
      /** @type {unknown} */
      let parsed
      try {
        parsed = JSON.parse(body)
      } catch {
        parsed = undefined
      }
      const branch =
        parsed && typeof parsed === 'object' && 'branch' in parsed ? parsed.branch : undefined
      if (typeof branch !== 'string' || branch.length === 0) {
        return { status: 400, body: { error: 'Invalid request. The `branch` field is required.' } }
      }
      const waitMs = limiter.take('organization', now, knobs.rateLimit)
      if (waitMs > 0) {
        const seconds = Math.ceil(waitMs / 1000)
        return {
          status: 429,
          body: { error: `Rate limit exceeded: retry in ${seconds} seconds` },
          headers: { 'retry-after': String(seconds) }
        }
      }
      const statusId = randomBytes(12).toString('hex')
      /** @type {Deployment} */
      const deployment = {
        statusId,
        projectId: route.projectId,
        branch,
        previewUrl: knobs.previewUrl ?? siteOf(branch),
        requestedAt: now,
        buildMs: knobs.buildMs,
        outcome: knobs.outcome,
        summary: knobs.summary
      }
      deployments.set(statusId, deployment)
      return { status: 202, body: { statusId, previewUrl: deployment.previewUrl } }
    }
  }
}
