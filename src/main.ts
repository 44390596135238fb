import * as core from '@actions/core'
import { CancelledError, cancellation } from './errors.js'
import { Companion, pullRequestOf, type Recorded } from './github/companion.js'
import { readDocsPull, type DocsReaders } from './github/docs-pull.js'
import { closedPull, readEvent, type Event } from './trigger/event.js'
import type { GitHubApi } from './github/api.js'
import { createGitHubApi } from './github/octokit.js'
import { budgetsFor, type GitHubBudgets } from './github/policy.js'
import { readSettings, type Settings } from './inputs.js'
import { classifyStatus, mergeJob } from './mintlify/job.js'
import { createMintlifyApi, POLL, type MintlifyApi } from './mintlify/api.js'
import { dryRunTitle, planJob, type Found } from './plan.js'
import { send, waitForJob, type Schedule } from './mintlify/poll.js'
import { preparePrompt } from './trigger/prompt.js'
import { CheckSink } from './publish/check.js'
import { CommentSink } from './publish/comment.js'
import { DocsPullSink } from './publish/docs-pr.js'
import { finishAll, type Sink } from './publish/sink.js'
import { Reporter } from './publish/report.js'
import { newRunState, type RunState } from './run.js'
import { bounded, lastly, realSleep, type Bounded, type Runtime } from './runtime.js'
import { begin } from './mintlify/start.js'
import { createTransport, type Fetch } from './mintlify/transport.js'
import { codeCommit, codePull } from './trigger/code.js'
import { USER_AGENT } from './http.js'

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

/**
 * The action: settings → trigger → plan → start → watch → publish. Whatever ends the run
 * (success, failure, timeout, cancellation or a bug), the job, once it exists, is reported to
 * every sink, and GitHub never decides how the step ends.
 */
export async function run(options: RunOptions = {}): Promise<void> {
  const now = options.now ?? Date.now
  const reporter = new Reporter()
  const cancel = cancelOnSignals(options.signal)
  const state = newRunState(now())
  const sinks: Sink[] = []
  let lastMs = 0
  let readers: DocsReaders = {}
  try {
    const settings = await readSettings(cancel.signal)
    Object.assign(state, { projectId: settings.projectId, failOnNoPr: settings.failOnNoPr })
    for (const warning of settings.warnings) reporter.warning(warning)
    const step = stepOf(settings, options, now, cancel.signal, reporter)
    lastMs = step.budgets.last

    const { event, github } = trigger(settings, options, step, state)
    const docsGitHub =
      settings.docsToken && event
        ? gitHubWith(settings.docsToken, options.env ?? process.env, step)
        : undefined
    readers = { workflow: github, docs: docsGitHub }
    const docs = docsSink(settings, docsGitHub, event, reporter)
    if (event && closedPull(event)) {
      const run = { settings, options, step, state, reporter, sinks }
      return await followClosed(event, github, docs, run)
    }
    const check = checkSink(settings, state, github, step, reporter)
    if (check) sinks.push(check)
    // The change and the pull request's comment are read at the same time: the job cannot start
    // before both are known.
    const [prepared, found] = await Promise.all([
      preparePrompt(settings, event, github, step.by(step.budgets.change), reporter),
      event && github && settings.comment === 'auto'
        ? openCompanion(event, github, settings, step.by(step.budgets.lookup), reporter)
        : undefined
    ])
    if (cancel.signal.aborted) throw cancellation(cancel.signal)
    if (prepared.skip) return void (state.outcome = { kind: 'skipped', reason: prepared.skip })

    // A dry run sends Mintlify nothing, not even a read of the recorded job.
    const api = settings.dryRun ? undefined : mintlifyApi(settings, options, now, reporter)
    const recorded =
      found && event && api ? await recordedDocs(found, settings, api, event, readers, step) : found
    const plan = planJob(settings, prepared.prompt, recorded)
    state.mode = plan.mode
    if (plan.reason) reporter.info(plan.reason)
    if (plan.skip) {
      return void (state.outcome = { kind: 'skipped', ...plan.skip })
    }
    if (!api) {
      reporter.prompt(prepared.prompt, dryRunTitle(plan))
      return void (state.outcome = { kind: 'dry-run' })
    }
    if (found) sinks.push(commentSink(found.companion, settings, event, step, reporter))
    if (docs) sinks.push(docs)

    const begun = await begin(plan, settings, prepared.prompt, api, step.schedule, step, reporter)
    Object.assign(state, { job: begun.job, mode: begun.mode })
    for (const note of [plan.note, begun.note]) if (note) state.notes.push(note)
    // What the job was told: this change, when the prompt described it; else what it knew.
    const toldNow = settings.context === 'auto' && begun.mode !== 'attach'
    state.told = toldNow
      ? state.trigger?.commit?.sha
      : begun.job.id === found?.recorded?.jobId
        ? found?.recorded?.sha
        : undefined
    if (!begun.job.id) throw new Error(NO_JOB_ID)
    // Without waiting, the start is also the end: the sinks write once, when the run is over.
    if (!settings.wait) return void (state.outcome = { kind: 'started', mode: state.mode })
    state.outcome = { kind: 'running' }
    for (const sink of sinks) sink.started?.(state)
    await watch(state, api, step, settings.timeoutMs)
  } catch (error: unknown) {
    state.outcome =
      error instanceof CancelledError
        ? { kind: 'cancelled', reason: error.message }
        : { kind: 'error', error }
  } finally {
    state.elapsedMs = now() - state.startedAt
    // The last writes have a budget of their own, whatever the deadline and cancellation say:
    // they report a timeout or a cancellation too. Nothing says the docs are ready before their
    // pull request was read.
    const last = lastly(lastMs, now, cancel.finishing())
    if (state.trigger && endsWithLink(state)) {
      state.docs = await readDocsPull(state.job, state.trigger.event, readers, last)
      if (state.docs?.why) reporter.info(state.docs.why)
    }
    await finishAll(sinks, state, last)
    const failure = await reporter.finish(state)
    if (failure) core.setFailed(failure)
    cancel.release()
  }
}

/** Polls the job to its end or the deadline, keeping `state.job` current as it goes. */
async function watch(state: RunState, api: MintlifyApi, step: Step, timeoutMs: number) {
  const job = state.job ?? {}
  const jobId = job.id ?? ''
  const watched = await waitForJob(
    job,
    (ms, signal) => api.getJob(jobId, ms, signal),
    step.schedule,
    step,
    { onJob: (latest) => (state.job = latest), afterMessage: state.mode === 'follow-up' }
  )
  state.job = watched.job
  state.outcome =
    watched.kind === 'finished'
      ? { kind: 'finished', phase: watched.phase }
      : { kind: 'timeout', timeoutMs }
}

/** The clock, the schedule and the GitHub budgets of one step, derived from its settings. */
interface Step extends Runtime {
  readonly schedule: Schedule
  readonly budgets: GitHubBudgets
  /** Bounds GitHub calls to `ms` from now, the deadline and the step's cancellation. */
  readonly by: (ms: number) => Bounded
}

function stepOf(
  settings: Settings,
  options: RunOptions,
  now: () => number,
  signal: AbortSignal,
  log: Reporter
): Step {
  const deadline = now() + settings.timeoutMs
  return {
    now,
    sleep: options.sleep ?? realSleep,
    random: options.random ?? Math.random,
    signal,
    log,
    schedule: {
      deadline,
      initialMs: settings.pollIntervalMs,
      maxMs: settings.maxPollIntervalMs
    },
    budgets: budgetsFor(settings.timeoutMs),
    by: (ms) => {
      const at = Math.min(now() + ms, deadline)
      return bounded(() => at - now(), signal)
    }
  }
}

/** The event that started the workflow, and GitHub when there is a token; both best effort. */
function trigger(settings: Settings, options: RunOptions, step: Step, state: RunState) {
  const env = options.env ?? process.env
  const event = readEvent(env)
  if (!event) return { event, github: undefined }
  state.trigger = { event, pull: codePull(event), commit: codeCommit(event), runUrl: event.runUrl }
  const github =
    options.github ??
    (settings.githubToken ? gitHubWith(settings.githubToken, env, step) : undefined)
  return { event, github }
}

/** Octokit for `token` at `GITHUB_API_URL`, its retries and rate-limit waits within the step. */
function gitHubWith(token: string, env: NodeJS.ProcessEnv, step: Step): GitHubApi {
  return createGitHubApi({
    token,
    baseUrl: env.GITHUB_API_URL,
    userAgent: USER_AGENT,
    deadline: () => step.schedule.deadline,
    now: step.now
  })
}

/** The Mintlify API for this step, over the transport that applies its request policy. */
function mintlifyApi(
  settings: Settings,
  options: RunOptions,
  now: () => number,
  reporter: Reporter
): MintlifyApi {
  const transport = createTransport({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    userAgent: USER_AGENT,
    fetch: options.fetch,
    now,
    debug: (message) => reporter.debug(message)
  })
  return createMintlifyApi(transport, settings.projectId, now)
}

/** Bounds for a write made while the job runs: the `write` budget, or sooner when stopped. */
function writeWithin(step: Step): (stop: AbortSignal) => Bounded {
  return (stop) => {
    const at = step.now() + step.budgets.write
    return bounded(() => at - step.now(), AbortSignal.any([stop, step.signal]))
  }
}

/** The docs check on the code change's head commit, unless it is off or has nowhere to go. */
function checkSink(
  settings: Settings,
  state: RunState,
  github: GitHubApi | undefined,
  step: Step,
  reporter: Reporter
): Sink | undefined {
  const { event, commit, runUrl } = state.trigger ?? {}
  if (settings.check === 'off' || settings.dryRun || !github || !event || !commit) return undefined
  // The check reports on the commit's own change: a push or a pull request, never a scheduled,
  // manual or comment run on whatever commit the branch is at.
  const change = event.name === 'push' || event.name.startsWith('pull_request')
  if (!change || event.deleted) return undefined
  const skipsOnly = settings.context === 'off'
  if (skipsOnly && settings.paths.length === 0) return undefined
  const commitUrl = `${event.serverUrl}/${commit.owner}/${commit.repo}/commit/${commit.sha}`
  const fork = Boolean(event.pullRequest?.fork)
  return new CheckSink(
    github,
    { commit, runUrl, commitUrl, fork, serverUrl: event.serverUrl, skipsOnly },
    reporter,
    writeWithin(step),
    (url) => reporter.checkUrl(url)
  )
}

/** The status comment sink: its write while the job runs has the `write` budget. */
function commentSink(
  companion: Companion,
  settings: Settings,
  event: Event | undefined,
  step: Step,
  reporter: Reporter
): Sink {
  return new CommentSink(
    companion,
    { reuse: settings.reuseJob, runUrl: event?.runUrl },
    writeWithin(step),
    (url) => reporter.commentUrl(url)
  )
}

const NO_JOB_ID =
  'The API created a job but its answer has no job id, so the job cannot be followed; find it ' +
  'in the Mintlify dashboard.'

const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM'] as const

/**
 * A signal that aborts when the runner sends SIGINT or SIGTERM, or `external` aborts. Once the
 * last writes begin (`finishing`), a signal stops them instead, so the outputs and the summary are
 * still written before the step ends; `release` stops listening once they are.
 */
function cancelOnSignals(external?: AbortSignal): {
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

/** The companion for the pull request the change belongs to, and the job its comment records. */
async function openCompanion(
  event: Event,
  github: GitHubApi,
  settings: Settings,
  within: Bounded,
  reporter: Reporter
) {
  const pull = await pullRequestOf(event, github, within, reporter)
  if (pull === undefined) return undefined
  const { number, headSha } = pull
  const companion = new Companion(
    github,
    event,
    number,
    settings.projectId,
    reporter,
    settings.reuseJob
  )
  return { number, headSha, companion, recorded: await companion.find(within) }
}

/** The docs pull request sink, over the Octokit for `docs-token`; none without the token. */
function docsSink(
  settings: Settings,
  github: GitHubApi | undefined,
  event: Event | undefined,
  reporter: Reporter
): DocsPullSink | undefined {
  if (!github || !event || settings.dryRun) return undefined
  const { docsReviewers: reviewers, docsLabels: labels, onCodeClosed } = settings
  return new DocsPullSink(
    github,
    { reviewers, labels, onCodeClosed, serverUrl: event.serverUrl },
    reporter,
    (url) => reporter.docsCommentUrl(url)
  )
}

/** Whether the job ended, or already answered, as completed with a pull request link. */
function endsWithLink(state: RunState): boolean {
  const { outcome, job } = state
  if (!job?.prLink) return false
  if (outcome.kind === 'finished') return outcome.phase === 'completed'
  return outcome.kind === 'started' && classifyStatus(job.status).phase === 'completed'
}

/**
 * What the status comment records, with the recorded job's docs pull request read first (one
 * read of the job, one of the pull request), so nothing is sent to a job whose docs are done.
 * Best effort: when the job cannot be read, the plan goes on as if nothing more were known.
 */
async function recordedDocs(
  found: { number: number; headSha?: string; recorded?: Recorded },
  settings: Settings,
  api: MintlifyApi,
  event: Event,
  readers: DocsReaders,
  step: Step
): Promise<Found> {
  const jobId = found.recorded?.jobId
  if (!jobId || settings.jobId || !settings.reuseJob) return found
  const job = await send(POLL, (ms, signal) => api.getJob(jobId, ms, signal), step.schedule, step)
    .then((answer) => mergeJob({ id: jobId }, answer))
    .catch(() => undefined)
  if (!job) return found
  const docs = await readDocsPull(job, event, readers, step.by(step.budgets.lookup))
  if (docs?.why) step.log.info(docs.why)
  return { ...found, docs }
}

/**
 * A code pull request was closed: no job is started or messaged. With docs-token, the job its
 * status comment records (or job-id) is read once, its docs pull request follows the code (see
 * `DocsPullSink.codeClosed`), and the status comment says what was done.
 */
async function followClosed(
  event: Event,
  github: GitHubApi | undefined,
  docs: DocsPullSink | undefined,
  run: {
    settings: Settings
    options: RunOptions
    step: Step
    state: RunState
    reporter: Reporter
    sinks: Sink[]
  }
): Promise<void> {
  const { settings, options, step, state, reporter, sinks } = run
  const merged = closedPull(event) === 'merged'
  state.outcome = {
    kind: 'skipped',
    reason: `The code pull request was ${merged ? 'merged' : 'closed without merging'}: no docs job is started or messaged.`
  }
  if (!docs) return
  const found =
    github && settings.comment === 'auto'
      ? await openCompanion(event, github, settings, step.by(step.budgets.lookup), reporter)
      : undefined
  const jobId = settings.jobId || found?.recorded?.jobId
  if (!jobId) {
    return reporter.info(
      'No docs job is recorded for this pull request, so no docs pull request follows it.'
    )
  }
  if (found) sinks.push(commentSink(found.companion, settings, event, step, reporter))
  const api = mintlifyApi(settings, options, step.now, reporter)
  const job = await send(POLL, (ms, signal) => api.getJob(jobId, ms, signal), step.schedule, step)
  Object.assign(state, { job: mergeJob({ id: jobId }, job), mode: 'attach' })
  const note = await docs.codeClosed(state, step.by(step.budgets.write))
  if (note) state.notes.push(note)
}
