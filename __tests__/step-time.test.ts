// The step's one time budget on an injected clock: each phase's end, the bounds it hands out, and
// the cancellation that stops the run, then only the last writes.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { CancelledError } from '../src/base/errors.js'
import { budgetsFor } from '../src/clients/github/policy.js'
import { phaseEnd, PREVIEW_MS, StepTime, type StepPhase } from '../src/run/step.js'

const PACE = { pollIntervalMs: 5_000, maxPollIntervalMs: 30_000 }

/** A step's time on a clock that moves only when told to; it listens for no runner's signal. */
function clocked(timeoutMs: number, signal?: AbortSignal) {
  const clock = { t: 1_000_000 }
  const time = new StepTime({ now: () => clock.t, signal })
  time.begin({ timeoutMs, ...PACE })
  return { clock, time }
}

/** Whether a call within `phase`'s bounds is made now. */
async function made(time: StepTime, phase: StepPhase): Promise<boolean> {
  return time
    .within(phase)(async () => true)
    .catch(() => false)
}

describe('the phases of a step', () => {
  const PHASES: StepPhase[] = [
    'change',
    'lookup',
    'close',
    'job',
    'write',
    'held',
    'preview',
    'after'
  ]
  const BY_DEADLINE: StepPhase[] = ['change', 'lookup', 'close', 'job', 'preview']

  it('reading, the job and its preview end by the deadline; the rest by its last budget past it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PHASES),
        fc.integer({ min: 0, max: 10 ** 9 }),
        fc.integer({ min: -(10 ** 6), max: 10 ** 9 }),
        fc.integer({ min: 1_000, max: 3_600_000 }),
        (phase, now, left, timeoutMs) => {
          const budgets = budgetsFor(timeoutMs)
          const deadline = now + left
          const end = phaseEnd(phase, now, deadline, budgets)
          if (BY_DEADLINE.includes(phase)) return end <= deadline
          // A write beside the job has its budget from now: it may start after the deadline.
          if (phase === 'write') return end === now + budgets.write
          return end <= deadline + budgets.last && (phase !== 'after' || end <= now + budgets.last)
        }
      )
    )
  })

  it('with the deadline far, each reading phase has its own budget, and the preview ten minutes', () => {
    const budgets = budgetsFor(3_600_000)
    const far = 10 ** 9
    expect(phaseEnd('change', 0, far, budgets)).toBe(budgets.change)
    expect(phaseEnd('lookup', 0, far, budgets)).toBe(budgets.lookup)
    expect(phaseEnd('close', 0, far, budgets)).toBe(budgets.write)
    expect(phaseEnd('after', 0, far, budgets)).toBe(budgets.last)
    expect(phaseEnd('preview', 0, far, budgets)).toBe(PREVIEW_MS)
    expect(PREVIEW_MS).toBe(600_000)
  })

  it('a preview is followed on the job’s pace, at most ten minutes and never past the deadline', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1_000, max: 10 ** 9 }), (timeoutMs) => {
        const { time, clock } = clocked(timeoutMs)
        time.release()
        const schedule = time.schedule('preview')
        return (
          schedule.deadline === clock.t + Math.min(timeoutMs, PREVIEW_MS) &&
          schedule.initialMs === PACE.pollIntervalMs &&
          schedule.maxMs === PACE.maxPollIntervalMs &&
          time.schedule('job').deadline === clock.t + timeoutMs
        )
      })
    )
  })

  it('past the deadline a read is not made, and a write beside the job and a held one still are', async () => {
    const { time, clock } = clocked(60_000)
    time.release()
    expect(await made(time, 'lookup')).toBe(true)
    clock.t += 60_000
    expect(await made(time, 'lookup')).toBe(false)
    expect(await made(time, 'change')).toBe(false)
    expect(await made(time, 'write')).toBe(true)
    expect(await made(time, 'held')).toBe(true)
    clock.t += budgetsFor(60_000).last
    expect(await made(time, 'held')).toBe(false)
  })

  it('a write beside the job ends when it is stopped, or when the run is cancelled', async () => {
    // Each bound is far off on the real clock: only the stop or the cancel can end these calls.
    const external = new AbortController()
    const { time } = clocked(3_600_000, external.signal)
    const hang = (seen: AbortSignal[]) => (signal: AbortSignal) => {
      seen.push(signal)
      return new Promise<never>(() => {})
    }
    const stop = new AbortController()
    const stopped: AbortSignal[] = []
    const write = time.within('write', stop.signal)(hang(stopped))
    stop.abort()
    await expect(write).rejects.toThrow()
    expect(stopped[0]?.aborted).toBe(true)
    const held: AbortSignal[] = []
    const other = time.within('held', new AbortController().signal)(hang(held))
    external.abort()
    await expect(other).rejects.toThrow()
    expect(held[0]?.aborted).toBe(true)
    time.release()
  })

  it('before the settings are read there is no deadline, and the last writes have 5 s', () => {
    const time = new StepTime({ now: () => 0 })
    time.release()
    expect(time.deadline).toBe(Infinity)
    expect(time.last()).toMatchObject({ by: 5_000, heldBy: 5_000, end: 5_000 })
  })
})

describe('cancellation', () => {
  it('a cancel stops the run; once the last writes begin it no longer does', async () => {
    const external = new AbortController()
    const { time } = clocked(60_000, external.signal)
    external.abort()
    expect(time.signal.reason).toEqual(new CancelledError('The run was cancelled.'))
    expect(await made(time, 'write')).toBe(false)
    const late = new AbortController()
    const after = clocked(60_000, late.signal).time
    const last = after.last()
    late.abort()
    expect(after.signal.aborted).toBe(false)
    expect(last.stop.aborted).toBe(false)
    time.release()
    after.release()
  })

  it('a signal from the runner cancels the run, and during the last writes stops them', () => {
    const { time } = clocked(60_000)
    process.emit('SIGTERM', 'SIGTERM')
    expect(time.signal.reason).toEqual(new CancelledError('The workflow was cancelled (SIGTERM).'))
    const last = time.last()
    expect(last.stop.aborted).toBe(false)
    process.emit('SIGINT', 'SIGINT')
    expect(last.stop.aborted).toBe(true)
    time.release()
    // Released, it listens no more.
    const before = process.listenerCount('SIGTERM')
    const again = clocked(60_000).time
    expect(process.listenerCount('SIGTERM')).toBe(before + 1)
    again.release()
    expect(process.listenerCount('SIGTERM')).toBe(before)
  })
})
