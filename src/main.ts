import * as core from '@actions/core'
import { ApiError, CancelledError, cancellation } from './errors.js'
import { Companion, pullRequestOf, type Recorded } from './github/companion.js'
import { readEvent, type Event } from './github/event.js'
import { createGitHubApi, type GitHubApi } from './github/octokit.js'
import { budgetsFor, type GitHubBudgets } from './github/policy.js'
import { readSettings, type Settings } from './inputs.js'
import { mergeJob, type Job } from './job.js'
import { CREATE, MESSAGE, POLL, createMintlifyApi, type MintlifyApi } from './mintlify.js'
import { send, waitForJob, type Schedule } from './poll.js'
import { preparePrompt } from './prompt.js'
import { Reporter, statusComment } from './report.js'
import { bounded, realSleep, type Bounded, type Runtime } from './runtime.js'
import { forLog } from './sanitize.js'
import { createTransport, type Fetch } from './transport.js'
import type { Mode, Outcome, RunRecord } from './verdict.js'
import { USER_AGENT } from './version.js'

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

const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM'] as const

/**
 * The action: read the inputs and the change that started the workflow, find the pull request it
 * belongs to, start a job (or continue one), keep the pull request's status comment, wait for the
 * job, report. Whatever ends the run (success, failure, timeout, cancellation or a bug), the job,
 * once it exists, is reported.
 */
export async function run(options: RunOptions = {}): Promise<void> {
  const now = options.now ?? Date.now
  const started = now()
  const reporter = new Reporter()
  const cancel = new AbortController()
  const onSignal = (signal: NodeJS.Signals) =>
    cancel.abort(new CancelledError(`The workflow was cancelled (${signal}).`))
  const onExternalAbort = () => cancel.abort(new CancelledError('The run was cancelled.'))
  for (const signal of CANCEL_SIGNALS) process.on(signal, onSignal)
  options.signal?.addEventListener('abort', onExternalAbort, { once: true })

  let job: Job | undefined
  let outcome: Outcome = { kind: 'error', error: new Error('The run ended unexpectedly.') }
  let failOnNoPr = false
  let mode: Mode = 'create'
  let comment:
    | { companion: Companion; projectId: string; runUrl?: string; reuse: boolean; note?: string }
    | undefined
  let budgets: GitHubBudgets | undefined
  try {
    const settings = await readSettings(cancel.signal)
    failOnNoPr = settings.failOnNoPr
    for (const warning of settings.warnings) reporter.warning(warning)

    const deadline = started + settings.timeoutMs
    const runtime: Runtime = {
      now,
      sleep: options.sleep ?? realSleep,
      random: options.random ?? Math.random,
      signal: cancel.signal,
      log: reporter
    }
    const schedule: Schedule = {
      deadline,
      initialMs: settings.pollIntervalMs,
      maxMs: settings.maxPollIntervalMs
    }

    // GitHub: the event, and Octokit when there is a token. Every call is best effort.
    const event = readEvent(options.env ?? process.env)
    const github = event
      ? (options.github ?? gitHubFor(settings, options.env ?? process.env, () => deadline, now))
      : undefined
    budgets = budgetsFor(settings.timeoutMs)
    const readBy = now() + budgets.change
    const lookupBy = now() + budgets.lookup
    // The change and the pull request's comment are read at the same time: each GitHub request
    // costs a round trip, and the job cannot start before both are known.
    const [prepared, found] = await Promise.all([
      preparePrompt(
        settings,
        event,
        github,
        bounded(() => Math.min(readBy, deadline) - now(), cancel.signal),
        reporter
      ),
      event && github && settings.comment === 'auto'
        ? openCompanion(
            event,
            github,
            settings,
            bounded(() => Math.min(lookupBy, deadline) - now(), cancel.signal),
            reporter
          )
        : undefined
    ])
    if (cancel.signal.aborted) throw cancellation(cancel.signal)
    if (prepared.skip) {
      outcome = { kind: 'skipped', reason: prepared.skip }
      return
    }

    const companion = found?.companion
    const plan = planJob(settings, prepared.prompt, found, reporter)
    mode = plan.mode
    if (settings.dryRun) {
      const id = forLog(plan.jobId, 100)
      const would = {
        create: 'The prompt a new agent job would be given (dry-run)',
        'follow-up': `The follow-up message agent job ${id} would be sent${plan.reusing ? `, the job recorded on pull request #${companion?.number}` : ''} (dry-run)`,
        attach: `Would attach to agent job ${id} and send it nothing (dry-run)`
      }[mode]
      reporter.prompt(prepared.prompt, would)
      outcome = { kind: 'dry-run' }
      return
    }
    if (companion && settings.comment === 'auto') {
      comment = {
        companion,
        projectId: settings.projectId,
        runUrl: event?.runUrl,
        reuse: settings.reuseJob
      }
    }

    const transport = createTransport({
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey,
      userAgent: USER_AGENT,
      fetch: options.fetch,
      now,
      debug: (message) => reporter.debug(message)
    })
    const api = createMintlifyApi(transport, settings.projectId, now)
    const begun = await begin(plan, settings, prepared.prompt, api, schedule, runtime, reporter)
    job = begun.job
    mode = begun.mode
    const jobId = job.id
    if (!jobId) {
      throw new Error(
        'The API created a job but its answer has no job id, so the job cannot be followed; ' +
          'find it in the Mintlify dashboard.'
      )
    }
    // Without waiting, the start is also the end: the comment is written once, below. While the
    // job runs, the comment is written beside the polling, which never waits for it.
    if (comment) comment.note = begun.note
    if (comment && settings.wait) {
      const { companion, ...state } = comment
      const writeBy = now() + budgets.write
      companion.begin(
        statusComment({ ...state, jobId, mode }),
        (stop) => bounded(() => writeBy - now(), AbortSignal.any([stop, cancel.signal])),
        (url) => reporter.commentUrl(url)
      )
    }

    if (!settings.wait) {
      outcome = { kind: 'started', mode }
      return
    }
    const result = await waitForJob(
      job,
      (timeoutMs, signal) => api.getJob(jobId, timeoutMs, signal),
      schedule,
      runtime,
      { onJob: (latest) => (job = latest), afterMessage: mode === 'follow-up' }
    )
    job = result.job
    outcome =
      result.kind === 'finished'
        ? { kind: 'finished', phase: result.phase }
        : { kind: 'timeout', timeoutMs: settings.timeoutMs }
  } catch (error: unknown) {
    outcome =
      error instanceof CancelledError
        ? { kind: 'cancelled', reason: error.message }
        : { kind: 'error', error }
  } finally {
    for (const signal of CANCEL_SIGNALS) process.off(signal, onSignal)
    options.signal?.removeEventListener('abort', onExternalAbort)
    const record: RunRecord = { job, outcome, elapsedMs: now() - started, failOnNoPr, mode }
    // The last update has a short budget of its own, whatever the deadline and cancellation say:
    // it reports a timeout or a cancellation too.
    if (job?.id && comment && budgets) {
      const { companion, ...state } = comment
      const lastBy = now() + budgets.last
      const body = statusComment({ ...state, jobId: job.id, mode, record })
      reporter.commentUrl(
        await companion.finish(
          body,
          bounded(() => lastBy - now(), new AbortController().signal)
        )
      )
    }
    const failure = await reporter.finish(record)
    if (failure) core.setFailed(failure)
  }
}

/** Octokit for this step, when there is a token to read (and comment) with. */
function gitHubFor(
  settings: Settings,
  env: NodeJS.ProcessEnv,
  deadline: () => number,
  now: () => number
): GitHubApi | undefined {
  if (!settings.githubToken) return undefined
  return createGitHubApi({
    token: settings.githubToken,
    baseUrl: env.GITHUB_API_URL,
    userAgent: USER_AGENT,
    deadline,
    now
  })
}

/** The pull request's companion, and the job its earlier comment records. */
interface Found {
  readonly companion: Companion
  readonly recorded?: Recorded
}

/** The companion for the pull request the change belongs to, if there is one. */
async function openCompanion(
  event: Event,
  github: GitHubApi,
  settings: Settings,
  within: Bounded,
  reporter: Reporter
): Promise<Found | undefined> {
  const number = await pullRequestOf(event, github, within, reporter)
  if (number === undefined) return undefined
  const companion = new Companion(
    github,
    event,
    number,
    settings.projectId,
    reporter,
    settings.reuseJob
  )
  return { companion, recorded: await companion.find(within) }
}

/** What this step does with a job, and with which one. */
interface Plan {
  readonly mode: Mode
  /** The job to continue; '' for a new one. */
  readonly jobId: string
  /** The job is the one the pull request's comment records (`reuse-job`). */
  readonly reusing: boolean
}

/**
 * Starts a job, or continues the one given as `job-id`, or (with `reuse-job`) the one the pull
 * request's status comment records for this project.
 */
function planJob(
  settings: Settings,
  prompt: string,
  found: Found | undefined,
  reporter: Reporter
): Plan {
  const modeFor = (jobId: string): Mode => (jobId ? (prompt ? 'follow-up' : 'attach') : 'create')
  if (settings.jobId) {
    return { mode: modeFor(settings.jobId), jobId: settings.jobId, reusing: false }
  }
  const { recorded, companion } = found ?? {}
  if (!recorded || !settings.reuseJob) return { mode: 'create', jobId: '', reusing: false }
  reporter.info(
    `Pull request #${companion?.number} already has agent job ${forLog(recorded.jobId, 100)} ` +
      '(reuse-job: true): sending the prompt to it as a follow-up.'
  )
  return { mode: 'follow-up', jobId: recorded.jobId, reusing: true }
}

/**
 * Whether the API refused a follow-up message in a way that says the job cannot take one: any
 * 4xx but those about the key (401, 403), time (408) and rate (429), which a new job would meet
 * too.
 */
function cannotGoOn(error: unknown): error is ApiError & { failure: { status: number } } {
  if (!(error instanceof ApiError) || error.failure.kind !== 'http') return false
  const { status } = error.failure
  return status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status)
}

/**
 * Starts the job, sends the follow-up message, or reads the job to attach to, and publishes its
 * id. A job recorded on the pull request that can no longer take a message (see `cannotGoOn`) is
 * replaced by a new one. Returns the job as that request's answer shows it (a created job may lack an id).
 */
async function begin(
  plan: Plan,
  settings: Settings,
  prompt: string,
  api: MintlifyApi,
  schedule: Schedule,
  runtime: Runtime,
  reporter: Reporter
): Promise<{ job: Job; mode: Mode; note?: string }> {
  const where = `project ${settings.projectId} at ${settings.baseUrl.origin}`
  const create = async (note?: string) => {
    reporter.info(`Starting an agent job in ${where}.`)
    const created = await send(
      CREATE,
      (timeoutMs, signal) => api.createJob(prompt, timeoutMs, signal),
      schedule,
      runtime
    )
    if (created.id) reporter.jobCreated(created)
    return { job: created, mode: 'create' as const, note }
  }
  if (plan.mode === 'create') return create()

  const id = plan.jobId
  // The id is known before any request: publish it now, so it survives whatever happens next.
  if (!plan.reusing) reporter.jobId(id)
  if (plan.mode === 'follow-up') {
    reporter.info(`Sending a follow-up message to agent job ${forLog(id, 100)} in ${where}.`)
    let answer: Job
    try {
      answer = await send(
        MESSAGE,
        (timeoutMs, signal) => api.sendMessage(id, prompt, timeoutMs, signal),
        schedule,
        runtime
      )
    } catch (error: unknown) {
      if (!plan.reusing || !cannotGoOn(error)) throw error
      const note =
        `Agent job ${id} recorded on this pull request could not take a message ` +
        `(HTTP ${error.failure.status}), so a new job was started.`
      reporter.info(`${forLog(note, 300)} ${error.message}`)
      return create(note)
    }
    const job = mergeJob({ id }, answer)
    reporter.jobCreated(job, 'Sent a follow-up message to')
    return { job, mode: 'follow-up' }
  }
  reporter.info(`Attaching to agent job ${forLog(id, 100)} in ${where}; nothing is sent to it.`)
  const answer = await send(
    POLL,
    (timeoutMs, signal) => api.getJob(id, timeoutMs, signal),
    schedule,
    runtime
  )
  const job = mergeJob({ id }, answer)
  reporter.jobCreated(job, 'Attached to')
  return { job, mode: 'attach' }
}
