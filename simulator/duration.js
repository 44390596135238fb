// @ts-check

/** @type {Record<string, number>} */
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/**
 * Reads a duration as the simulator's command line takes it: `500ms`, `5s`, `1.5m`, `1h`, `10 s`.
 * A bare number means seconds, matching how people say "a 3 second job". Accepts exactly what the
 * action's own inputs accept, so a knob copied from a workflow means the same here.
 *
 * @param {string} text
 * @returns {number} whole milliseconds
 */
export function parseDuration(text) {
  const match = /^(\d+(?:\.\d+)?|\.\d+)\s*(ms|s|m|h)?$/i.exec(text.trim())
  const unit = (match?.[2] ?? 's').toLowerCase()
  const ms = match ? Math.round(Number(match[1]) * (UNIT_MS[unit] ?? 1000)) : NaN
  if (!Number.isFinite(ms)) {
    throw new RangeError(
      `invalid duration "${text}": use a number with ms, s, m or h (a bare number is seconds)`
    )
  }
  return ms
}
