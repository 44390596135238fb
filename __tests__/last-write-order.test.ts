// The docs check's last write is what GitHub stores last: a pending write GitHub holds past the
// end of the job can no longer land after the final one unseen. A fake GitHub on a virtual clock
// holds, answers and stores each write as told; aborting a request only stops the step waiting
// for it, as on GitHub, where a held write is stored when GitHub gets to it.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import type { CommitStatus, GitHubApi, IssueComment } from '../src/clients/github/api.js'
import { OwnedComment } from '../src/clients/github/own-comment.js'
import { AGAIN_PAUSE_MS, Surface, tryShare } from '../src/clients/github/policy.js'
import { checkSinkOf } from '../src/report/sinks/check.js'
import { newRunState, type RunState } from '../src/run/state.js'
import type { LastTime, Within } from '../src/base/runtime.js'
import { lastWindow } from '../src/run/step.js'

/** Timers on a virtual clock; promises settle between two of them. */
class Clock {
  now = 0
  private timers: { at: number; seq: number; run: () => void; live: boolean }[] = []
  private seq = 0

  /** Runs `run` at `at`; returns how to cancel it. */
  at(at: number, run: () => void): () => void {
    const timer = { at, seq: this.seq++, run, live: true }
    this.timers.push(timer)
    return () => (timer.live = false)
  }

  /** Runs every timer in order, letting promises settle after each, until none is left. */
  async runAll(): Promise<void> {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve))
      this.timers = this.timers.filter((t) => t.live)
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq)
      const next = this.timers.shift()
      if (!next) return
      this.now = Math.max(this.now, next.at)
      next.run()
    }
  }
}

const abortError = () => new DOMException('The operation was aborted.', 'AbortError')

/**
 * Bounds each call to `by` on the virtual clock and to `stop`, settling no later than that
 * whatever the call still waits for; a call with no time left is not made, as in `withinTime`.
 */
function within(clock: Clock, by: number, stop?: AbortSignal): Within {
  return (call) => {
    if (clock.now >= by || stop?.aborted) return Promise.reject(abortError())
    const limit = new AbortController()
    const cancel = clock.at(by, () => limit.abort())
    const onStop = () => limit.abort()
    stop?.addEventListener('abort', onStop, { once: true })
    if (stop?.aborted) limit.abort()
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(abortError())
      if (limit.signal.aborted) onAbort()
      limit.signal.addEventListener('abort', onAbort, { once: true })
      call(limit.signal)
        .then(resolve, reject)
        .finally(() => {
          cancel()
          stop?.removeEventListener('abort', onStop)
        })
    })
  }
}

/**
 * What GitHub does with one status write, in ms after it was sent: store it (`storeAfter`, or
 * never), then answer it (`answerAfter`, or never: a write held past every budget). A 502 after
 * storing is a write that landed although the answer says otherwise; `reset` is a connection
 * broken before any answer.
 */
interface Handling {
  readonly storeAfter?: number
  readonly answerAfter?: number
  readonly answer: 'ok' | 502 | 'reset'
}

/** A broken connection as Octokit reports it: status 500 and no response. */
const resetError = () =>
  Object.assign(new Error('socket hang up'), { name: 'HttpError', status: 500 })

const QUICK: Handling = { storeAfter: 20, answerAfter: 20, answer: 'ok' }

/** A fake GitHub whose status writes are handled as `script` says, in the order they come. */
function fakeGitHub(clock: Clock, script: readonly Handling[]) {
  const stored: { at: number; state: CommitStatus['state'] }[] = []
  const sent: { at: number; state: CommitStatus['state']; answered?: 'ok' | 'failed' }[] = []
  const github = {
    createStatus(
      _owner: string,
      _repo: string,
      _sha: string,
      status: CommitStatus,
      signal: AbortSignal
    ) {
      const handling = script[sent.length] ?? QUICK
      const entry: (typeof sent)[number] = { at: clock.now, state: status.state }
      sent.push(entry)
      const sentAt = clock.now
      // Stored when GitHub gets to it, whether or not anyone still waits for the answer.
      if (handling.storeAfter !== undefined) {
        clock.at(sentAt + handling.storeAfter, () =>
          stored.push({ at: clock.now, state: status.state })
        )
      }
      return new Promise<void>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(abortError()), { once: true })
        if (handling.answerAfter === undefined) return
        clock.at(sentAt + handling.answerAfter, () => {
          // Answered while the step still listened, or after it gave up (then nobody hears it).
          if (!signal.aborted) entry.answered = handling.answer === 'ok' ? 'ok' : 'failed'
          return handling.answer === 'ok'
            ? resolve()
            : handling.answer === 'reset'
              ? reject(resetError())
              : reject(Object.assign(new Error('Bad gateway'), { status: 502, response: {} }))
        })
      })
    }
  } as Pick<GitHubApi, 'createStatus'> as GitHubApi
  return { github, stored, sent }
}

const SHA = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821'

function stateOf(outcome: RunState['outcome']): RunState {
  return { ...newRunState(0), projectId: 'proj_e2e', job: { id: 'job_1' }, outcome }
}
const RUNNING = stateOf({ kind: 'running' })
/** The job completed without a pull request: the check's final state is `success`. */
const DONE = stateOf({ kind: 'finished', phase: 'completed' })

interface Run {
  /** The bound of the pending write, from its start at 0; the step's own end when left out. */
  readonly writeMs?: number
  /** When the job ended and the last writes began. */
  readonly jobEnd: number
  /** The last writes' budget. */
  readonly lastMs: number
  readonly script: readonly Handling[]
  /** When a signal from the runner stops the last writes, if it does. */
  readonly signalAt?: number
  /** The step's deadline; the job's end when left out (no time left beyond the last writes). */
  readonly deadline?: number
}

/** Sleeps on the virtual clock; rejects when `signal` aborts. */
function sleeper(clock: Clock): LastTime['sleep'] {
  return (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal.aborted) return reject(abortError())
      const cancel = clock.at(clock.now + ms, () => resolve())
      signal.addEventListener(
        'abort',
        () => {
          cancel()
          reject(abortError())
        },
        { once: true }
      )
    })
}

/**
 * The check sink through one run: the pending write at 0, the last write at `jobEnd`; then the
 * clock runs on until GitHub has stored everything it ever will.
 */
async function runCheck(run: Run) {
  const clock = new Clock()
  const { github, stored, sent } = fakeGitHub(clock, run.script)
  const warnings: string[] = []
  const log = { info: () => undefined, warning: (m: string) => warnings.push(m), debug: () => {} }
  const window = lastWindow(run.jobEnd, run.deadline ?? run.jobEnd, run.lastMs)
  // As main.ts bounds it: through the step's own end, or the write budget when one is given.
  const pendingBy = run.writeMs ?? window.end
  const sink = checkSinkOf(
    github,
    {
      commit: { owner: 'Codertocat', repo: 'Hello-World', sha: SHA },
      serverUrl: 'https://github.com',
      fork: false,
      skipsOnly: false
    },
    log,
    (stop) => within(clock, pendingBy, stop)
  )
  sink.started(RUNNING)
  const runner = new AbortController()
  if (run.signalAt !== undefined) clock.at(run.signalAt, () => runner.abort())
  let endedAt: number | undefined
  clock.at(run.jobEnd, () => {
    // As main.ts gives them: the last writes' bounds, and their time on the run's clock.
    const time: LastTime = {
      now: () => clock.now,
      sleep: sleeper(clock),
      until: (at) => within(clock, at, runner.signal),
      stop: runner.signal,
      ...window
    }
    void sink.finished(DONE, time.until(time.by), time).then(() => (endedAt = clock.now))
  })
  await clock.runAll()
  const byArrival = [...stored].sort((a, b) => a.at - b.at)
  return { stored: byArrival, last: byArrival.at(-1)?.state, sent, warnings, endedAt, window }
}

describe('the docs check when GitHub holds the pending write', () => {
  it('the held write is answered after the final one: the final state is written again and stored last', async () => {
    const result = await runCheck({
      writeMs: 10_000,
      jobEnd: 100,
      lastMs: 5_000,
      // GitHub holds the pending write 2 s; the final one is quick.
      script: [{ storeAfter: 2_000, answerAfter: 2_000, answer: 'ok' }]
    })
    expect(result.stored.map((s) => [s.at, s.state])).toEqual([
      [120, 'success'],
      [2_000, 'pending'],
      [2_020, 'success']
    ])
    expect(result.sent.map((s) => [s.at, s.state])).toEqual([
      [0, 'pending'],
      [100, 'success'],
      [2_000, 'success']
    ])
    expect(result.warnings).toEqual([])
    expect(result.endedAt).toBe(2_020)
  })

  it('a pending write answered before the job ended: the final state is written once', async () => {
    const result = await runCheck({
      writeMs: 10_000,
      jobEnd: 1_000,
      lastMs: 5_000,
      script: [{ storeAfter: 300, answerAfter: 400, answer: 'ok' }]
    })
    expect(result.sent.map((s) => s.state)).toEqual(['pending', 'success'])
    expect(result.last).toBe('success')
    expect(result.warnings).toEqual([])
  })

  it('a held write never answered within the budget: the step waits no longer, and warns once', async () => {
    const result = await runCheck({
      writeMs: 10_000,
      jobEnd: 100,
      lastMs: 5_000,
      // Held 9 s, as GitHub did in the review: stored after the final write.
      script: [{ storeAfter: 9_000, answerAfter: 9_000, answer: 'ok' }]
    })
    expect(result.endedAt).toBe(5_100)
    expect(result.warnings).toHaveLength(1)
    expect(result.warnings[0]).toContain('The docs check on ec26c3e may show an older state')
    expect(result.warnings[0]).toContain('Re-run the workflow job')
    // The hazard the warning names: GitHub stored the pending write last.
    expect(result.last).toBe('pending')
  })

  it('a signal from the runner during the last writes stops them at once', async () => {
    const result = await runCheck({
      writeMs: 10_000,
      jobEnd: 100,
      lastMs: 5_000,
      signalAt: 600,
      script: [{ storeAfter: 2_000, answerAfter: 2_000, answer: 'ok' }]
    })
    expect(result.endedAt).toBe(600)
    expect(result.sent.map((s) => s.state)).toEqual(['pending', 'success'])
    expect(result.warnings).toHaveLength(1)
  })
})

/** How GitHub may handle one write: answered after storing it, a 502 either way, or never. */
const handling = (): fc.Arbitrary<Handling> =>
  fc.oneof(
    fc
      .record({ store: fc.integer({ min: 1, max: 12_000 }), more: fc.integer({ max: 3_000 }) })
      .chain(({ store, more }) =>
        fc.constantFrom<Handling>(
          { storeAfter: store, answerAfter: store + Math.max(0, more), answer: 'ok' },
          { storeAfter: store, answerAfter: store + Math.max(0, more), answer: 502 }
        )
      ),
    // A 502 for a write GitHub never stored.
    fc
      .integer({ min: 1, max: 12_000 })
      .map((after): Handling => ({ answerAfter: after, answer: 502 })),
    // Never answered: stored at some point, or never.
    fc
      .option(fc.integer({ min: 1, max: 20_000 }), { nil: undefined })
      .map((store): Handling => ({ storeAfter: store, answer: 'ok' }))
  )

const runs = fc.record({
  writeMs: fc.integer({ min: 1_000, max: 10_000 }),
  jobEnd: fc.integer({ min: 1, max: 12_000 }),
  lastMs: fc.integer({ min: 1_000, max: 5_000 }),
  script: fc.tuple(handling(), handling(), handling())
})

describe('the last status GitHub stores, over generated orders of answers', () => {
  it('is the final state, or the step warned once; and the step never waits past the budget', async () => {
    await fc.assert(
      fc.asyncProperty(runs, async (run) => {
        const result = await runCheck(run)
        expect(result.endedAt).toBeLessThanOrEqual(run.jobEnd + run.lastMs)
        expect(result.warnings.length).toBeLessThanOrEqual(1)
        // Whatever GitHub stored last that is not the final state, the step said so.
        expect(result.last === 'success' || result.warnings.length === 1).toBe(true)
      }),
      {
        numRuns: 300,
        // GitHub answers the held write just as the last budget ends: nothing is sent after it.
        examples: [
          [
            {
              writeMs: 5790,
              jobEnd: 4061,
              lastMs: 1727,
              script: [
                { storeAfter: 5789, answerAfter: 5789, answer: 'ok' },
                { storeAfter: 1727, answerAfter: 1727, answer: 'ok' },
                { answerAfter: 1, answer: 502 }
              ]
            }
          ]
        ]
      }
    )
  })

  it('is the final state, without a warning, whenever GitHub answers every write within the budgets', async () => {
    const answered = (store: number, more: number): Handling => ({
      storeAfter: store,
      answerAfter: store + more,
      answer: 'ok'
    })
    const write = fc
      .record({ store: fc.integer({ min: 1, max: 4_000 }), more: fc.integer({ min: 0, max: 500 }) })
      .map(({ store, more }) => answered(store, more))
    // Each write answered within its try's share of the time left (`tryShare`).
    const fits = (run: Run) => {
      const [pending, final, again] = run.script as [Handling, Handling, Handling]
      const answeredAt = pending.answerAfter ?? Infinity
      const by = run.jobEnd + run.lastMs
      if (answeredAt >= (run.writeMs ?? Infinity) || answeredAt === run.jobEnd) return false
      const first = run.jobEnd + (final.answerAfter ?? Infinity)
      if (first >= run.jobEnd + tryShare(run.lastMs)) return false
      if (answeredAt < run.jobEnd) return true
      const start = Math.max(answeredAt, first)
      return start < by && (again.answerAfter ?? Infinity) < tryShare(by - start)
    }
    await fc.assert(
      fc.asyncProperty(
        fc
          .record({
            writeMs: fc.integer({ min: 1_000, max: 10_000 }),
            // Often while the pending write may still be held.
            jobEnd: fc.integer({ min: 1, max: 5_000 }),
            lastMs: fc.integer({ min: 1_000, max: 5_000 }),
            script: fc.tuple(write, write, write)
          })
          .filter(fits),
        async (run) => {
          const result = await runCheck(run)
          expect(result.last).toBe('success')
          expect(result.warnings).toEqual([])
          // Written again only when the pending write was still held as the job ended.
          const held = (run.script[0]?.answerAfter ?? 0) > run.jobEnd
          expect(result.sent).toHaveLength(held ? 3 : 2)
        }
      ),
      { numRuns: 300 }
    )
  })
})

/** How GitHub may handle one try of the final write: a 502 (stored or not), a reset, a hang, or ok. */
const finalTry = (): fc.Arbitrary<Handling> =>
  fc.oneof(
    fc
      .record({
        storeAfter: fc.option(fc.integer({ min: 1, max: 3_000 }), { nil: undefined }),
        answerAfter: fc.integer({ min: 1, max: 3_000 }),
        answer: fc.constantFrom<Handling['answer']>(502, 'reset', 'ok')
      })
      // A write answered ok was stored before the answer.
      .map((h) =>
        h.answer === 'ok'
          ? { ...h, storeAfter: Math.min(h.storeAfter ?? h.answerAfter, h.answerAfter) }
          : h
      ),
    // A hang: never answered, and stored at some point or never.
    fc
      .option(fc.integer({ min: 1, max: 20_000 }), { nil: undefined })
      .map((store): Handling => ({ storeAfter: store, answer: 'ok' }))
  )

/** A pending write GitHub answers at once, before any job could end. */
const INSTANT: Handling = { storeAfter: 0, answerAfter: 0, answer: 'ok' }

/** The pending write: answered at once, or held a while (stored, then answered). */
const pendingWrite = fc.oneof(
  fc.constant(INSTANT),
  fc
    .integer({ min: 1, max: 30_000 })
    .map((held): Handling => ({ storeAfter: held, answerAfter: held, answer: 'ok' }))
)

/** Runs with faults on every try of the final write, and time left before the deadline or not. */
const faultyRuns = fc
  .record({
    jobEnd: fc.integer({ min: 1, max: 12_000 }),
    lastMs: fc.integer({ min: 1_000, max: 5_000 }),
    leftMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60_000 })),
    pending: pendingWrite,
    tries: fc.array(finalTry(), { minLength: 1, maxLength: 8 })
  })
  .map(({ jobEnd, lastMs, leftMs, pending, tries }): Run => ({
    jobEnd,
    lastMs,
    deadline: jobEnd + leftMs,
    script: [pending, ...tries]
  }))

/** The longest pause between two tries (`sendingAgain` doubles it five times at most). */
const LONGEST_PAUSE = AGAIN_PAUSE_MS * 2 ** 5

describe('the final check write, over generated faults on each of its tries', () => {
  it('is sent as the job ends, and the step never runs past its own end', async () => {
    await fc.assert(
      fc.asyncProperty(faultyRuns, async (run) => {
        const result = await runCheck(run)
        expect(result.sent.find((s) => s.state === 'success')?.at).toBe(run.jobEnd)
        expect(result.endedAt).toBeLessThanOrEqual(result.window.end)
      }),
      { numRuns: 300 }
    )
  })

  it('lands unless every try failed and no time was left for another', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Nothing held: the tries have the last writes' budget to themselves.
        faultyRuns.map((run) => ({ ...run, script: [INSTANT, ...run.script.slice(1)] })),
        async (run) => {
          const result = await runCheck(run)
          const finals = result.sent.filter((s) => s.state === 'success')
          const landed = finals.some((s) => s.answered === 'ok')
          // Not landed: the tries went on until less than a pause was left.
          const gaveUpAt = landed ? Infinity : (result.endedAt ?? 0)
          expect(gaveUpAt).toBeGreaterThanOrEqual(result.window.by - LONGEST_PAUSE)
          // No try is sent once one was answered ok, and none past the budget.
          const firstOk = finals.findIndex((s) => s.answered === 'ok')
          expect(finals.length).toBe(firstOk >= 0 ? firstOk + 1 : finals.length)
          expect(finals.every((s) => s.at < result.window.by)).toBe(true)
        }
      ),
      {
        numRuns: 300,
        examples: [
          // A 502, then a reset, then a try GitHub never answers, then ok: as in the review.
          [
            {
              jobEnd: 100,
              lastMs: 5_000,
              deadline: 100,
              script: [
                INSTANT,
                { answerAfter: 30, answer: 502 },
                { answerAfter: 10, answer: 'reset' },
                { answer: 'ok' },
                QUICK
              ]
            }
          ]
        ]
      }
    )
  })

  it('a few quick failures never cost the final state', async () => {
    const quickFailure = fc.record({
      answerAfter: fc.integer({ min: 1, max: 50 }),
      answer: fc.constantFrom<Handling['answer']>(502, 'reset')
    })
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12_000 }),
        fc.integer({ min: 1_000, max: 5_000 }),
        fc.array(quickFailure, { maxLength: 3 }),
        async (jobEnd, lastMs, failures) => {
          const result = await runCheck({
            jobEnd,
            lastMs,
            script: [INSTANT, ...failures, { storeAfter: 20, answerAfter: 50, answer: 'ok' }]
          })
          expect(result.last).toBe('success')
          expect(result.warnings).toEqual([])
          expect(result.sent.filter((s) => s.state === 'success')).toHaveLength(failures.length + 1)
        }
      ),
      { numRuns: 200 }
    )
  })

  it('is never left pending after the job ended, unless the step said it may be', async () => {
    await fc.assert(
      fc.asyncProperty(faultyRuns, async (run) => {
        const result = await runCheck(run)
        expect(result.warnings.length).toBeLessThanOrEqual(1)
        const said = result.warnings.length === 1
        // Either GitHub stores the final state last, or a warning says it may not.
        expect(result.last === 'success' || said).toBe(true)
      }),
      { numRuns: 300 }
    )
  })

  it("a pending write held past the last writes' budget is waited for while the step has time", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12_000 }),
        fc.integer({ min: 1_000, max: 5_000 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        async (jobEnd, lastMs, heldMs, spareMs) => {
          // GitHub answers the held write before the deadline, with time to spare or none.
          const deadline = Math.max(jobEnd + heldMs, jobEnd) + spareMs
          const held: Handling = {
            storeAfter: jobEnd + heldMs,
            answerAfter: jobEnd + heldMs,
            answer: 'ok'
          }
          const result = await runCheck({ jobEnd, lastMs, deadline, script: [held] })
          expect(result.last).toBe('success')
          expect(result.warnings).toEqual([])
          expect(result.endedAt).toBeLessThanOrEqual(result.window.end)
        }
      ),
      {
        numRuns: 200,
        // As in the review: held 9 s, the job ended at once, 5 s of last writes, 60 s of timeout.
        examples: [[100, 5_000, 8_900, 51_000]]
      }
    )
  })
})

describe('the status comment when GitHub holds the update made while the job runs', () => {
  /**
   * A comment made at 0 and updated while the job runs (GitHub holds that update `heldMs`), then
   * its last state written at 100 with the last writes' budget of 5 s.
   */
  async function runComment(heldMs: number) {
    const clock = new Clock()
    const stored: string[] = []
    const sent: string[] = []
    const comment = (body: string): IssueComment => ({ id: 7, body, url: 'https://x/7' })
    const github = {
      createComment: (_o: string, _r: string, _n: number, body: string) => {
        sent.push(`create ${body}`)
        stored.push(body)
        return Promise.resolve(comment(body))
      },
      updateComment(_o: string, _r: string, _id: number, body: string, signal: AbortSignal) {
        sent.push(`update ${body}`)
        const after = body === 'running' ? heldMs : 20
        clock.at(clock.now + after, () => stored.push(body))
        return new Promise<IssueComment>((resolve, reject) => {
          signal.addEventListener('abort', () => reject(abortError()), { once: true })
          clock.at(clock.now + after, () => resolve(comment(body)))
        })
      }
    } as Pick<GitHubApi, 'createComment' | 'updateComment'> as GitHubApi
    const warnings: string[] = []
    const log = { info: () => undefined, warning: (m: string) => warnings.push(m), debug: () => {} }
    const owned = new OwnedComment(
      github,
      { owner: 'Codertocat', repo: 'Hello-World', number: 2 },
      {
        mine: () => true,
        describe: (failure) => `Could not write the status comment: ${failure.message}.`
      },
      new Surface(log, ''),
      log
    )
    await owned.write('started', within(clock, 1_000))
    owned.begin('running', (stop) => within(clock, clock.now + 10_000, stop))
    let url: string | undefined
    let endedAt: number | undefined
    clock.at(100, () => {
      void owned.finish('done', within(clock, 5_100)).then((u) => {
        url = u
        endedAt = clock.now
      })
    })
    await clock.runAll()
    return { stored, sent, warnings, url, endedAt }
  }

  it('the last update is sent once GitHub answered the held one, so it is stored last', async () => {
    const result = await runComment(2_000)
    expect(result.sent).toEqual(['create started', 'update running', 'update done'])
    expect(result.stored.at(-1)).toBe('done')
    expect(result.warnings).toEqual([])
    expect(result.endedAt).toBe(2_020)
    expect(result.url).toBe('https://x/7')
  })

  it('held past the budget: nothing is sent beside it, and one warning says it may be out of date', async () => {
    const result = await runComment(9_000)
    expect(result.sent).toEqual(['create started', 'update running'])
    expect(result.endedAt).toBe(5_100)
    expect(result.warnings).toHaveLength(1)
    expect(result.warnings[0]).toContain('it may show an older state; re-run the workflow job')
    // The comment this run wrote still exists.
    expect(result.url).toBe('https://x/7')
  })
})
