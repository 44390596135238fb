import { open, stat } from 'node:fs/promises'
import * as core from '@actions/core'
import { z } from 'zod'
import { formatDuration, isBareNumber, parseDuration, type BareUnit } from './duration.js'
import { MAX_JOB_ID_LENGTH } from './mintlify/job.js'
import { API_KEYS_PAGE, InputError, InputErrors, cancellation, errorMessage } from './errors.js'
import { addSecret, hasControlCharacters, forLog } from './sanitize.js'
import { isLoopback, proxyProblem } from './http.js'

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
  /** Token for reading the change (and commenting); empty when none was given. */
  readonly githubToken: string
  /** `auto`: append the triggering change to the prompt; `off`: send the prompt as written. */
  readonly context: 'auto' | 'off'
  readonly contextMaxChars: number
  /** Glob patterns (`!` excludes); empty when every change counts. */
  readonly paths: readonly string[]
  /** An existing job to continue (with a prompt: a follow-up message) or attach to; '' for none. */
  readonly jobId: string
  /** `auto`: keep one status comment on the pull request the change belongs to; `off`: none. */
  readonly comment: 'auto' | 'off'
  /** `auto`: set the docs check (a commit status) on the code change's head commit; `off`: none. */
  readonly check: 'auto' | 'off'
  /** Send the prompt to the job the pull request's comment records instead of starting one. */
  readonly reuseJob: boolean
  /** Do everything up to starting the job, print the prompt, start nothing. */
  readonly dryRun: boolean
  /** Token for the docs pull request's repository; empty: the docs pull request is left alone. */
  readonly docsToken: string
  /** Who is asked to review the docs pull request. */
  readonly docsReviewers: DocsReviewers
  /** Labels added to the docs pull request. */
  readonly docsLabels: readonly string[]
  /** What a code pull request closed without merging does to its docs pull request. */
  readonly onCodeClosed: 'close' | 'comment' | 'nothing'
  /** Things worth telling the user that do not stop the run. */
  readonly warnings: readonly string[]
}

/** A team as `docs-reviewers` names it: `org/team`, the team by its slug. */
export interface TeamName {
  readonly org: string
  readonly slug: string
}

/** `docs-reviewers`: logins, teams, and whether the code pull request's author is one. */
export interface DocsReviewers {
  readonly users: readonly string[]
  readonly teams: readonly TeamName[]
  /** The special value `author`: the code pull request's author. */
  readonly author: boolean
}

/** Most reviewers and labels accepted, which bounds the requests made for them. */
export const MAX_DOCS_REVIEWERS = 15
export const MAX_DOCS_LABELS = 20

/** Longest `timeout` accepted; self-hosted runners allow long jobs, but not unbounded ones. */
export const MAX_DURATION_MS = 24 * 3_600_000

/** Largest `context-max-chars` accepted. */
export const MAX_CONTEXT_CHARS = 200_000

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

/** The unit a bare number is read in, in words. */
const BARE_UNIT = { s: 'seconds', m: 'minutes' } as const

/** A duration; a bare number is read in `bare` (`timeout` counts minutes, as workflows do). */
const durationInput = (bare: BareUnit) =>
  z.string().transform((text, ctx) => {
    const ms = parseDuration(text, bare)
    if (ms === undefined) {
      ctx.addIssue({
        code: 'custom',
        message:
          `"${forLog(text, 60)}" is not a duration; use a number with ms, s, m or h (90s, 1.5m, ` +
          `1h), or a bare number of ${BARE_UNIT[bare]}`
      })
      return z.NEVER
    }
    const read = isBareNumber(text) ? ` (read as ${BARE_UNIT[bare]})` : ''
    if (ms <= 0) {
      ctx.addIssue({ code: 'custom', message: `must be longer than zero, got "${text}"` })
      return z.NEVER
    }
    if (ms > MAX_DURATION_MS) {
      ctx.addIssue({ code: 'custom', message: `must be at most 24h, got "${text}"${read}` })
      return z.NEVER
    }
    return ms
  })

// An HTTP header can carry only visible ASCII safely; a key with anything else (a smart quote or
// a zero-width space from a copy and paste) could never be sent.
/** `auto` or `off`, as `context` and `comment` take. */
const autoOrOff = z.string().transform((text, ctx) => {
  const value = text.trim().toLowerCase()
  if (value === 'auto' || value === 'off') return value
  ctx.addIssue({ code: 'custom', message: `"${forLog(text, 60)}" is not one of auto, off` })
  return z.NEVER
})

const contextMaxCharsInput = z.string().transform((text, ctx) => {
  const value = Number(text.trim())
  if (!/^\d+$/.test(text.trim()) || value > MAX_CONTEXT_CHARS) {
    ctx.addIssue({
      code: 'custom',
      message: `"${forLog(text, 60)}" is not a whole number from 0 to ${MAX_CONTEXT_CHARS}`
    })
    return z.NEVER
  }
  return value
})

/** Newline-separated glob patterns, as in a workflow's `paths:` filter. */
const pathsInput = z.string().transform((text, ctx) => {
  const patterns = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
  for (const pattern of patterns) {
    const glob = pattern.startsWith('!') ? pattern.slice(1) : pattern
    const problem =
      glob === ''
        ? 'is empty after "!"'
        : hasControlCharacters(glob)
          ? 'contains control characters'
          : unbalanced(glob)
    if (problem) {
      ctx.addIssue({ code: 'custom', message: `pattern "${forLog(pattern, 100)}" ${problem}` })
      return z.NEVER
    }
  }
  if (patterns.length > 0 && patterns.every((p) => p.startsWith('!'))) {
    ctx.addIssue({
      code: 'custom',
      message: 'has only "!" patterns, which match nothing; add a pattern that includes files'
    })
    return z.NEVER
  }
  return patterns
})

/** Why a glob's brackets or braces do not close, or undefined when they do. */
function unbalanced(glob: string): string | undefined {
  let square = 0
  let curly = 0
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]
    if (c === '\\') i++
    else if (c === '[') square++
    else if (c === ']' && square > 0) square--
    else if (c === '{') curly++
    else if (c === '}' && curly > 0) curly--
  }
  if (square > 0) return 'has a "[" that is not closed'
  if (curly > 0) return 'has a "{" that is not closed'
  return undefined
}

const apiKeyInput = required('an admin API key (mint_…), passed from a secret').refine(
  (key) => /^[\x21-\x7e]+$/.test(key.trim()),
  {
    message:
      'contains whitespace, control or non-ASCII characters (such as a smart quote or a ' +
      'zero-width space), which an HTTP header cannot carry; copy the key again from the API ' +
      'keys page'
  }
)

const jobIdInput = z
  .string()
  .trim()
  .refine((id) => id !== '', { message: 'is blank; give the id of an agent job, or leave it out' })
  .refine((id) => !/\s/.test(id) && !hasControlCharacters(id), {
    message: 'contains whitespace or control characters; copy the id from the job-id output'
  })
  .refine((id) => id !== '.' && id !== '..', { message: 'cannot be "." or ".."' })
  .refine((id) => id.length <= MAX_JOB_ID_LENGTH, {
    message: `is longer than ${MAX_JOB_ID_LENGTH} characters; copy the id from the job-id output`
  })

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

/** Items of a list input: one a line or comma-separated, trimmed, blanks left out. */
function listItems(text: string): string[] {
  return text
    .split(/[\r\n,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

/** A GitHub login or organisation: letters, digits and single inner hyphens, 39 at most. */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/
const TEAM_SLUG = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/

/**
 * Logins (`octocat`, `@octocat`), teams (`org/team`, `@org/team`, sent as the team's slug) and
 * `author`, one a line or comma-separated; a name given twice counts once.
 */
const reviewersInput = z.string().transform((text, ctx): DocsReviewers => {
  const users: string[] = []
  const teams: TeamName[] = []
  let author = false
  for (const item of listItems(text)) {
    const name = item.replace(/^@/, '')
    const [org = '', slug, ...more] = name.split('/')
    if (name.toLowerCase() === 'author') {
      author = true
    } else if (slug === undefined && LOGIN.test(name)) {
      if (!users.some((u) => u.toLowerCase() === name.toLowerCase())) users.push(name)
    } else if (slug !== undefined && more.length === 0 && LOGIN.test(org) && TEAM_SLUG.test(slug)) {
      const team = { org: org.toLowerCase(), slug: slug.toLowerCase() }
      if (!teams.some((t) => t.org === team.org && t.slug === team.slug)) teams.push(team)
    } else {
      ctx.addIssue({
        code: 'custom',
        message:
          `"${forLog(item, 60)}" is not a GitHub login, an org/team name or author ` +
          '(give them one a line or comma-separated)'
      })
      return z.NEVER
    }
  }
  if (users.length + teams.length + (author ? 1 : 0) > MAX_DOCS_REVIEWERS) {
    ctx.addIssue({ code: 'custom', message: `names more than ${MAX_DOCS_REVIEWERS} reviewers` })
    return z.NEVER
  }
  return { users, teams, author }
})

/** Label names, one a line or comma-separated: at most 50 characters each, as GitHub allows. */
const labelsInput = z.string().transform((text, ctx) => {
  const labels: string[] = []
  for (const label of listItems(text)) {
    if (label.length > 50 || hasControlCharacters(label)) {
      ctx.addIssue({
        code: 'custom',
        message: `label "${forLog(label, 60)}" is longer than 50 characters or has control characters`
      })
      return z.NEVER
    }
    if (!labels.some((l) => l.toLowerCase() === label.toLowerCase())) labels.push(label)
  }
  if (labels.length > MAX_DOCS_LABELS) {
    ctx.addIssue({ code: 'custom', message: `names more than ${MAX_DOCS_LABELS} labels` })
    return z.NEVER
  }
  return labels
})

const onCodeClosedInput = z.string().transform((text, ctx) => {
  const value = text.trim().toLowerCase()
  if (value === 'close' || value === 'comment' || value === 'nothing') return value
  ctx.addIssue({
    code: 'custom',
    message: `"${forLog(text, 60)}" is not one of close, comment, nothing`
  })
  return z.NEVER
})

/** The problems found so far; each input is checked even after an earlier one failed. */
type Problems = Error[]

/**
 * Parses one input with `schema`. Its first problem, as an error naming the input, goes to
 * `problems`, and the result is undefined.
 */
function parse<T>(
  problems: Problems,
  name: string,
  schema: z.ZodType<T, string>,
  raw: string
): T | undefined {
  const result = schema.safeParse(raw)
  if (result.success) return result.data
  problems.push(new InputError(name, result.error.issues[0]?.message ?? 'is not valid'))
  return undefined
}

function input(name: string, fallback = ''): string {
  return core.getInput(name) || fallback
}

/** The step's timeout when `timeout` cannot be read: its default, to bound reading prompt-file. */
const DEFAULT_TIMEOUT_MS = 30 * 60_000

/**
 * Reads and checks every input. The API key is masked before anything else happens, so no later
 * log line, however it fails, can show it. Every input is checked, and all the problems are
 * reported in one error (a single problem as its own `InputError`).
 */
export async function readSettings(signal?: AbortSignal): Promise<Settings> {
  const apiKey = core.getInput('api-key')
  const githubToken = core.getInput('github-token')
  const docsToken = core.getInput('docs-token')
  for (const secret of [apiKey, githubToken, docsToken]) {
    if (secret) {
      core.setSecret(secret)
      addSecret(secret)
    }
  }

  const problems: Problems = []
  const warnings: string[] = []
  const dryRun = parse(problems, 'dry-run', booleanInput, input('dry-run', 'false')) ?? false
  // A dry run starts nothing, so it may run without the project and the key.
  const key = dryRun && !apiKey ? '' : parse(problems, 'api-key', apiKeyInput, apiKey)
  if (key && !key.startsWith('mint_')) {
    warnings.push(
      `The api-key does not start with "mint_", the prefix of admin API keys. If requests are ` +
        `refused, create an admin key on ${API_KEYS_PAGE}.`
    )
  }

  const projectId =
    dryRun && !input('project-id')
      ? ''
      : parse(problems, 'project-id', projectIdInput, input('project-id'))
  const baseUrl = parse(
    problems,
    'base-url',
    baseUrlInput,
    input('base-url', 'https://api.mintlify.com')
  )
  const proxy = baseUrl && proxyProblem(baseUrl)
  if (proxy) problems.push(new Error(proxy))
  const wait = parse(problems, 'wait', booleanInput, input('wait', 'true'))
  const failOnNoPr = parse(problems, 'fail-on-no-pr', booleanInput, input('fail-on-no-pr', 'false'))
  const timeoutText = input('timeout', '30m')
  const timeoutMs = parse(problems, 'timeout', durationInput('m'), timeoutText)
  if (timeoutMs !== undefined && isBareNumber(timeoutText)) {
    const minutes = timeoutText.trim()
    core.info(
      `timeout: ${minutes} read as ${minutes} minute${Number(minutes) === 1 ? '' : 's'}, as ` +
        `timeout-minutes counts (write ${minutes}s for seconds).`
    )
  }
  const pollIntervalMs = parse(
    problems,
    'poll-interval',
    durationInput('s'),
    input('poll-interval', '5s')
  )
  const maxPollIntervalMs = parse(
    problems,
    'max-poll-interval',
    durationInput('s'),
    input('max-poll-interval', '15s')
  )
  if (
    pollIntervalMs !== undefined &&
    maxPollIntervalMs !== undefined &&
    maxPollIntervalMs < pollIntervalMs
  ) {
    problems.push(
      new InputError(
        'max-poll-interval',
        `must be at least poll-interval (${formatDuration(pollIntervalMs)}), got ${formatDuration(maxPollIntervalMs)}`
      )
    )
  }
  const context = parse(problems, 'context', autoOrOff, input('context', 'auto'))
  const contextMaxChars = parse(
    problems,
    'context-max-chars',
    contextMaxCharsInput,
    input('context-max-chars', '16000')
  )
  const paths = parse(problems, 'paths', pathsInput, input('paths'))
  const comment = parse(problems, 'comment', autoOrOff, input('comment', 'auto'))
  const check = parse(problems, 'check', autoOrOff, input('check', 'auto'))
  const reuseJob = parse(problems, 'reuse-job', booleanInput, input('reuse-job', 'true'))
  // Read untrimmed, so that a value of only spaces is an error rather than no job id.
  const rawJobId = core.getInput('job-id', { trimWhitespace: false })
  const jobId = rawJobId === '' ? '' : parse(problems, 'job-id', jobIdInput, rawJobId)
  const docsReviewers = parse(problems, 'docs-reviewers', reviewersInput, input('docs-reviewers'))
  const docsLabels = parse(problems, 'docs-labels', labelsInput, input('docs-labels'))
  const onCodeClosed = parse(
    problems,
    'on-code-closed',
    onCodeClosedInput,
    input('on-code-closed', 'close')
  )
  const docsOnly = ['docs-reviewers', 'docs-labels'].filter((name) => input(name).trim() !== '')
  if (!docsToken && docsOnly.length > 0) {
    warnings.push(
      `${docsOnly.join(' and ')} ${docsOnly.length > 1 ? 'have' : 'has'} no effect without ` +
        'docs-token: the docs pull request is left as the agent opened it.'
    )
  }
  const prompt = await readPrompt(
    problems,
    input('prompt'),
    input('prompt-file'),
    Date.now() + (timeoutMs ?? DEFAULT_TIMEOUT_MS),
    signal,
    // A job-id that cannot be used still says that a prompt may be left out.
    rawJobId !== ''
  )

  const [only, ...more] = problems
  if (only && more.length === 0) throw only
  if (only) throw new InputErrors(problems)
  // Each value left undefined left a problem behind, so none is undefined here.
  const defined = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('An input was left unchecked.')
    return value
  }
  return Object.freeze({
    prompt: defined(prompt),
    projectId: defined(projectId),
    apiKey: defined(key),
    baseUrl: defined(baseUrl),
    wait: defined(wait),
    timeoutMs: defined(timeoutMs),
    pollIntervalMs: defined(pollIntervalMs),
    maxPollIntervalMs: defined(maxPollIntervalMs),
    failOnNoPr: defined(failOnNoPr),
    githubToken,
    context: defined(context),
    contextMaxChars: defined(contextMaxChars),
    paths: Object.freeze(defined(paths)),
    jobId: defined(jobId),
    comment: defined(comment),
    check: defined(check),
    reuseJob: defined(reuseJob),
    dryRun,
    docsToken,
    docsReviewers: Object.freeze(defined(docsReviewers)),
    docsLabels: Object.freeze(defined(docsLabels)),
    onCodeClosed: defined(onCodeClosed),
    warnings: Object.freeze(warnings)
  })
}

/**
 * The prompt from `prompt` or from the file named by `prompt-file`. Exactly one must be given,
 * except with `job-id`, where neither means attaching to the job (the prompt is then '').
 * A problem goes to `problems`, and the result is undefined.
 */
async function readPrompt(
  problems: Problems,
  prompt: string,
  promptFile: string,
  deadline: number,
  signal: AbortSignal | undefined,
  optional: boolean
): Promise<string | undefined> {
  const problem = (input: string, message: string) => {
    problems.push(new InputError(input, message))
    return undefined
  }
  if (prompt && promptFile) {
    return problem('prompt-file', 'cannot be used together with prompt; give one of them')
  }
  if (!promptFile) {
    if (optional && !prompt) return ''
    if (!prompt.trim()) {
      return problem('prompt', 'is required (or prompt-file): the instruction for the agent')
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
    return problem('prompt-file', `cannot read "${forLog(promptFile, 200)}": ${reason}`)
  }
  if (!text.trim()) {
    return problem(
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
