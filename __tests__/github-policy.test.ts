import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import type { Within } from '../src/base/runtime.js'
import { lastWindow } from '../src/run/step.js'
import {
  AGAIN_PAUSE_MS,
  Beside,
  budgetsFor,
  createOnce,
  KEPT_FOR_AGAIN_MS,
  MIN_TRY_MS,
  sendingAgain,
  Surface,
  tryShare
} from '../src/clients/github/policy.js'
import { gitHubError, type GitHubFailureKind } from '../src/clients/github/api.js'

const http = (status: number, headers: Record<string, string> = {}, message = 'x') =>
  Object.assign(new Error(message), { name: 'HttpError', status, response: { headers } })

describe('budgetsFor', () => {
  it.each([
    [30 * 60_000, { change: 15_000, lookup: 10_000, write: 10_000, last: 5_000 }],
    [40_000, { change: 10_000, lookup: 8_000, write: 8_000, last: 4_000 }],
    [2_000, { change: 1_000, lookup: 1_000, write: 1_000, last: 1_000 }]
  ])('for a timeout of %i ms', (timeoutMs, expected) => {
    expect(budgetsFor(timeoutMs)).toEqual(expected)
  })

  it('never lets reading and looking up together take half the timeout or more', () => {
    for (const timeoutMs of [10_000, 20_000, 60_000, 600_000]) {
      const b = budgetsFor(timeoutMs)
      expect(Math.max(b.change, b.lookup)).toBeLessThan(timeoutMs / 2)
    }
  })
})

describe('gitHubError', () => {
  it.each<[unknown, GitHubFailureKind, boolean]>([
    [http(401), 'refused', false],
    [http(403), 'refused', false],
    [http(404), 'refused', false],
    [http(403, { 'x-ratelimit-remaining': '0' }), 'rate-limited', false],
    [http(403, {}, 'You have exceeded a secondary rate limit'), 'rate-limited', false],
    [http(429), 'rate-limited', false],
    [http(422), 'invalid', false],
    [http(409), 'invalid', false],
    [http(500), 'server', true],
    [http(502), 'server', true],
    [
      Object.assign(new Error('fetch failed'), { name: 'HttpError', status: 500 }),
      'no-answer',
      true
    ],
    [new DOMException('aborted', 'AbortError'), 'no-answer', true],
    [new DOMException('timed out', 'TimeoutError'), 'no-answer', true],
    [new Error('Unexpected end of JSON'), 'garbled', false]
  ])('%p is %s (may have landed: %p)', (error, kind, landed) => {
    const failure = gitHubError(error)
    expect(failure.kind).toBe(kind)
    expect(failure.mayHaveLanded).toBe(landed)
  })
})

describe('createOnce', () => {
  it('sends the create once and takes what the lookup finds after a 502', async () => {
    let creates = 0
    const made = await createOnce(
      () => {
        creates++
        return Promise.reject(http(502))
      },
      () => Promise.resolve('found')
    )
    expect(made).toBe('found')
    expect(creates).toBe(1)
  })

  it('does not look after a refusal: nothing landed', async () => {
    let looks = 0
    await expect(
      createOnce(
        () => Promise.reject(http(422)),
        () => {
          looks++
          return Promise.resolve('found')
        }
      )
    ).rejects.toMatchObject({ kind: 'invalid' })
    expect(looks).toBe(0)
  })

  it('reports the unknown outcome when the lookup finds nothing', async () => {
    await expect(
      createOnce(
        () => Promise.reject(new DOMException('aborted', 'AbortError')),
        () => Promise.resolve(undefined)
      )
    ).rejects.toMatchObject({ kind: 'no-answer', mayHaveLanded: true })
  })
})

describe('Surface', () => {
  const log = () => {
    const lines: string[] = []
    const debug: string[] = []
    return {
      lines,
      debug,
      sink: {
        info: () => undefined,
        warning: (m: string) => lines.push(m),
        debug: (m: string) => debug.push(m)
      }
    }
  }

  it('warns once and remembers a refusal, sending nothing after it', async () => {
    const { lines, debug, sink } = log()
    const surface = new Surface(sink, 'The docs job is not affected.')
    let calls = 0
    const refuse = () => {
      calls++
      return Promise.reject(http(403))
    }
    expect(await surface.write((e) => `Could not write: ${e.message}.`, refuse)).toBeUndefined()
    expect(await surface.write((e) => `Could not write: ${e.message}.`, refuse)).toBeUndefined()
    expect(calls).toBe(1)
    expect(lines).toEqual([
      'Could not write: GitHub refused (HTTP 403). The docs job is not affected.'
    ])
    // The first failure's own words go to the debug log beside the warning.
    expect(debug).toEqual(['GitHub write failed: x'])
  })

  it('keeps writing after a failure that is not a refusal, warning only the first time', async () => {
    const { lines, debug, sink } = log()
    const surface = new Surface(sink, '')
    let calls = 0
    const fail = () => {
      calls++
      return Promise.reject(http(502))
    }
    await surface.write(() => 'first', fail)
    await surface.write(() => 'second', fail)
    expect(calls).toBe(2)
    expect(lines).toEqual(['first'])
    expect(debug).toEqual(['GitHub write failed: x', 'GitHub write failed: x', 'second'])
  })
})

describe('Beside', () => {
  const abortError = () => new DOMException('The operation was aborted.', 'AbortError')

  /** A promise settled by hand: GitHub answering a write it held. */
  function held() {
    let answer = () => undefined as void
    const promise = new Promise<void>((resolve) => (answer = resolve))
    return { promise, answer }
  }

  /** Bounds that run out when `end` is called, as a budget does; `stop` ends them too. */
  function bounds(stop?: AbortSignal) {
    const controller = new AbortController()
    stop?.addEventListener('abort', () => controller.abort(), { once: true })
    const within: Within = (call) =>
      new Promise((resolve, reject) => {
        if (controller.signal.aborted) return reject(abortError())
        controller.signal.addEventListener('abort', () => reject(abortError()), { once: true })
        call(controller.signal).then(resolve, reject)
      })
    return { within, end: () => controller.abort() }
  }

  /** A surface, the lines it warned and a Beside over it; `sent` records what was sent when. */
  function setup() {
    const warned: string[] = []
    const log = { info: () => undefined, warning: (m: string) => warned.push(m), debug: () => {} }
    const surface = new Surface(log, '')
    const beside = new Beside(surface, 'may show an older state')
    const sent: string[] = []
    /** A write GitHub answers when `until` settles, recording when it was sent and answered. */
    const write =
      (name: string, until: Promise<void> = Promise.resolve()) =>
      (within: Within) =>
        surface.write(
          () => `could not write ${name}`,
          () =>
            within(async (signal) => {
              sent.push(`send ${name}`)
              await new Promise<void>((resolve, reject) => {
                signal.addEventListener('abort', () => reject(abortError()), { once: true })
                void until.then(resolve)
              })
              sent.push(`answer ${name}`)
              return name
            })
        )
    return { warned, beside, sent, write }
  }

  const tick = () => new Promise((resolve) => setImmediate(resolve))

  it('sends the last write once after an earlier write GitHub answered', async () => {
    const { beside, sent, write, warned } = setup()
    beside.start(write('pending'), (stop) => bounds(stop).within)
    await tick()
    expect(await beside.last(write('final'), bounds().within, true)).toBe('final')
    expect(sent).toEqual(['send pending', 'answer pending', 'send final', 'answer final'])
    expect(warned).toEqual([])
  })

  it('alongside: sends the last write beside a held one, and again once GitHub answered it', async () => {
    const { beside, sent, write, warned } = setup()
    const github = held()
    beside.start(write('pending', github.promise), (stop) => bounds(stop).within)
    const last = beside.last(write('final'), bounds().within, true)
    await tick()
    expect(sent).toEqual(['send pending', 'send final', 'answer final'])
    github.answer()
    expect(await last).toBe('final')
    expect(sent).toEqual([
      'send pending',
      'send final',
      'answer final',
      'answer pending',
      'send final',
      'answer final'
    ])
    expect(warned).toEqual([])
  })

  it('not alongside: sends the last write only once the held one was answered', async () => {
    const { beside, sent, write } = setup()
    const github = held()
    beside.start(write('pending', github.promise), (stop) => bounds(stop).within)
    const last = beside.last(write('final'), bounds().within, false)
    await tick()
    expect(sent).toEqual(['send pending'])
    github.answer()
    expect(await last).toBe('final')
    expect(sent).toEqual(['send pending', 'answer pending', 'send final', 'answer final'])
  })

  it.each([true, false])(
    'a write still held when the budget runs out: one warning, stopped, nothing more sent (alongside: %p)',
    async (alongside) => {
      const { beside, sent, write, warned } = setup()
      const budget = bounds()
      let stopped: AbortSignal | undefined
      beside.start(
        (within, stop) => {
          stopped = stop
          return write('pending', new Promise(() => undefined))(within)
        },
        (stop) => bounds(stop).within
      )
      const last = beside.last(write('final'), budget.within, alongside)
      await tick()
      budget.end()
      expect(await last).toBe(alongside ? 'final' : undefined)
      expect(sent).toEqual(
        alongside ? ['send pending', 'send final', 'answer final'] : ['send pending']
      )
      expect(warned).toEqual(['may show an older state'])
      // The held write is told it was stopped, so that is no failure of its own to report.
      expect(stopped?.aborted).toBe(true)
    }
  )

  it('a write its own bounds cut short cannot be waited for: the last one is sent once, with the warning', async () => {
    const { beside, sent, write, warned } = setup()
    const own = bounds()
    beside.start(write('pending', new Promise(() => undefined)), () => own.within)
    await tick()
    own.end()
    await tick()
    expect(await beside.last(write('final'), bounds().within, false)).toBe('final')
    expect(sent).toEqual(['send pending', 'send final', 'answer final'])
    // The pending write's own failure was the surface's one warning; the second goes to debug.
    expect(warned).toEqual(['could not write pending'])
  })

  it('stop: the write under way is stopped and not waited for', async () => {
    const { beside, sent, write } = setup()
    beside.start(write('pending', new Promise(() => undefined)), (stop) => bounds(stop).within)
    beside.stop()
    await tick()
    expect(sent).toEqual(['send pending'])
    expect(await beside.last(write('final'), bounds().within, true)).toBe('final')
  })
})

describe('tryShare', () => {
  it('keeps at most a second, and half, of the time left for another try', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 600_000 }), (left) => {
        const share = tryShare(left)
        expect(share).toBeLessThanOrEqual(left)
        expect(left - share).toBeLessThanOrEqual(KEPT_FOR_AGAIN_MS)
        // Under twice the smallest try, the one try takes all; above it, none takes under half.
        expect(share).toBe(left < 2 * MIN_TRY_MS ? left : Math.max(share, Math.ceil(left / 2)))
      })
    )
  })
})

/**
 * A virtual clock for `sendingAgain`: `until` bounds a call to `at` and to `stop`, a call with no
 * time left is not made, and `sleep` moves the clock on.
 */
function virtualTime(stop = new AbortController().signal) {
  let now = 0
  const aborted = () => Object.assign(new Error('aborted'), { name: 'AbortError' })
  return {
    now: () => now,
    advance: (ms: number) => (now += ms),
    sleep: (ms: number, signal: AbortSignal) =>
      signal.aborted ? Promise.reject(aborted()) : Promise.resolve(void (now += ms)),
    until:
      (at: number): Within =>
      (call) => {
        if (now >= at || stop.aborted) return Promise.reject(aborted())
        const limit = new AbortController()
        return call(limit.signal).then((value) => {
          if (now > at) throw aborted()
          return value
        })
      },
    stop
  }
}

describe('sendingAgain', () => {
  /** One try's answer: it takes `ms`, then succeeds or fails as `fails` says. */
  type Try = { ms: number; fails?: Error }
  const server = http(502)
  const reset = Object.assign(new Error('socket hang up'), { name: 'HttpError', status: 500 })

  async function send(tries: readonly Try[], by: number) {
    const time = virtualTime()
    const at: number[] = []
    let n = 0
    const result = await sendingAgain(
      time,
      by
    )(async () => {
      at.push(time.now())
      const next = tries[n++] ?? { ms: 1 }
      time.advance(next.ms)
      if (next.fails) throw next.fails
      return 'landed'
    }).catch((error: unknown) => error)
    return { result, at }
  }

  it('sends again after a 5xx, a reset or no answer, until one lands', async () => {
    const { result, at } = await send(
      [
        { ms: 10, fails: server },
        { ms: 10, fails: reset }
      ],
      5_000
    )
    expect(result).toBe('landed')
    expect(at).toEqual([0, 10 + AGAIN_PAUSE_MS, 20 + 3 * AGAIN_PAUSE_MS])
  })

  it.each([401, 403, 404, 422])(
    'never after an HTTP %i: the next try would fail too',
    async (s) => {
      const { result, at } = await send([{ ms: 10, fails: http(s) }], 5_000)
      expect(gitHubError(result).status).toBe(s)
      expect(at).toEqual([0])
    }
  )

  it('over generated failures: every try is sent before `by`, and it gives up only without time for another', async () => {
    const attempt = fc.record({
      ms: fc.integer({ min: 0, max: 3_000 }),
      fails: fc.constantFrom<Error | undefined>(undefined, server, reset)
    })
    await fc.assert(
      fc.asyncProperty(
        fc.array(attempt, { maxLength: 12 }),
        fc.integer({ min: 1, max: 6_000 }),
        async (tries, by) => {
          const { result, at } = await send(tries, by)
          expect(at.every((t) => t < by)).toBe(true)
          expect(at.length).toBeGreaterThan(0)
          // Not landed: the last try ended with less than its pause left before `by`.
          const lastTry = tries[at.length - 1] ?? { ms: 1 }
          const endedAt = (at.at(-1) ?? 0) + lastTry.ms
          const pause = AGAIN_PAUSE_MS * 2 ** Math.min(at.length - 1, 5)
          expect(result === 'landed' || by - endedAt - pause <= 0).toBe(true)
        }
      ),
      { numRuns: 300 }
    )
  })

  it('a signal from the runner stops it at once', async () => {
    const stop = new AbortController()
    const time = virtualTime(stop.signal)
    let tries = 0
    const result = await sendingAgain(
      time,
      5_000
    )(() => {
      tries++
      stop.abort()
      return Promise.reject(server)
    }).catch((error: unknown) => error)
    expect(result).toBe(server)
    expect(tries).toBe(1)
  })
})

describe('lastWindow', () => {
  it('gives a held write the rest of the timeout, and never runs past the deadline plus the last budget', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: -100_000, max: 1_000_000 }),
        fc.integer({ min: 1_000, max: 5_000 }),
        (now, after, lastMs) => {
          const deadline = now + after
          const w = lastWindow(now, deadline, lastMs)
          // Their budget, ending by the deadline plus it, and never none: the first is tried.
          expect(w.by).toBe(Math.max(now + 1, Math.min(now + lastMs, deadline + lastMs)))
          expect(w.heldBy).toBe(Math.max(w.by, deadline))
          expect(w.end).toBeLessThanOrEqual(Math.max(w.by, deadline + lastMs))
          expect(w.heldBy).toBeLessThanOrEqual(w.end)
        }
      )
    )
  })

  it('before the settings were read (no deadline), only the last budget', () => {
    expect(lastWindow(10, Infinity, 5_000)).toEqual({
      by: 5_010,
      heldBy: 5_010,
      end: 5_010,
      lastMs: 5_000
    })
  })
})
