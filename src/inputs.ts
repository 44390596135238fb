import { open, stat } from 'node:fs/promises'
import * as core from '@actions/core'
import { z } from 'zod'
import { parseDuration, formatDuration } from './duration.js'
import { API_KEYS_PAGE, InputError, cancellation, errorMessage } from './errors.js'
import { addSecret, hasControlCharacters, forLog } from './sanitize.js'
import { proxyProblem } from './transport.js'
import { isLoopback } from './urls.js'

/** Everything the action was asked to do, parsed once before any request is sent. */
export interface Settings {
  readonly prompt: string
  readonly projectId: string
  readonly apiKey: string
  readonly baseUrl: URL
  readonly wait: boolean
  readonly timeoutMs: number
  readonly pollIntervalMs: number
  readonly maxPollIntervalMs: number
  readonly failOnNoPr: boolean
  /** Things worth telling the user that do not stop the run. */
  readonly warnings: readonly string[]
}

/** Longest `timeout` accepted; self-hosted runners allow long jobs, but not unbounded ones. */
export const MAX_DURATION_MS = 24 * 3_600_000

/** Largest prompt file read, so a wrong path to a large file fails clearly instead of slowly. */
export const MAX_PROMPT_FILE_BYTES = 1_000_000

const required = (what: string) =>
  z.string().refine((value) => value.trim() !== '', { message: `is required: ${what}` })

const booleanInput = z.string().transform((text, ctx) => {
  const value = text.trim().toLowerCase()
  if (value === 'true') return true
  if (value === 'false') return false
  ctx.addIssue({ code: 'custom', message: `"${text}" is not a boolean; use true or false` })
  return z.NEVER
})

const durationInput = z.string().transform((text, ctx) => {
  const ms = parseDuration(text)
  if (ms === undefined) {
    ctx.addIssue({
      code: 'custom',
      message:
        `"${text}" is not a duration; use a number with ms, s, m or h (90s, 1.5m, 1h), ` +
        'or a bare number of seconds'
    })
    return z.NEVER
  }
  if (ms <= 0) {
    ctx.addIssue({ code: 'custom', message: `must be longer than zero, got "${text}"` })
    return z.NEVER
  }
  if (ms > MAX_DURATION_MS) {
    ctx.addIssue({ code: 'custom', message: `must be at most 24h, got "${text}"` })
    return z.NEVER
  }
  return ms
})

// An HTTP header can carry only visible ASCII safely; a key with anything else (a smart quote or
// a zero-width space from a copy and paste) could never be sent.
const apiKeyInput = required('an admin API key (mint_…), passed from a secret').refine(
  (key) => /^[\x21-\x7e]+$/.test(key.trim()),
  {
    message:
      'contains whitespace, control or non-ASCII characters (such as a smart quote or a ' +
      'zero-width space), which an HTTP header cannot carry; copy the key again from the API ' +
      'keys page'
  }
)

const projectIdInput = required(`the project id shown on ${API_KEYS_PAGE}`)
  .refine((id) => !hasControlCharacters(id), { message: 'contains control characters' })
  .refine((id) => id !== '.' && id !== '..', { message: 'cannot be "." or ".."' })

const baseUrlInput = z.string().transform((text, ctx) => {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: `"${forLog(text, 200)}" is not an absolute URL such as https://api.mintlify.com`
    })
    return z.NEVER
  }
  const problem =
    url.protocol === 'http:' && !isLoopback(url.hostname)
      ? 'must use https:// (plain http:// is accepted only for localhost and 127.0.0.1)'
      : url.protocol !== 'https:' && url.protocol !== 'http:'
        ? `must be an https:// URL, got ${url.protocol}//`
        : url.username || url.password
          ? 'must not contain credentials; pass the key as api-key'
          : url.search || url.hash
            ? 'must not have a query or fragment'
            : undefined
  if (problem) {
    ctx.addIssue({ code: 'custom', message: problem })
    return z.NEVER
  }
  return url
})

/** Parses one input with `schema`, turning the first problem into an error naming the input. */
function parse<T>(name: string, schema: z.ZodType<T, string>, raw: string): T {
  const result = schema.safeParse(raw)
  if (result.success) return result.data
  throw new InputError(name, result.error.issues[0]?.message ?? 'is not valid')
}

function input(name: string, fallback = ''): string {
  return core.getInput(name) || fallback
}

/**
 * Reads and checks every input. The API key is masked before anything else happens, so no later
 * log line, however it fails, can show it.
 */
export async function readSettings(signal?: AbortSignal): Promise<Settings> {
  const apiKey = core.getInput('api-key')
  if (apiKey) {
    core.setSecret(apiKey)
    addSecret(apiKey)
  }

  const warnings: string[] = []
  const key = parse('api-key', apiKeyInput, apiKey)
  if (!key.startsWith('mint_')) {
    warnings.push(
      `The api-key does not start with "mint_", the prefix of admin API keys. If requests are ` +
        `refused, create an admin key on ${API_KEYS_PAGE}.`
    )
  }

  const projectId = parse('project-id', projectIdInput, input('project-id'))
  const baseUrl = parse('base-url', baseUrlInput, input('base-url', 'https://api.mintlify.com'))
  const proxy = proxyProblem(baseUrl)
  if (proxy) throw new Error(proxy)
  const wait = parse('wait', booleanInput, input('wait', 'true'))
  const failOnNoPr = parse('fail-on-no-pr', booleanInput, input('fail-on-no-pr', 'false'))
  const timeoutMs = parse('timeout', durationInput, input('timeout', '30m'))
  const pollIntervalMs = parse('poll-interval', durationInput, input('poll-interval', '5s'))
  const maxPollIntervalMs = parse(
    'max-poll-interval',
    durationInput,
    input('max-poll-interval', '30s')
  )
  if (maxPollIntervalMs < pollIntervalMs) {
    throw new InputError(
      'max-poll-interval',
      `must be at least poll-interval (${formatDuration(pollIntervalMs)}), got ${formatDuration(maxPollIntervalMs)}`
    )
  }
  const prompt = await readPrompt(
    input('prompt'),
    input('prompt-file'),
    Date.now() + timeoutMs,
    signal
  )

  return Object.freeze({
    prompt,
    projectId,
    apiKey: key,
    baseUrl,
    wait,
    timeoutMs,
    pollIntervalMs,
    maxPollIntervalMs,
    failOnNoPr,
    warnings: Object.freeze(warnings)
  })
}

/** The prompt from `prompt` or from the file named by `prompt-file`; exactly one must be given. */
async function readPrompt(
  prompt: string,
  promptFile: string,
  deadline: number,
  signal?: AbortSignal
) {
  if (prompt && promptFile) {
    throw new InputError('prompt-file', 'cannot be used together with prompt; give one of them')
  }
  if (!promptFile) {
    if (!prompt.trim()) {
      throw new InputError('prompt', 'is required (or prompt-file): the instruction for the agent')
    }
    return prompt.trim()
  }
  let text: string
  try {
    text = await readTextFile(promptFile, MAX_PROMPT_FILE_BYTES, deadline, signal)
  } catch (error: unknown) {
    if (signal?.aborted) throw cancellation(signal)
    const reason =
      error && typeof error === 'object' && 'code' in error && error.code === 'ENOENT'
        ? 'no such file (paths are relative to the workspace; check out the repository first)'
        : errorMessage(error)
    throw new InputError('prompt-file', `cannot read "${forLog(promptFile, 200)}": ${reason}`)
  }
  if (!text.trim()) {
    throw new InputError(
      'prompt-file',
      `"${forLog(promptFile, 200)}" is empty; it must contain the prompt`
    )
  }
  return text.trim()
}

/**
 * Reads a regular file of at most `max` bytes. A FIFO, a device such as /dev/zero or a directory
 * is refused before it is opened (opening a FIFO blocks until a writer comes, and a device may
 * never end); the read stops at `max` bytes, at the step's deadline, and when `signal` aborts.
 */
async function readTextFile(
  path: string,
  max: number,
  deadline: number,
  signal?: AbortSignal
): Promise<string> {
  const info = await stat(path)
  if (!info.isFile()) throw new Error('it is not a regular file')
  if (info.size > max)
    throw new Error(`it is ${info.size} bytes; prompts of at most ${max} bytes are read`)
  const file = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(max + 1)
    let length = 0
    while (length < buffer.length) {
      if (signal?.aborted) throw cancellation(signal)
      if (Date.now() > deadline) throw new Error("it could not be read within the step's timeout")
      const { bytesRead } = await file.read(buffer, length, buffer.length - length, length)
      if (bytesRead === 0) break
      length += bytesRead
    }
    if (length > max)
      throw new Error(`it is over ${max} bytes; prompts of at most ${max} bytes are read`)
    return buffer.subarray(0, length).toString('utf8')
  } finally {
    await file.close()
  }
}
