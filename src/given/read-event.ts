/** The event's one read from disk; `parseEvent` makes of it what every stage sees. */
import { readFileSync } from 'node:fs'
import { parseEvent, type Event } from './event.js'

const UNREADABLE: Readonly<Record<string, string>> = {
  ENOENT: 'there is no such file',
  EISDIR: 'it is a directory'
}

/** The payload at `path`: a JSON object, or why it is not one. */
function readPayload(path: string): { raw: unknown; error?: string } {
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error: unknown) {
    const found = (error as { code?: unknown } | null)?.code
    const code = typeof found === 'string' ? found : 'error'
    const why = Object.hasOwn(UNREADABLE, code) ? UNREADABLE[code] : `it cannot be read (${code})`
    return { raw: {}, error: error instanceof SyntaxError ? 'it is not JSON' : why }
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { raw: {}, error: 'it is not a JSON object' }
  }
  return { raw }
}

/**
 * Reads the event the runner gives the step; undefined outside a workflow. A missing or unreadable
 * payload reads as empty, and `payloadError` says why.
 */
export function readEvent(env: NodeJS.ProcessEnv = process.env): Event | undefined {
  if (!env.GITHUB_REPOSITORY) return undefined
  const { raw, error } = env.GITHUB_EVENT_PATH
    ? readPayload(env.GITHUB_EVENT_PATH)
    : { raw: {}, error: undefined }
  return parseEvent(env, raw, error)
}
