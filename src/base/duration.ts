const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const

/** The unit a number without one is read in. */
export type BareUnit = 's' | 'm'

const DURATION = /^(\d+(?:\.\d+)?|\.\d+)\s*(ms|s|m|h)?$/i

/** `90s`, `1.5m`, `1h` or `250ms` in milliseconds; a bare number is read in `bare`. */
export function parseDuration(text: string, bare: BareUnit = 's'): number | undefined {
  const match = DURATION.exec(text.trim())
  if (!match) return undefined
  const value = Number(match[1])
  const unit = (match[2]?.toLowerCase() ?? bare) as keyof typeof UNIT_MS
  const ms = Math.round(value * UNIT_MS[unit])
  return Number.isFinite(ms) ? ms : undefined
}

/** Whether `text` is a duration written without a unit, such as `30`. */
export function isBareNumber(text: string): boolean {
  const match = DURATION.exec(text.trim())
  return match !== null && match[2] === undefined
}

/** Formats milliseconds for people: `850ms`, `12s`, `2m 5s`, `1h 30m`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) ms = 0
  if (ms < 1000) return `${Math.round(ms)}ms`
  if (ms < 60_000) {
    const seconds = ms / 1000
    return `${Number.isInteger(seconds) || seconds >= 10 ? Math.round(seconds) : seconds.toFixed(1)}s`
  }
  const totalSeconds = Math.round(ms / 1000)
  const hours = Math.floor(totalSeconds / 3600)
  const minutes = Math.floor((totalSeconds % 3600) / 60)
  const seconds = totalSeconds % 60
  if (hours > 0) return minutes > 0 ? `${hours}h ${minutes}m` : `${hours}h`
  return seconds > 0 ? `${minutes}m ${seconds}s` : `${minutes}m`
}
