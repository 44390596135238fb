import * as core from '@actions/core'
import type { z } from 'zod'
import { formatDuration, isBareNumber } from './duration.js'
import { API_KEYS_PAGE, InputError, InputErrors, SecretsWithheldError } from './errors.js'
import { addSecret } from './secrets/redact.js'
import { proxyProblem } from './http.js'
import {
  MIN_POLL_INTERVAL_MS,
  MIN_TIMEOUT_MS,
  apiKeyInput,
  autoOrOff,
  baseUrlInput,
  booleanInput,
  contextMaxCharsInput,
  durationInput,
  jobIdInput,
  looksLikeSecret,
  onCodeClosedInput,
  pathsInput,
  projectIdInput
} from './inputs/parse.js'
import {
  AGENT_ACCOUNT,
  agentAccountsInput,
  labelsInput,
  reviewersInput,
  type DocsReviewers
} from './inputs/names.js'
import { readPrompt } from './inputs/prompt-file.js'
import { unknownInputs, unknownInputWords, type UnknownInput } from './inputs/unknown.js'
import { withheldSecrets, withheldWords } from './inputs/withheld.js'
import { commentRun, type Event } from './trigger/event.js'

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
  /** `auto`: request and follow a preview deployment of the docs pull request's branch; `off`: none. */
  readonly preview: 'auto' | 'off'
  /** Send the prompt to the job the pull request's comment records instead of starting one. */
  readonly reuseJob: boolean
  /** Do everything up to starting the job, print the prompt, start nothing. */
  readonly dryRun: boolean
  /**
   * Token for a docs repository of its own; empty: a docs pull request there is left alone (one
   * in the code repository is followed with the workflow token).
   */
  readonly docsToken: string
  /** Lower-case logins whose pull requests and commits are the agent's own work. */
  readonly agentAccounts: readonly string[]
  /** Who is asked to review the docs pull request. */
  readonly docsReviewers: DocsReviewers
  /** Labels added to the docs pull request. */
  readonly docsLabels: readonly string[]
  /** What a code pull request closed without merging does to its docs pull request. */
  readonly onCodeClosed: 'close' | 'comment' | 'nothing'
  /** Things worth telling the user that do not stop the run. */
  readonly warnings: readonly string[]
}

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

/**
 * Every input read so far: the inputs of the action, since each is read on every run (a test
 * holds them to `action.yml`). A variable that names none of them is a misspelt input.
 */
const readInputs = new Set<string>()

/** `core.getInput`, remembering the name as an input of the action. */
function getInput(name: string, options?: core.InputOptions): string {
  readInputs.add(name)
  return core.getInput(name, options)
}

function input(name: string, fallback = ''): string {
  return getInput(name) || fallback
}

/**
 * The error the problems make: a skip when they are only the secrets GitHub withheld from this
 * run; else each problem, with the hint of a variable that named its input wrongly, and the
 * other variables that named no input after them (a run that fails gives no warnings).
 */
function refusal(
  problems: Problems,
  unknown: readonly UnknownInput[],
  event: Event | undefined,
  raw: { readonly apiKey: string; readonly rawProjectId: string }
): Error {
  const meant = new Set(unknown.flatMap((u) => (u.suggestion ? [u.suggestion] : [])))
  const empty = [
    ['api-key', raw.apiKey],
    ['project-id', raw.rawProjectId]
  ].flatMap(([name = '', value = '']) => (value.trim() === '' ? [name] : []))
  const why = withheldSecrets(event)
  const onlySecrets = problems.every((p) => p instanceof InputError && empty.includes(p.input))
  // A misspelt api-key is a mistake to fix, even where GitHub gives no secrets.
  if (why && onlySecrets && !empty.some((name) => meant.has(name))) {
    return new SecretsWithheldError(withheldWords(empty, why))
  }
  const hinted = problems.map((problem) => {
    const given = unknown.filter(
      (u) => problem instanceof InputError && u.suggestion === problem.input
    )
    if (!(problem instanceof InputError) || given.length === 0) return problem
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

const timeoutInput = durationInput(
  'm',
  MIN_TIMEOUT_MS,
  'the shortest in which the step can start the job and still look at it before its deadline'
)

/** `poll-interval` and `max-poll-interval`, which also pace the retries of a failed request. */
const pollIntervalInput = durationInput(
  's',
  MIN_POLL_INTERVAL_MS,
  'status checks and retries more often than once a second only load the API'
)

/**
 * Reads and checks every input. The API key is masked before anything else happens, so no later
 * log line, however it fails, can show it. Every input is checked, and all the problems are
 * reported in one error (a single problem as its own `InputError`). An `INPUT_*` variable that
 * names no input gets a warning naming the nearest one, and its hint joins the error about the
 * input it most likely meant.
 *
 * `event` is the run's event (`readEvent`): when the only problems are an empty `api-key` or
 * `project-id` on a run GitHub gives no secrets (a fork's pull request, Dependabot), the error is
 * a `SecretsWithheldError`, which skips the run instead of failing it.
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
  // A project id that is really a key (the two secrets swapped) is masked too, before anything
  // is printed: it is refused below, and no line may show it.
  const rawProjectId = input('project-id')
  if (looksLikeSecret(rawProjectId, secrets)) mask(rawProjectId)

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
    dryRun && !rawProjectId
      ? ''
      : parse(problems, 'project-id', projectIdInput(secrets), rawProjectId)
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
  const timeoutMs = parse(problems, 'timeout', timeoutInput, timeoutText)
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
    pollIntervalInput,
    input('poll-interval', '5s')
  )
  const maxPollIntervalMs = parse(
    problems,
    'max-poll-interval',
    pollIntervalInput,
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
  const preview = parse(problems, 'preview', autoOrOff, input('preview', 'auto'))
  const reuseJob = parse(problems, 'reuse-job', booleanInput, input('reuse-job', 'true'))
  // Read untrimmed, so that a value of only spaces is an error rather than no job id.
  const rawJobId = getInput('job-id', { trimWhitespace: false })
  const jobId = rawJobId === '' ? '' : parse(problems, 'job-id', jobIdInput, rawJobId)
  const docsReviewers = parse(problems, 'docs-reviewers', reviewersInput, input('docs-reviewers'))
  const docsLabels = parse(problems, 'docs-labels', labelsInput, input('docs-labels'))
  const onCodeClosed = parse(
    problems,
    'on-code-closed',
    onCodeClosedInput,
    input('on-code-closed', 'close')
  )
  // Read untrimmed, so that a value of only spaces is an error rather than the default.
  const rawAccounts = getInput('agent-accounts', { trimWhitespace: false })
  const agentAccounts = parse(
    problems,
    'agent-accounts',
    agentAccountsInput,
    rawAccounts === '' ? AGENT_ACCOUNT : rawAccounts
  )
  const prompt = await readPrompt(problems, {
    prompt: input('prompt'),
    promptFile: input('prompt-file'),
    // Where the runner checked out the repository; outside a runner, where the step runs.
    workspace: process.env.GITHUB_WORKSPACE || process.cwd(),
    deadline: Date.now() + (timeoutMs ?? DEFAULT_TIMEOUT_MS),
    signal,
    // A job-id that cannot be used still says that a prompt may be left out; on issue_comment a
    // /docs command brings the request, and the prompt only comes before it.
    optional: rawJobId !== '' || commentRun(event)
  })

  // Every input has been read by now, so each is known.
  const unknown = unknownInputs(process.env, [...readInputs])
  if (problems.length > 0) throw refusal(problems, unknown, event, { apiKey, rawProjectId })
  for (const name of unknown) warnings.push(unknownInputWords(name))
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
    preview: defined(preview),
    reuseJob: defined(reuseJob),
    dryRun,
    docsToken,
    agentAccounts: Object.freeze(defined(agentAccounts)),
    docsReviewers: Object.freeze(defined(docsReviewers)),
    docsLabels: Object.freeze(defined(docsLabels)),
    onCodeClosed: defined(onCodeClosed),
    warnings: Object.freeze(warnings)
  })
}
