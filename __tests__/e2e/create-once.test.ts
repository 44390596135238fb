// On the built action against the simulator: a create the platform carried out but answered with
// a 503 (with Retry-After) leaves one job, and the step says a job may exist and where to look; a
// create the rate limit refused (429, Retry-After: 1) is waited out and sent once more, one job; and a job that ends half a poll interval before the deadline is seen completed,
// at the smallest timeout and at 30 s, by the last check made at the deadline less its share.
import { describe, expect, it } from '@jest/globals'
import { endsBy, QUICK, runAction, simulators, warpTimeIn } from './harness.js'

const creates = (sim: { requests: { method: string; path: string }[] }) =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v2/'))

describe('a create that may have been carried out is not sent again', () => {
  // The Retry-After waits and the poll intervals pass on a clock ten times as fast as real time:
  // what these tests prove is what is sent.
  warpTimeIn(10)
  const sims = simulators()

  it('answered 503 with Retry-After after the job was made: one job', async () => {
    // `createJob`: the simulator makes the job, then answers with the fault.
    const fault = {
      status: 503,
      body: '{"error":"Service unavailable"}',
      headers: { 'Retry-After': '1' },
      createJob: true
    }
    const sim = await sims.start({ faults: { create: [fault] } })
    try {
      const run = await runAction({ ...QUICK, 'base-url': sim.url })
      expect(run.code).toBe(1)
      expect(sim.jobs.size).toBe(1)
      expect(creates(sim)).toHaveLength(1)
      const error =
        run.stdout.split('\n').find((line) => line.startsWith('::error title=Mintlify agent::')) ??
        ''
      expect(error).toMatch(/not sent again, to avoid starting a duplicate job\./)
      expect(error).toContain(
        'Check the Mintlify dashboard (https://app.mintlify.com) for a job that may exist'
      )
      expect(run.summary).toContain('a job that may exist')
    } finally {
      await sims.closeAll()
    }
  })

  it('answered 429 with Retry-After: 1, the rate limit refusing it: waited out, one job, two creates', async () => {
    // A 429 is the platform's refusal for its rate (RFC 6585, section 4; its reference lists 429
    // "Rate limit exceeded" as the create's answer instead of the job), so nothing was made.
    const fault = {
      status: 429,
      body: '{"error":"Rate limit exceeded"}',
      headers: { 'Retry-After': '1' }
    }
    const sim = await sims.start({ faults: { create: [fault] } })
    try {
      const run = await runAction({ ...QUICK, 'base-url': sim.url })
      expect(run.code).toBe(0)
      expect(creates(sim)).toHaveLength(2)
      expect(sim.jobs.size).toBe(1)
      expect(run.outputs['job-id']).toBe([...sim.jobs.keys()][0])
      expect(run.summary).not.toContain('may exist')
    } finally {
      await sims.closeAll()
    }
  })
})

describe('a job that ends half a poll interval before the deadline is seen completed', () => {
  // Real time: the last look is made half a second before a 10 s deadline (a twentieth of the
  // wait), and its request must be answered in that on a machine `SLOWER` times slower than a
  // quiet one (tens of milliseconds there); any faster clock would shrink that half second.
  warpTimeIn(1)
  // Two runs at once: the 30 s one sets how long this takes.
  it.concurrent.each([
    // The smallest timeout; checks 6 s apart: one at about 6 s, then the last one.
    ['10s', 10_000, 6_000, 6_000],
    // Checks growing from 6 s to 15 s: at about 6, 15 and then the last one.
    ['30s', 30_000, 6_000, 15_000]
  ])('with timeout %s', async (timeout, timeoutMs, intervalMs, maxMs) => {
    const sims = simulators()
    // The job is made just after the step starts, so it ends a little later than half an
    // interval before the deadline: within the time the last check is made for.
    const sim = await sims.start({ jobDurationMs: timeoutMs - intervalMs / 2 })
    try {
      const run = await runAction({
        ...QUICK,
        'base-url': sim.url,
        timeout,
        'poll-interval': `${intervalMs / 1000}s`,
        'max-poll-interval': `${maxMs / 1000}s`
      })
      expect(run.code).toBe(0)
      expect(run.outputs.status).toBe('completed')
      // Seen by the last check, near the deadline, not by a regular one.
      expect(run.ms).toBeGreaterThan(timeoutMs - intervalMs / 2)
      expect(run.ms).toBeLessThan(endsBy(timeoutMs))
    } finally {
      await sims.closeAll()
    }
  })
})
