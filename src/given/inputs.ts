import * as core from '@actions/core'
import type { z } from 'zod'
import { formatDuration, isBareNumber } from '../base/duration.js'
import { API_KEYS_PAGE, InputError, InputErrors, SecretsWithheldError } from '../base/errors.js'
import { addSecret } from '../base/secrets/redact.js'
import { proxyProblem } from '../base/http.js'
import * as names from './inputs/names.js'
import * as parsers from './inputs/parse.js'
import { readPrompt } from './inputs/prompt-file.js'
import { unknownInputs, unknownInputWords, type UnknownInput } from './inputs/unknown.js'
import { withheldSecrets, withheldWords } from './inputs/withheld.js'
import { commentRun, type Event } from './event.js'

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
  readonly githubToken: string
  /** `auto`: append the triggering change to the prompt. */
  readonly context: 'auto' | 'off'
  readonly contextMaxChars: number
  /** Glob patterns; empty when every change counts. */
  readonly paths: readonly string[]
  /** An existing job to continue (with a prompt: a follow-up message) or attach to; '' for none. */
  readonly jobId: string
  /** `auto`: one status comment on the pull request the change belongs to. */
  readonly comment: 'auto' | 'off'
  /** `auto`: the docs check (a commit status) on the code change's head commit. */
  readonly check: 'auto' | 'off'
  /** `auto`: a preview deployment of the docs pull request's branch, followed. */
  readonly preview: 'auto' | 'off'
  /** Send the prompt to the job the pull request's comment records instead of starting one. */
  readonly reuseJob: boolean
  readonly dryRun: boolean
  /** Token for a docs repository of its own; without it a docs pull request there is left alone. */
  readonly docsToken: string
  /** Lower-case logins whose pull requests and commits are the agent's own work. */
  readonly agentAccounts: readonly string[]
  readonly docsReviewers: names.DocsReviewers
  readonly docsLabels: readonly string[]
  /** What a code pull request closed without merging does to its docs pull request. */
  readonly onCodeClosed: 'close' | 'comment' | 'nothing'
  readonly warnings: readonly string[]
}

/** One input parsed with `schema`; undefined, its first problem in `problems`, if it fails. */
function parse<T>(
  problems: Error[],
  name: string,
  schema: z.ZodType<T, string>,
  raw: string
): T | undefined {
  const result = schema.safeParse(raw)
  if (result.success) return result.data
  problems.push(new InputError(name, result.error.issues[0]?.message ?? 'is not valid'))
  return undefined
}

// Each input is read on every run: a variable that names none of these is a misspelt input.
const readInputs = new Set<string>()

function getInput(name: string, options?: core.InputOptions): string {
  readInputs.add(name)
  return core.getInput(name, options)
}

function input(name: string, fallback = ''): string {
  return getInput(name) || fallback
}

/**
 * The error the problems make: a skip when they are only the secrets GitHub withheld, else each
 * problem with a misspelt variable's hint, and the other misspelt variables after them.
 */
function refusal(
  problems: Error[],
  unknown: readonly UnknownInput[],
  event: Event | undefined,
  raw: { readonly 'api-key': string; readonly 'project-id': string }
): Error {
  const meant = new Set(unknown.map((u) => u.suggestion))
  const empty: string[] = (['api-key', 'project-id'] as const).filter((n) => !raw[n].trim())
  const why = withheldSecrets(event)
  const onlySecrets = problems.every((p) => p instanceof InputError && empty.includes(p.input))
  // A misspelt api-key is a mistake to fix, even where GitHub gives no secrets.
  if (why && onlySecrets && !empty.some((name) => meant.has(name))) {
    return new SecretsWithheldError(withheldWords(empty, why))
  }
  const hinted = problems.map((problem) => {
    if (!(problem instanceof InputError)) return problem
    const given = unknown.filter((u) => u.suggestion === problem.input)
    if (given.length === 0) return problem
    const names = given.map((u) => `"${u.name}" (${u.variable})`).join(' and ')
    return new InputError(
      problem.input,
      `${problem.message.slice(`Input "${problem.input}": `.length)}. The step was given ${names}, ` +
        `which is not an input of this action: did you mean ${problem.input}?`
    )
  })
  const others = unknown.filter(
    (u) => !problems.some((p) => p instanceof InputError && p.input === u.suggestion)
  )
  const [only, ...more] = hinted
  const error = only && more.length === 0 ? only : new InputErrors(hinted)
  if (others.length > 0) {
    error.message += `\nAlso: ${others.map(unknownInputWords).join('\nAlso: ')}`
  }
  return error
}

/** The step's timeout when `timeout` cannot be read: its default, to bound reading prompt-file. */
const DEFAULT_TIMEOUT_MS = 30 * 60_000

/**
 * Reads and checks every input, the API key masked first so that no later line can show it. All
 * the problems make one error; a misspelt `INPUT_*` variable gets a warning, or joins the error
 * about the input it meant. When the only problems are an empty `api-key` or `project-id` on a
 * run GitHub gives no secrets (`event`), the error is a `SecretsWithheldError`: the run skips.
 */
export async function readSettings(signal?: AbortSignal, event?: Event): Promise<Settings> {
  const apiKey = getInput('api-key')
  const githubToken = getInput('github-token')
  const docsToken = getInput('docs-token')
  const secrets = [apiKey, githubToken, docsToken]
  const mask = (secret: string) => {
    core.setSecret(secret)
    addSecret(secret)
  }
  for (const secret of secrets) if (secret) mask(secret)
  // A project id that is really a key (the two swapped) is refused below, and shown by no line.
  const rawProjectId = input('project-id')
  if (parsers.looksLikeSecret(rawProjectId, secrets)) mask(rawProjectId)

  const problems: Error[] = []
  const warnings: string[] = []
  const read = <T>(name: string, schema: z.ZodType<T, string>, fallback = '') =>
    parse(problems, name, schema, input(name, fallback))
  const dryRun = read('dry-run', parsers.booleanInput, 'false') ?? false
  // A dry run starts nothing, so it may run without the project and the key.
  const key = dryRun && !apiKey ? '' : parse(problems, 'api-key', parsers.apiKeyInput, apiKey)
  if (key && !key.startsWith('mint_')) {
    warnings.push(
      `The api-key does not start with "mint_", the prefix of admin API keys. If requests are ` +
        `refused, create an admin key on ${API_KEYS_PAGE}.`
    )
  }
  const projectId =
    dryRun && !rawProjectId
      ? ''
      : parse(problems, 'project-id', parsers.projectIdInput(secrets), rawProjectId)
  const baseUrl = read('base-url', parsers.baseUrlInput, 'https://api.mintlify.com')
  const proxy = baseUrl && proxyProblem(baseUrl)
  if (proxy) problems.push(new Error(proxy))
  const wait = read('wait', parsers.booleanInput, 'true')
  const failOnNoPr = read('fail-on-no-pr', parsers.booleanInput, 'false')
  const timeoutText = input('timeout', '30m')
  const timeoutMs = parse(problems, 'timeout', parsers.timeoutInput, timeoutText)
  if (timeoutMs !== undefined && isBareNumber(timeoutText)) {
    const minutes = timeoutText.trim()
    core.info(
      `timeout: ${minutes} read as ${minutes} minute${Number(minutes) === 1 ? '' : 's'}, as ` +
        `timeout-minutes counts (write ${minutes}s for seconds).`
    )
  }
  const pollIntervalMs = read('poll-interval', parsers.pollIntervalInput, '5s')
  const maxPollIntervalMs = read('max-poll-interval', parsers.pollIntervalInput, '15s')
  const [least, most] = [pollIntervalMs, maxPollIntervalMs]
  if (least !== undefined && most !== undefined && most < least) {
    const got = `(${formatDuration(least)}), got ${formatDuration(most)}`
    problems.push(new InputError('max-poll-interval', `must be at least poll-interval ${got}`))
  }
  const context = read('context', parsers.autoOrOff, 'auto')
  const contextMaxChars = read('context-max-chars', parsers.contextMaxCharsInput, '16000')
  const paths = read('paths', parsers.pathsInput)
  const comment = read('comment', parsers.autoOrOff, 'auto')
  const check = read('check', parsers.autoOrOff, 'auto')
  const preview = read('preview', parsers.autoOrOff, 'auto')
  const reuseJob = read('reuse-job', parsers.booleanInput, 'true')
  // Read untrimmed, so that a value of only spaces is an error rather than no job id.
  const rawJobId = getInput('job-id', { trimWhitespace: false })
  const jobId = rawJobId === '' ? '' : parse(problems, 'job-id', parsers.jobIdInput, rawJobId)
  const docsReviewers = read('docs-reviewers', names.reviewersInput)
  const docsLabels = read('docs-labels', names.labelsInput)
  const onCodeClosed = read('on-code-closed', parsers.onCodeClosedInput, 'close')
  // Read untrimmed, so that a value of only spaces is an error rather than the default.
  const rawAccounts = getInput('agent-accounts', { trimWhitespace: false })
  const agentAccounts = parse(
    problems,
    'agent-accounts',
    names.agentAccountsInput,
    rawAccounts === '' ? names.AGENT_ACCOUNT : rawAccounts
  )
  const prompt = await readPrompt(problems, {
    prompt: input('prompt'),
    promptFile: input('prompt-file'),
    // Where the runner checked out the repository; outside a runner, where the step runs.
    workspace: process.env.GITHUB_WORKSPACE || process.cwd(),
    deadline: Date.now() + (timeoutMs ?? DEFAULT_TIMEOUT_MS),
    signal,
    // With a job-id, even one that cannot be used, or a /docs command, the prompt may be left out.
    optional: rawJobId !== '' || commentRun(event)
  })

  const unknown = unknownInputs(process.env, [...readInputs])
  if (problems.length > 0) {
    throw refusal(problems, unknown, event, { 'api-key': apiKey, 'project-id': rawProjectId })
  }
  for (const name of unknown) warnings.push(unknownInputWords(name))
  return Object.freeze({
    ...allDefined({
      prompt,
      projectId,
      apiKey: key,
      baseUrl,
      wait,
      timeoutMs,
      pollIntervalMs,
      maxPollIntervalMs,
      failOnNoPr,
      context,
      contextMaxChars,
      paths: paths && Object.freeze(paths),
      jobId,
      comment,
      check,
      preview,
      reuseJob,
      agentAccounts: agentAccounts && Object.freeze(agentAccounts),
      docsReviewers: docsReviewers && Object.freeze(docsReviewers),
      docsLabels: docsLabels && Object.freeze(docsLabels),
      onCodeClosed
    }),
    githubToken,
    dryRun,
    docsToken,
    warnings: Object.freeze(warnings)
  })
}

/** `values`, none undefined: an undefined one left a problem behind, and problems stop the run. */
function allDefined<T extends object>(values: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) throw new Error(`The input behind ${name} was left unchecked.`)
  }
  return values as { [K in keyof T]: Exclude<T[K], undefined> }
}
