import * as core from '@actions/core'
import { CancelledError, DeadlineError, cancellation } from './errors.js'
import { readDocsPull, type DocsReaders } from './github/docs-pull.js'
import { readSettings, type Settings } from './inputs.js'
import type { MintlifyApi } from './mintlify/api.js'
import { waitForJob } from './mintlify/poll.js'
import { begin, readRecordedJob } from './mintlify/start.js'
import { dryRunTitle, toldCommit } from './plan.js'
import { Reporter } from './publish/report.js'
import { closeAll, finishAll, type Sink } from './publish/sink.js'
import { sinksFor } from './publish/sinks.js'
import { endsWithLink, newRunState, type RunState } from './run.js'
import { withinLast } from './runtime.js'
import { cancelOnSignals, gitHubsOf, stepOf, type RunOptions, type Step } from './step.js'
import { triggerOf } from './trigger/code.js'
import { closedPull, readEvent, type Event } from './trigger/event.js'
import { decide, lookUp, type LookedUp } from './trigger/lookup.js'

export type { RunOptions } from './step.js'

/**
 * The action: settings → trigger → plan → start → watch → publish, over one list of sinks.
 * Whatever ends the run (success, failure, timeout, cancellation or a bug), the job, once it
 * exists, is reported to every sink, and GitHub never decides how the step ends.
 */
export async function run(options: RunOptions = {}): Promise<void> {
  const now = options.now ?? Date.now
  const report = new Reporter()
  const cancel = cancelOnSignals(options.signal)
  const state = newRunState(now())
  const sinks: Sink[] = []
  try {
    const settings = await readSettings(cancel.signal)
    Object.assign(state, {
      projectId: settings.projectId,
      failOnNoPr: settings.failOnNoPr,
      timeoutMs: settings.timeoutMs
    })
    for (const warning of settings.warnings) report.warning(warning)
    const step = stepOf(settings, options, cancel.signal, report)
    Object.assign(state, { lastWriteMs: step.budgets.last, deadline: step.schedule.deadline })

    const event = readEvent(step.env)
    state.trigger = event && triggerOf(event)
    const readers = gitHubsOf(settings, options, step, event)
    const looked = await lookUp(settings, event, readers.workflow, step)
    if (cancel.signal.aborted) throw cancellation(cancel.signal)
    const context = { settings, trigger: state.trigger, ...looked, withinWrite: step.withinWrite }
    const { workflow: github, docs: docsGitHub } = readers
    sinks.push(...sinksFor({ ...context, github, docsGitHub, log: report }))
    const run = { state, sinks, settings, step, report, readers }
    if (event && closedPull(event) && !looked.own) return await followClosed(run, event, looked)
    await story(run, event, looked)
  } catch (error: unknown) {
    state.outcome =
      error instanceof CancelledError
        ? { kind: 'cancelled', reason: error.message }
        : error instanceof DeadlineError && state.job?.id
          ? { kind: 'timeout', timeoutMs: state.timeoutMs, unread: error.message }
          : { kind: 'error', error }
  } finally {
    state.elapsedMs = now() - state.startedAt
    // The last writes have a budget of their own, whatever the deadline and cancellation say:
    // they report a timeout or a cancellation too. The step ends by the deadline plus that
    // budget, whatever came before; a signal from the runner stops them sooner.
    const lastMs = Math.min(state.lastWriteMs, state.deadline + state.lastWriteMs - now())
    const wrote = await finishAll(
      sinks,
      state,
      withinLast(Math.max(1, lastMs), now, cancel.finishing())
    )
    for (const { written, url } of wrote) state.written[written] = url
    const failure = await report.finish(state)
    if (failure) core.setFailed(failure)
    cancel.release()
  }
}

/** What the stages of one run share. */
interface Run {
  readonly state: RunState
  readonly sinks: readonly Sink[]
  readonly settings: Settings
  readonly step: Step
  readonly report: Reporter
  /** The tokens that may read the docs pull request. */
  readonly readers: DocsReaders
}

/** plan → start → watch, for a run that may start or continue a job. */
async function story(run: Run, event: Event | undefined, looked: LookedUp) {
  const { state, settings, step, report, readers } = run
  // A dry run sends Mintlify nothing, not even a read of the recorded job.
  const api = settings.dryRun ? undefined : step.mintlify()
  const decided = await decide(settings, event, looked, readers, api, step)
  if (decided.branch) state.branch = decided.branch
  if ('skip' in decided) return void (state.outcome = { kind: 'skipped', ...decided.skip })
  const { plan, prompt, found } = decided
  state.mode = plan.mode
  // The job to attach to exists before it is read: a timeout while reading it still names it.
  if (plan.mode === 'attach') state.job = { id: plan.jobId }
  if (plan.reason) report.info(plan.reason)
  if (!api) {
    report.prompt(prompt, dryRunTitle(plan))
    return void (state.outcome = { kind: 'dry-run' })
  }
  const begun = await begin(plan, settings, prompt, api, step.schedule, step, report)
  Object.assign(state, { job: begun.job, mode: begun.mode })
  for (const note of [plan.note, begun.note]) if (note) state.notes.push(note)
  state.told = toldCommit(settings, begun, found, state.trigger?.commit?.sha)
  if (!begun.job.id) throw new Error(NO_JOB_ID)
  // Without waiting, the start is also the end: the sinks write once, when the run is over.
  if (!settings.wait) state.outcome = { kind: 'started', mode: state.mode }
  else await watch(run, api)
  // Nothing says the docs are ready before their pull request was read.
  if (event && endsWithLink(state)) {
    state.docs = await readDocsPull(state.job, event, readers, step.afterJob())
    if (state.docs?.why) report.info(state.docs.why)
  }
}

/** Polls the job to its end or the deadline, keeping `state.job` current as it goes. */
async function watch({ state, sinks, step, settings }: Run, api: MintlifyApi) {
  state.outcome = { kind: 'running' }
  for (const sink of sinks) sink.started?.(state)
  const job = state.job ?? {}
  const jobId = job.id ?? ''
  const watched = await waitForJob(
    job,
    (ms, signal) => api.getJob(jobId, ms, signal),
    step.schedule,
    step,
    {
      onJob: (latest) => (state.job = latest),
      afterMessage: state.mode === 'follow-up'
    }
  )
  state.job = watched.job
  state.outcome =
    watched.kind === 'finished'
      ? { kind: 'finished', phase: watched.phase }
      : { kind: 'timeout', timeoutMs: settings.timeoutMs }
}

/**
 * A code pull request was closed: no job is started or messaged. When a sink follows it (the
 * docs pull request), the job its status comment records (or job-id) is read once, and the sinks'
 * notes go to the status comment.
 */
async function followClosed(run: Run, event: Event, { found }: LookedUp): Promise<void> {
  const { state, sinks, settings, step } = run
  const merged = closedPull(event) === 'merged'
  state.outcome = {
    kind: 'skipped',
    reason: `The code pull request was ${merged ? 'merged' : 'closed without merging'}: no docs job is started or messaged.`
  }
  if (sinks.every((sink) => sink.closed === undefined)) return
  const jobId = settings.jobId || found?.recorded?.jobId
  if (!jobId)
    return step.log.info(
      'No docs job is recorded for this pull request, so no docs pull request follows it.'
    )
  const job = await readRecordedJob(step.mintlify(), jobId, step.lookupSchedule(), step)
  if (!job) return step.log.info('The docs pull request is left as it is.')
  Object.assign(state, { job, mode: 'attach' })
  state.notes.push(...(await closeAll(sinks, state, step.within(step.budgets.write))))
}

const NO_JOB_ID =
  'The API created a job but its answer has no job id, so the job cannot be followed; find it ' +
  'in the Mintlify dashboard.'
