// @ts-check

/**
 * @typedef {object} RateLimit
 * @property {number} limit uses allowed per key within one window
 * @property {number} windowMs length of the sliding window
 */

/**
 * A sliding-window counter per key (the project id), as the API states its limit: so many uses
 * per project per hour.
 */
export function createRateLimiter() {
  /** @type {Map<string, number[]>} */
  const uses = new Map()

  return {
    /**
     * Records one use when the key is under its limit.
     *
     * @param {string} key
     * @param {number} now
     * @param {RateLimit} rule
     * @returns {number} 0 when the use was recorded, otherwise milliseconds until a slot frees up
     */
    take(key, now, rule) {
      const recent = (uses.get(key) ?? []).filter((at) => at > now - rule.windowMs)
      uses.set(key, recent)
      if (recent.length >= rule.limit) {
        // A limit of 0 refuses every use: nothing ever frees a slot before a window passes.
        const oldest = recent[0] ?? now
        return Math.max(1, oldest + rule.windowMs - now)
      }
      recent.push(now)
      return 0
    }
  }
}
