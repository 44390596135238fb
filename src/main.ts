import { act } from './act/act.js'
import { endWith, readState } from './act/state.js'
import { resolveEffects } from './run/decide/check.js'
import { effectsOf } from './run/decide/plan.js'
import { cancellation } from './base/errors.js'
import { readSettings } from './given/inputs.js'
import { kindOf, type Kind } from './kinds/registry.js'
import { checkName } from './report/check.js'
import { Reporter } from './report/sinks/report.js'
import { finishAll, type Sink } from './report/sinks/sink.js'
import { sinksOf } from './report/sinks/sinks.js'
import { newRunState } from './run/state.js'
import { gitHubsOf, stepOf, StepTime, type RunOptions } from './run/step.js'
import { readEvent } from './given/read-event.js'

/** The step's seams, the kinds of run a test adds, and surfaces shown beside the Actions report. */
export type RunSeams = RunOptions & {
  readonly kinds?: readonly Kind[]
  readonly surfaces?: readonly Sink[]
}

/**
 * The action: settings → read → decide → act → report. However the run ends, a job that exists is
 * reported to every sink, and GitHub never decides how the step ends. Resolves true if it failed.
 */
export async function run(options: RunSeams = {}): Promise<boolean> {
  const time = new StepTime(options)
  const report = new Reporter()
  // The Actions report is a sink from the start: whatever ends the run, it is reported.
  const sinks: Sink[] = [report, ...(options.surfaces ?? [])]
  let state = newRunState(time.now())
  try {
    // The event is read first: where GitHub gives the run no secrets, empty ones skip it.
    const payload = readEvent(options.env ?? process.env)
    const settings = await readSettings(time.signal, payload)
    for (const warning of settings.warnings) report.warning(warning)
    const step = stepOf(settings, options, time, report)
    const kind = kindOf(payload, options.kinds)
    const readers = gitHubsOf(settings, options, step, payload)
    // A dry run sends Mintlify nothing, not even a read of the recorded job.
    const api = settings.dryRun ? undefined : step.mintlify()
    const context = checkName(settings.projectId)
    const read = await kind.read({ settings, event: payload, readers, api, step, context })
    if (time.signal.aborted) throw cancellation(time.signal)
    const { facts, event = payload } = read
    state = readState(state.startedAt, settings, event, facts)
    const plan = kind.decide(settings, event, facts)
    const effects = resolveEffects(effectsOf(plan), settings, event)
    sinks.push(...sinksOf(effects, { settings, state, read, readers, log: report, time }))
    await act({ state, sinks, settings, step, report, readers, api }, event, facts, plan)
  } catch (error: unknown) {
    endWith(state, error, time.timeoutMs, report)
  }
  state.elapsedMs = time.now() - state.startedAt
  const last = time.last()
  const failed = await finishAll(sinks, state, last.until(last.by), last)
  time.release()
  return failed
}
