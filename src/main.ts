import { act } from './act/act.js'
import { resolveEffects } from './decide/check.js'
import { effectsOf } from './decide/plan.js'
import { CancelledError, DeadlineError, SecretsWithheldError, cancellation } from './errors.js'
import { readSettings } from './inputs.js'
import { checkName } from './present/check.js'
import { FOLLOWED_NO_FURTHER } from './present/plan.js'
import { Reporter } from './publish/report.js'
import { finishAll, type Sink } from './publish/sink.js'
import { sinksFor } from './publish/sinks.js'
import { newRunState } from './run.js'
import { lastTimeOf, realSleep, withinTime } from './runtime.js'
import { cancelOnSignals, gitHubsOf, stepOf, type RunOptions } from './step.js'
import { triggerOf } from './trigger/code.js'
import { readEvent } from './trigger/read-event.js'
import { kindOf, type Kind } from './kinds/registry.js'

/** The step's seams (see `RunOptions`), and the kinds of run a test adds. */
export interface RunSeams extends RunOptions {
  /** The kinds of run, in the order they are tried; the registry's by default. */
  readonly kinds?: readonly Kind[]
  /** Surfaces shown beside the Actions report (see `surface`). */
  readonly surfaces?: readonly Sink[]
}

export type { RunOptions } from './step.js'

/**
 * The action: settings → read → decide → act → report, over one list of sinks. Whatever ends the
 * run (success, failure, timeout, cancellation or a bug), the job, once it exists, is reported to
 * every sink, and GitHub never decides how the step ends. Resolves to whether the step failed: it
 * said why, and the entry ends the process with exit code 1.
 */
export async function run(options: RunSeams = {}): Promise<boolean> {
  const now = options.now ?? Date.now
  const report = new Reporter()
  const cancel = cancelOnSignals(options.signal)
  const state = newRunState(now())
  // The Actions report is a sink from the start: whatever ends the run, it is reported.
  const sinks: Sink[] = [report, ...(options.surfaces ?? [])]
  let failed: boolean
  try {
    // The event is read first: where GitHub gives the run no secrets, empty ones skip it.
    const payload = readEvent(options.env ?? process.env)
    const settings = await readSettings(cancel.signal, payload)
    Object.assign(state, {
      projectId: settings.projectId,
      failOnNoPr: settings.failOnNoPr,
      timeoutMs: settings.timeoutMs
    })
    for (const warning of settings.warnings) report.warning(warning)
    const step = stepOf(settings, options, cancel.signal, report)
    Object.assign(state, { lastWriteMs: step.budgets.last, deadline: step.schedule.deadline })

    state.trigger = payload && triggerOf(payload)
    const readers = gitHubsOf(settings, options, step, payload)
    // A dry run sends Mintlify nothing, not even a read of the recorded job.
    const api = settings.dryRun ? undefined : step.mintlify()
    const context = checkName(settings.projectId)
    // The run's kind, told once from the event: it reads, decides and names the sinks.
    const kind = kindOf(payload, options.kinds)
    const read = await kind.read({ settings, event: payload, readers, api, step, context })
    if (cancel.signal.aborted) throw cancellation(cancel.signal)
    // What reading learned of the event (a command's pull request head) is the run's trigger.
    const { facts, companion, event = payload } = read
    // A recorded job read with the key: the platform accepted the project id.
    if (facts.job?.phase.known) state.accepted = true
    state.trigger = event && triggerOf(event)
    const plan = kind.decide(settings, event, facts)
    const { workflow: github, docs: docsGitHub } = readers
    const { trigger } = state
    const withinWrite = step.withinWrite
    // A write safe to send again (the pending check) may be waited for through the step's own
    // time: the deadline, then the last writes' budget.
    const end = state.deadline + state.lastWriteMs
    const withinHeld = (stop: AbortSignal) =>
      withinTime(() => end - now(), AbortSignal.any([stop, cancel.signal]))
    const commented = facts.pull?.recorded.known === true && facts.pull.recorded.value !== undefined
    // The plan says where the run writes on GitHub: nowhere, for a comment that is no command.
    sinks.push(
      ...sinksFor(resolveEffects(effectsOf(plan), settings, event), {
        settings,
        trigger,
        companion,
        commented,
        github,
        docsGitHub,
        log: report,
        withinWrite,
        withinHeld
      })
    )
    await act({ state, sinks, settings, step, report, readers, api, kind }, event, facts, plan)
  } catch (error: unknown) {
    // A job seen to end stays ended, whatever a cancel or the deadline interrupts after it.
    const seen = state.outcome.kind === 'finished'
    if (seen && (error instanceof CancelledError || error instanceof DeadlineError)) {
      state.notes.push(`${FOLLOWED_NO_FURTHER} ${error.message}`)
      report.info(`${FOLLOWED_NO_FURTHER} ${error.message}`)
    } else
      state.outcome =
        error instanceof CancelledError
          ? { kind: 'cancelled', reason: error.message }
          : error instanceof SecretsWithheldError
            ? { kind: 'skipped', reason: error.message, notice: true }
            : error instanceof DeadlineError && state.job?.id
              ? {
                  kind: 'timeout',
                  timeoutMs: state.timeoutMs,
                  unread: (error.last ?? error).message
                }
              : { kind: 'error', error }
  } finally {
    state.elapsedMs = now() - state.startedAt
    // The last writes have a budget of their own, whatever the deadline and cancellation say:
    // they report a timeout or a cancellation too. The step ends by the deadline plus that
    // budget, whatever came before; a signal from the runner stops them sooner. A write GitHub
    // still holds may be waited for through the rest of the step's time (`lastWindow`).
    const sleep = options.sleep ?? realSleep
    const time = lastTimeOf(now, sleep, state.deadline, state.lastWriteMs, cancel.finishing())
    failed = await finishAll(sinks, state, time.until(time.by), time)
    cancel.release()
  }
  return failed
}
