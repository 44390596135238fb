import * as core from '@actions/core'
import { matchesPaths, withContext } from './context.js'
import { CancelledError, cancellation } from './errors.js'
import { changeFromPayload, readChange } from './github/change.js'
import { readEvent } from './github/event.js'
import { createGitHubApi, type GitHubApi } from './github/octokit.js'
import { readSettings, type Settings } from './inputs.js'
import { mergeJob, type Job } from './job.js'
import { CREATE, MESSAGE, POLL, createMintlifyApi, type MintlifyApi } from './mintlify.js'
import { send, waitForJob, type Schedule } from './poll.js'
import { Reporter } from './report.js'
import { abortAfter, realSleep, untilAborted, type Runtime } from './runtime.js'
import { forLog } from './sanitize.js'
import { createTransport, type Fetch } from './transport.js'
import type { Mode, Outcome } from './verdict.js'
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

/** Longest time spent reading the change from GitHub, and never more than this share of timeout. */
export const CHANGE_BUDGET_MS = 15_000
export const CHANGE_BUDGET_SHARE = 0.25

const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM'] as const

/**
 * The action: read the inputs, read the change that started the workflow, create the agent job,
 * wait for it to finish, report. Whatever ends the run (success, failure, timeout, cancellation or
 * a bug), the job, once it exists, is reported.
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

    const prepared = await preparePrompt(settings, deadline, options, reporter, cancel.signal)
    if (prepared.skip) {
      outcome = { kind: 'skipped', reason: prepared.skip }
      return
    }
    const mode: Mode = settings.jobId ? (prepared.prompt ? 'follow-up' : 'attach') : 'create'
    if (settings.dryRun) {
      const id = forLog(settings.jobId, 100)
      const would = {
        create: 'The prompt a new agent job would be given (dry-run)',
        'follow-up': `The follow-up message agent job ${id} would be sent (dry-run)`,
        attach: `Would attach to agent job ${id} and send it nothing (dry-run)`
      }[mode]
      reporter.prompt(prepared.prompt, would)
      outcome = { kind: 'dry-run' }
      return
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

    job = await begin(mode, settings, prepared.prompt, api, schedule, runtime, reporter)
    const jobId = job.id
    if (!jobId) {
      throw new Error(
        'The API created a job but its answer has no job id, so the job cannot be followed; ' +
          'find it in the Mintlify dashboard.'
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
    const failure = await reporter.finish({ job, outcome, elapsedMs: now() - started, failOnNoPr })
    if (failure) core.setFailed(failure)
  }
}

/**
 * Starts the job, sends the follow-up message, or reads the job to attach to, and publishes its
 * id. Returns the job as that request's answer shows it (a created job may lack an id).
 */
async function begin(
  mode: Mode,
  settings: Settings,
  prompt: string,
  api: MintlifyApi,
  schedule: Schedule,
  runtime: Runtime,
  reporter: Reporter
): Promise<Job> {
  const where = `project ${settings.projectId} at ${settings.baseUrl.origin}`
  if (mode === 'create') {
    reporter.info(`Starting an agent job in ${where}.`)
    const created = await send(
      CREATE,
      (timeoutMs, signal) => api.createJob(prompt, timeoutMs, signal),
      schedule,
      runtime
    )
    if (created.id) reporter.jobCreated(created)
    return created
  }

  const id = settings.jobId
  // The id is known before any request: publish it now, so it survives whatever happens next.
  reporter.jobId(id)
  if (mode === 'follow-up') {
    reporter.info(`Sending a follow-up message to agent job ${forLog(id, 100)} in ${where}.`)
    const answer = await send(
      MESSAGE,
      (timeoutMs, signal) => api.sendMessage(id, prompt, timeoutMs, signal),
      schedule,
      runtime
    )
    const job = mergeJob({ id }, answer)
    reporter.jobCreated(job, 'Sent a follow-up message to')
    return job
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
  return job
}

/**
 * The prompt to send: the user's, with the change that started the workflow appended when
 * `context` is auto, or the reason to start no job at all (a deleted branch, `paths` that match
 * nothing). Reading the change is best effort and has a small time budget of its own.
 */
async function preparePrompt(
  settings: Settings,
  deadline: number,
  options: RunOptions,
  reporter: Reporter,
  cancelled: AbortSignal
): Promise<{ prompt: string; skip?: string }> {
  // Attaching sends nothing, so there is no prompt to add the change to.
  if (settings.jobId && !settings.prompt) return { prompt: '' }
  const event = readEvent(options.env ?? process.env)
  if (!event) {
    if (settings.context === 'auto' || settings.paths.length > 0) {
      reporter.info(
        'Not in a workflow run (no GITHUB_REPOSITORY), so no change is added to the prompt.'
      )
    }
    return { prompt: settings.prompt }
  }
  if (event.deleted) {
    return {
      prompt: settings.prompt,
      skip: `The push deleted ${event.ref ?? 'a branch or tag'}: there is nothing to document, so no job was started.`
    }
  }
  if (settings.context === 'off' && settings.paths.length === 0) return { prompt: settings.prompt }

  const now = options.now ?? Date.now
  const budget = Math.max(
    1,
    Math.min(CHANGE_BUDGET_MS, settings.timeoutMs * CHANGE_BUDGET_SHARE, deadline - now())
  )
  const limit = abortAfter(budget, cancelled)
  const readBy = now() + budget
  const github =
    options.github ??
    (settings.githubToken
      ? createGitHubApi({
          token: settings.githubToken,
          userAgent: USER_AGENT,
          deadline: () => readBy,
          now
        })
      : undefined)
  const reading = await untilAborted(readChange(event, github, limit.signal), limit.signal)
    .catch(() => ({
      change: changeFromPayload(event),
      warning:
        `Reading the change from GitHub took longer than ${Math.round(budget / 1000)} s, so ` +
        'the agent is told what the event payload says.',
      requests: 0
    }))
    .finally(() => limit.release())
  if (cancelled.aborted) throw cancellation(cancelled)
  if (reading.warning) reporter.warning(reading.warning)
  const { change } = reading
  reporter.info(
    change.files === undefined
      ? `Read the change from ${change.source}.`
      : `Read the change from ${change.source}: ${change.files.length}${change.partial ? '+' : ''} ` +
          `changed files (${reading.requests} GitHub ${reading.requests === 1 ? 'request' : 'requests'}).`
  )

  if (settings.paths.length > 0) {
    if (change.files === undefined) {
      reporter.info('paths: the changed files are not known, so the job is not skipped.')
    } else if (!matchesPaths(change.files, settings.paths)) {
      if (change.partial) {
        reporter.info(
          'paths: none of the files read matches, but not every changed file could be read, so ' +
            'the job is not skipped.'
        )
      } else {
        return {
          prompt: settings.prompt,
          skip:
            `None of the ${change.files.length} changed files matches paths ` +
            `(${settings.paths.join(', ')}), so no job was started.`
        }
      }
    }
  }
  if (settings.context === 'off') return { prompt: settings.prompt }
  const { prompt, added } = withContext(settings.prompt, event, change, settings.contextMaxChars)
  reporter.info(`Added ${added} characters describing the change to the prompt (context: auto).`)
  return { prompt }
}
