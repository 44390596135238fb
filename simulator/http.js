// @ts-check

/**
 * What the simulator sends back for one request. `github` marks answers of the fake GitHub API,
 * which carry GitHub's request id header instead of the Mintlify one.
 *
 * @typedef {object} Answer
 * @property {'answer'} type
 * @property {number} status
 * @property {Record<string, string>} headers
 * @property {string} body
 * @property {boolean} [github]
 * @typedef {Answer | { type: 'reset' } | { type: 'hang' }} Outcome
 */

export const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * @param {number} status
 * @param {string} body
 * @param {Record<string, string>} headers
 * @returns {Answer}
 */
export function answer(status, body, headers) {
  return { type: 'answer', status, headers, body }
}

/**
 * Reads a request body as JSON, or `undefined` when it is not JSON at all.
 *
 * @param {string} body
 * @returns {unknown}
 */
export function parseJson(body) {
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
