/** One step's edges: its time, one budget with named phases, and its clients of the services. */
import type { GitHubApi } from '../clients/github/api.js'
import type { DocsReaders } from '../clients/github/docs-pull.js'
import type { Event } from '../given/event.js'
import { createGitHubApi } from '../clients/github/client.js'
import { budgetsFor, type GitHubBudgets } from '../clients/github/policy.js'
import { USER_AGENT } from '../base/http.js'
import type { Settings } from '../given/inputs.js'
import { createMintlifyApi, type MintlifyApi } from '../clients/mintlify/api.js'
import { createPreviewApi, type PreviewApi } from '../clients/mintlify/preview.js'
import type { Schedule } from '../clients/mintlify/poll.js'
import { createTransport, type Fetch } from '../clients/mintlify/transport.js'
import { CancelledError } from '../base/errors.js'
import { realSleep, withinTime } from '../base/runtime.js'
import type { LastTime, Log, Runtime, Within } from '../base/runtime.js'

/** Seams for tests and local runs; a real run uses none of them. */
export interface RunOptions {
  fetch?: Fetch
  now?: () => number
  sleep?: Runtime['sleep']
  random?: () => number
  /** Aborting it cancels the run, as SIGINT or SIGTERM from the runner does. */
  signal?: AbortSignal
  env?: NodeJS.ProcessEnv
  github?: GitHubApi
}

export type StepPhase =
  'change' | 'lookup' | 'close' | 'job' | 'write' | 'held' | 'preview' | 'after'

/** The longest a preview is followed: one stuck in a queue never holds the step; docs are ready. */
export const PREVIEW_MS = 10 * 60_000

/**
 * When a phase begun at `now` ends. Reading, following a closed pull request, the job and its
 * preview: by the deadline. A write beside the job (never delaying polling): its budget; one safe
 * to send again: the step's end; the reads after the job: the last budget, leaving writes half.
 */
export function phaseEnd(
  phase: StepPhase,
  now: number,
  deadline: number,
  b: GitHubBudgets
): number {
  switch (phase) {
    case 'change':
    case 'lookup':
      return Math.min(now + b[phase], deadline)
    case 'close':
      return Math.min(now + b.write, deadline)
    case 'job':
      return deadline
    case 'preview':
      return Math.min(now + PREVIEW_MS, deadline)
    case 'write':
      return now + b.write
    case 'held':
      return deadline + b.last
    case 'after':
      return Math.min(now + b.last, deadline + b.last / 2)
  }
}

/**
 * The last writes' time from `now`: their budget, by the deadline plus it (at least 1 ms, so the
 * first is tried); a write GitHub holds may wait out the deadline, the one after it the step's end.
 */
export function lastWindow(
  now: number,
  deadline: number,
  lastMs: number
): Pick<LastTime, 'by' | 'heldBy' | 'end' | 'lastMs'> {
  const by = now + Math.max(1, Math.min(lastMs, deadline + lastMs - now))
  if (!Number.isFinite(deadline)) return { by, heldBy: by, end: by, lastMs }
  return { by, heldBy: Math.max(by, deadline), end: Math.max(by, deadline + lastMs), lastMs }
}

const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM'] as const

/**
 * The step's one time budget: the deadline once the settings are read, each phase's bounds, and
 * the last writes' own budget past it. SIGINT, SIGTERM or `options.signal` cancel the run; once
 * the last writes begin, a signal stops them instead, so the outputs and summary are still written.
 */
export class StepTime {
  readonly now: () => number
  readonly sleep: Runtime['sleep']
  /** When the step's time is up: never, until the settings are read. */
  private end = Infinity
  private timeout = 0
  private budgets = budgetsFor(Infinity)
  private pace = { initialMs: 0, maxMs: 0 }
  private readonly cancel = new AbortController()
  private readonly stopLast = new AbortController()
  private finishing = false
  private readonly external?: AbortSignal
  private readonly onSignal = (signal: NodeJS.Signals) =>
    this.finishing
      ? this.stopLast.abort()
      : this.cancel.abort(new CancelledError(`The workflow was cancelled (${signal}).`))
  private readonly onExternal = () =>
    this.cancel.abort(new CancelledError('The run was cancelled.'))

  constructor(options: Pick<RunOptions, 'now' | 'sleep' | 'signal'> = {}) {
    this.now = options.now ?? Date.now
    this.sleep = options.sleep ?? realSleep
    this.external = options.signal
    for (const signal of CANCEL_SIGNALS) process.on(signal, this.onSignal)
    this.external?.addEventListener('abort', this.onExternal, { once: true })
  }

  get signal(): AbortSignal {
    return this.cancel.signal
  }

  get deadline(): number {
    return this.end
  }

  get timeoutMs(): number {
    return this.timeout
  }

  /** The step's `timeout` starts now, on the settings' pace. */
  begin(settings: Pick<Settings, 'timeoutMs' | 'pollIntervalMs' | 'maxPollIntervalMs'>): void {
    this.timeout = settings.timeoutMs
    this.end = this.now() + settings.timeoutMs
    this.budgets = budgetsFor(settings.timeoutMs)
    this.pace = { initialMs: settings.pollIntervalMs, maxMs: settings.maxPollIntervalMs }
  }

  /** Bounds a phase's calls, from now: to its end, the run's cancellation and `stop`. */
  within(phase: StepPhase, stop?: AbortSignal): Within {
    const at = phaseEnd(phase, this.now(), this.deadline, this.budgets)
    const signal = stop ? AbortSignal.any([stop, this.signal]) : this.signal
    return withinTime(() => at - this.now(), signal)
  }

  /** The schedule a phase's requests are retried or polled on, from now, ending with the phase. */
  schedule(phase: StepPhase): Schedule {
    return { ...this.pace, deadline: phaseEnd(phase, this.now(), this.deadline, this.budgets) }
  }

  /** The last writes begin: their time from now; a signal from the runner stops them. */
  last(): LastTime {
    this.finishing = true
    this.external?.removeEventListener('abort', this.onExternal)
    const { now, sleep } = this
    const stop = this.stopLast.signal
    const window = lastWindow(now(), this.deadline, this.budgets.last)
    return { now, sleep, until: (at) => withinTime(() => at - now(), stop), stop, ...window }
  }

  release(): void {
    for (const signal of CANCEL_SIGNALS) process.off(signal, this.onSignal)
    this.external?.removeEventListener('abort', this.onExternal)
  }
}

export interface Step extends Runtime {
  readonly time: StepTime
  /** GitHub for `token` at `GITHUB_API_URL`, its retries and rate-limit waits within the step. */
  readonly gitHub: (token: string) => GitHubApi
  readonly mintlify: () => MintlifyApi
  readonly previews?: () => PreviewApi
}

/** The step of `settings`: its time begins now. */
export function stepOf(settings: Settings, options: RunOptions, time: StepTime, log: Log): Step {
  time.begin(settings)
  const { now } = time
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
  return {
    now,
    sleep: time.sleep,
    random: options.random ?? Math.random,
    signal: time.signal,
    log,
    time,
    gitHub: (token) =>
      createGitHubApi({
        token,
        baseUrl: env.GITHUB_API_URL,
        userAgent: USER_AGENT,
        deadline: () => time.deadline,
        now
      }),
    mintlify: () => createMintlifyApi(transport(), settings.projectId, now),
    previews: () => createPreviewApi(transport(), settings.projectId, now)
  }
}

/** GitHub for the workflow token (or `options.github`) and docs-token; none outside a workflow. */
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
