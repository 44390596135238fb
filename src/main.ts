import * as core from '@actions/core'
import { CancelledError } from './errors.js'
import { readSettings } from './inputs.js'
import type { Job } from './job.js'
import { CREATE, createMintlifyApi } from './mintlify.js'
import { send, waitForJob, type Schedule } from './poll.js'
import { Reporter } from './report.js'
import { realSleep, type Runtime } from './runtime.js'
import { createTransport, type Fetch } from './transport.js'
import type { Outcome } from './verdict.js'
import { USER_AGENT } from './version.js'

/** Seams for tests and local runs; a real run uses none of them. */
export interface RunOptions {
  fetch?: Fetch
  now?: () => number
  sleep?: Runtime['sleep']
  random?: () => number
  /** Aborting it cancels the run, as SIGINT or SIGTERM from the runner does. */
  signal?: AbortSignal
}

const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM'] as const

/**
 * The action: read the inputs, create the agent job, wait for it to finish, report. Whatever ends
 * the run (success, failure, timeout, cancellation or a bug), the job, once it exists, is reported.
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

    const runtime: Runtime = {
      now,
      sleep: options.sleep ?? realSleep,
      random: options.random ?? Math.random,
      signal: cancel.signal,
      log: reporter
    }
    const schedule: Schedule = {
      deadline: started + settings.timeoutMs,
      initialMs: settings.pollIntervalMs,
      maxMs: settings.maxPollIntervalMs
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

    reporter.info(
      `Starting an agent job in project ${settings.projectId} at ${settings.baseUrl.origin}.`
    )
    const created = await send(
      CREATE,
      (timeoutMs, signal) => api.createJob(settings.prompt, timeoutMs, signal),
      schedule,
      runtime
    )
    job = created
    const jobId = created.id
    if (!jobId) {
      throw new Error(
        'The API created a job but its answer has no job id, so the job cannot be followed; ' +
          'find it in the Mintlify dashboard.'
      )
    }
    reporter.jobCreated(created)

    if (!settings.wait) {
      outcome = { kind: 'started' }
      return
    }
    const result = await waitForJob(
      created,
      (timeoutMs, signal) => api.getJob(jobId, timeoutMs, signal),
      schedule,
      runtime,
      (latest) => (job = latest)
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
