/**
 * One step's edges, derived from its settings: the clock, the deadline and the poll schedule, the
 * GitHub budgets and the bounds they give, the clients (Mintlify, and GitHub for a token), and
 * the runner's signals. `main.ts` tells the story over them; tests replace the clock, the fetch
 * and GitHub through `RunOptions`.
 */
import type { GitHubApi } from './github/api.js'
import type { DocsReaders } from './github/docs-pull.js'
import type { Event } from './trigger/event.js'
import { createGitHubApi } from './github/client.js'
import { budgetsFor, type GitHubBudgets } from './github/policy.js'
import { USER_AGENT } from './http.js'
import type { Settings } from './inputs.js'
import { createMintlifyApi, type MintlifyApi } from './mintlify/api.js'
import { createPreviewApi, type PreviewApi } from './mintlify/preview.js'
import type { Schedule } from './mintlify/poll.js'
import { createTransport, type Fetch } from './mintlify/transport.js'
import { CancelledError } from './errors.js'
import {
  afterJobBy,
  realSleep,
  withinTime,
  type Log,
  type Runtime,
  type Within
} from './runtime.js'

/** Seams for tests and local runs; a real run uses none of them. */
export interface RunOptions {
  fetch?: Fetch
  now?: () => number
  sleep?: Runtime['sleep']
  random?: () => number
  /** Aborting it cancels the run, as SIGINT or SIGTERM from the runner does. */
  signal?: AbortSignal
  /** The runner's environment (`GITHUB_*`), read for the triggering event. */
  env?: NodeJS.ProcessEnv
  /** GitHub, instead of Octokit against `GITHUB_API_URL`. */
  github?: GitHubApi
}

/** The clock, the schedule, the GitHub budgets and the clients of one step. */
export interface Step extends Runtime {
  readonly schedule: Schedule
  /**
   * The schedule of a read made before the plan (a recorded job): its retries end within the
   * `lookup` budget from now, so a job that cannot be read leaves the step its time.
   */
  readonly lookupSchedule: () => Schedule
  readonly budgets: GitHubBudgets
  readonly env: NodeJS.ProcessEnv
  /** Bounds GitHub calls to `ms` from now, the deadline and the step's cancellation. */
  readonly within: (ms: number) => Within
  /** Bounds for a write made while the job runs: the `write` budget, or sooner when stopped. */
  readonly withinWrite: (stop: AbortSignal) => Within
  /**
   * Bounds the reads made once the job ended: the `last` budget, past the deadline if need be,
   * but never so far past it that the last writes lose more than half of theirs.
   */
  readonly afterJob: () => Within
  /** GitHub for `token` at `GITHUB_API_URL`, its retries and rate-limit waits within the step. */
  readonly gitHub: (token: string) => GitHubApi
  /** The Mintlify API for this step, over the transport that applies its request policy. */
  readonly mintlify: () => MintlifyApi
  /** The preview deployment routes, over the same transport and key. */
  readonly previews?: () => PreviewApi
}

export function stepOf(
  settings: Settings,
  options: RunOptions,
  signal: AbortSignal,
  log: Log
): Step {
  const now = options.now ?? Date.now
  const deadline = now() + settings.timeoutMs
  const budgets = budgetsFor(settings.timeoutMs)
  const until = (at: number, stop: AbortSignal) => withinTime(() => at - now(), stop)
  const env = options.env ?? process.env
  const transport = () =>
    createTransport({
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey,
      userAgent: USER_AGENT,
      fetch: options.fetch,
      now,
      debug: (message) => log.debug(message)
    })
  const schedule = {
    deadline,
    initialMs: settings.pollIntervalMs,
    maxMs: settings.maxPollIntervalMs
  }
  return {
    now,
    sleep: options.sleep ?? realSleep,
    random: options.random ?? Math.random,
    signal,
    log,
    env,
    schedule,
    lookupSchedule: () => ({
      ...schedule,
      deadline: Math.min(deadline, now() + budgets.lookup)
    }),
    budgets,
    within: (ms) => until(Math.min(now() + ms, deadline), signal),
    withinWrite: (stop) => until(now() + budgets.write, AbortSignal.any([stop, signal])),
    afterJob: () => until(afterJobBy(now(), deadline, budgets.last), signal),
    gitHub: (token) =>
      createGitHubApi({
        token,
        baseUrl: env.GITHUB_API_URL,
        userAgent: USER_AGENT,
        deadline: () => deadline,
        now
      }),
    mintlify: () => createMintlifyApi(transport(), settings.projectId, now),
    previews: () => createPreviewApi(transport(), settings.projectId, now)
  }
}

/**
 * GitHub for the workflow token (the one `RunOptions` gives, in tests) and for `docs-token`, in a
 * workflow run; none outside one.
 */
export function gitHubsOf(
  settings: Settings,
  options: RunOptions,
  step: Step,
  event: Event | undefined
): DocsReaders {
  if (!event) return {}
  const { githubToken, docsToken } = settings
  return {
    workflow: options.github ?? (githubToken ? step.gitHub(githubToken) : undefined),
    docs: docsToken ? step.gitHub(docsToken) : undefined,
    agents: settings.agentAccounts
  }
}

const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM'] as const

/**
 * A signal that aborts when the runner sends SIGINT or SIGTERM, or `external` aborts. Once the
 * last writes begin (`finishing`), a signal stops them instead, so the outputs and the summary are
 * still written before the step ends; `release` stops listening once they are.
 */
export function cancelOnSignals(external?: AbortSignal): {
  signal: AbortSignal
  finishing(): AbortSignal
  release(): void
} {
  const controller = new AbortController()
  const last = new AbortController()
  let finishing = false
  const onSignal = (signal: NodeJS.Signals) =>
    finishing
      ? last.abort()
      : controller.abort(new CancelledError(`The workflow was cancelled (${signal}).`))
  const onExternal = () => controller.abort(new CancelledError('The run was cancelled.'))
  for (const signal of CANCEL_SIGNALS) process.on(signal, onSignal)
  external?.addEventListener('abort', onExternal, { once: true })
  return {
    signal: controller.signal,
    finishing() {
      finishing = true
      external?.removeEventListener('abort', onExternal)
      return last.signal
    },
    release() {
      for (const signal of CANCEL_SIGNALS) process.off(signal, onSignal)
      external?.removeEventListener('abort', onExternal)
    }
  }
}
