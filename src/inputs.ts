import { readFileSync, statSync } from 'node:fs'
import * as core from '@actions/core'
import { z } from 'zod'
import { parseDuration, formatDuration } from './duration.js'
import { API_KEYS_PAGE, InputError, errorMessage } from './errors.js'
import { hasControlCharacters } from './sanitize.js'

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

const apiKeyInput = required('an admin API key (mint_…), passed from a secret').refine(
  (key) => !/\s/.test(key) && !hasControlCharacters(key),
  {
    message: 'contains whitespace or control characters; copy the key again from the API keys page'
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
      message: `"${text}" is not an absolute URL such as https://api.mintlify.com`
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

/** Whether `hostname` (as `URL` gives it) is this machine, where plain http cannot be sniffed. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase()
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  )
}

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
export function readSettings(): Settings {
  const apiKey = core.getInput('api-key')
  if (apiKey) core.setSecret(apiKey)

  const warnings: string[] = []
  const key = parse('api-key', apiKeyInput, apiKey)
  if (!key.startsWith('mint_')) {
    warnings.push(
      `The api-key does not start with "mint_", the prefix of admin API keys. If requests are ` +
        `refused, create an admin key on ${API_KEYS_PAGE}.`
    )
  }

  const projectId = parse('project-id', projectIdInput, input('project-id'))
  const prompt = readPrompt(input('prompt'), input('prompt-file'))
  const baseUrl = parse('base-url', baseUrlInput, input('base-url', 'https://api.mintlify.com'))
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
function readPrompt(prompt: string, promptFile: string): string {
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
    const size = statSync(promptFile).size
    if (size > MAX_PROMPT_FILE_BYTES) {
      throw new Error(
        `it is ${size} bytes; prompts of at most ${MAX_PROMPT_FILE_BYTES} bytes are read`
      )
    }
    text = readFileSync(promptFile, 'utf8')
  } catch (error: unknown) {
    const reason =
      error && typeof error === 'object' && 'code' in error && error.code === 'ENOENT'
        ? 'no such file (paths are relative to the workspace; check out the repository first)'
        : errorMessage(error)
    throw new InputError('prompt-file', `cannot read "${promptFile}": ${reason}`)
  }
  if (!text.trim()) {
    throw new InputError('prompt-file', `"${promptFile}" is empty; it must contain the prompt`)
  }
  return text.trim()
}
