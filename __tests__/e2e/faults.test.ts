import { afterEach, describe, expect, it } from '@jest/globals'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { endsBy, QUICK, runAction, simulators, waitForLine, warpTimeIn } from './harness.js'

// These runs write no commit status, so their jobs may end at create (see `quickScenario`).
const sims = simulators({ endedAtCreate: true })
afterEach(sims.closeAll)

const rateLimited = {
  status: 429,
  headers: { 'Retry-After': '1' },
  body: JSON.stringify({ error: 'Rate limit exceeded' })
}

// Retry waits, poll intervals and deadlines pass on a clock ten times as fast as real time in the
// first three groups: what they prove is what the action does, and when on its own clock.
describe('create is sent once', () => {
  warpTimeIn(10)

  it('waits out a 429 with Retry-After: 1 and creates exactly one job with a second POST', async () => {
    // The platform refused the first create for its rate (RFC 6585, section 4; its reference
    // lists 429 "Rate limit exceeded" as the create's answer in place of a job): nothing was made.
    const sim = await sims.start({ faults: { create: [rateLimited] } })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(0)
    expect(sim.requests.filter((r) => r.method === 'POST')).toHaveLength(2)
    expect(sim.jobs.size).toBe(1)
    expect(run.outputs['job-id']).toBe([...sim.jobs.keys()][0])
    expect(run.outputs.status).toBe('completed')
    expect(run.stdout).toMatch(
      /::warning title=Mintlify agent::Rate limited \(HTTP 429\).* No job was created; trying again in 1s\./
    )
    expect(run.stdout).toContain('The request to create the agent job went through on attempt 2.')
    expect(run.stdout).not.toMatch(/may exist|may or may not/)
  })

  it.each([
    [
      'a 500 after the job was created',
      { status: 500, body: '{"error":"internal"}', createJob: true }
    ],
    ['a 504 from a gateway', { status: 504, body: '<html>Gateway Timeout</html>' }],
    ['a connection reset', { action: 'reset' as const }]
  ])('never sends a second POST after %s, and says where to look', async (_, fault) => {
    const sim = await sims.start({ faults: { create: [fault] } })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(1)
    expect(sim.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
    expect(sim.requests.filter((r) => r.method === 'GET')).toHaveLength(0)
    expect(run.stdout).toMatch(
      /::error title=Mintlify agent::The request to create the agent job failed after it was sent .*may or may not have been created.*dashboard/
    )
    expect(run.stderr).not.toMatch(/\n\s+at /)
  })

  it('fails at once when the rate limit lifts only after the timeout', async () => {
    const sim = await sims.start({
      faults: { create: [{ ...rateLimited, headers: { 'Retry-After': '3600' } }] }
    })
    const run = await runAction({ ...QUICK, 'base-url': sim.url, timeout: '10m' })
    expect(run.code).toBe(1)
    // At once: no wait was begun (a 10-minute one would outlast the test's own timeout).
    expect(run.stdout).not.toMatch(/trying again in/i)
    expect(run.stdout).toMatch(
      /::error title=Mintlify agent::Rate limited \(HTTP 429\).*100 agent jobs and 100 follow-up messages per project per hour.*asks to wait 1h.*No job was created: the platform refused the request\. Try again after \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\./
    )
    expect(run.stdout).not.toMatch(/may exist|may or may not/)
    expect(sim.requests).toHaveLength(1)
    expect(sim.jobs.size).toBe(0)
  })

  it('retries a connection that was refused, then gives up with a clear message', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const run = await runAction({ ...QUICK, 'base-url': `http://127.0.0.1:${port}` })
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(
      /::error title=Mintlify agent::Could not reach http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED.*gave up after 6 attempts/
    )
  })
})

describe('polls are retried freely', () => {
  warpTimeIn(10)

  it('rides out 500, 502 with HTML, 503 with Retry-After, a reset and truncated JSON', async () => {
    const sim = await sims.start({
      faults: {
        get: [
          { status: 500, body: '{"error":"boom"}' },
          { status: 502, body: '<html><body>502 Bad Gateway</body></html>' },
          { status: 503, headers: { 'Retry-After': '1' }, body: '' },
          { action: 'reset' },
          { action: 'truncate' }
        ]
      }
    })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    expect(sim.creates()).toBe(1)
    const failures = run.stdout.split('\n').filter((l) => l.includes('Checking the job failed'))
    expect(failures).toHaveLength(5)
    // A run of failed checks is one warning; the others are info and debug lines.
    expect(failures.filter((l) => l.startsWith('::warning'))).toHaveLength(1)
    expect(run.stdout).not.toContain('<html>')
  })

  it('stops at once on a 404, naming the job', async () => {
    const sim = await sims.start({
      faults: { get: [{ status: 404, body: '{"error":"Job not found"}' }] }
    })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(1)
    expect(sim.requests.filter((r) => r.method === 'GET')).toHaveLength(1)
    expect(run.stdout).toMatch(
      /::error title=Mintlify agent::Agent job ".+" was not found in project "proj_e2e" \(HTTP 404\): check job-id.* The server said: Job not found/
    )
    expect(run.outputs['job-id']).not.toBe('')
  })
})

// These wait 10 s each on the action's clock (a third of that in real time), the shortest timeout
// the action takes: the deadline is what they test. Not faster: what a run does after its deadline
// takes real time, multiplied on its clock; the bound these assert (`endsBy`) leaves room for it
// on a machine `SLOWER` times slower than a quiet one.
describe('deadlines', () => {
  warpTimeIn(3)

  it('ends at its timeout when a poll never answers', async () => {
    const sim = await sims.start({ faults: { get: Array(50).fill({ action: 'hang' }) } })
    const run = await runAction({ ...QUICK, 'base-url': sim.url, timeout: '10s' })
    expect(run.code).toBe(1)
    expect(run.ms).toBeLessThan(endsBy(10_000))
    expect(run.outputs).toMatchObject({ status: 'active' })
    expect(run.stdout).toContain('at the last check before the 10s timeout')
  })

  it('ends at its timeout when the job never finishes, with the job id and active', async () => {
    const sim = await sims.start({ finalStatus: 'active' })
    const run = await runAction({ ...QUICK, 'base-url': sim.url, timeout: '10s' })
    expect(run.code).toBe(1)
    expect(run.ms).toBeLessThan(endsBy(10_000))
    expect(run.outputs['job-id']).toBe([...sim.jobs.keys()][0])
    expect(run.outputs.status).toBe('active')
  })
})

// On real time: the promise is how soon, on the runner's clock, the step ends after a signal. The
// step's work after one takes tens of milliseconds on a quiet machine: 2 s leaves room for one
// `SLOWER` (ten) times slower.
describe('cancellation', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'on %s while polling: exits within 2 s with the job id in outputs, log and summary',
    async (signal) => {
      const sim = await sims.start({ finalStatus: 'active' })
      let signalledAt = 0
      const run = await runAction(
        { ...QUICK, 'base-url': sim.url, timeout: '1m' },
        {
          onSpawn: (child) => {
            void waitForLine(child, /Created agent job/).then(() =>
              setTimeout(() => {
                signalledAt = performance.now()
                child.kill(signal)
              }, 300)
            )
          }
        }
      )
      const exitedAfter = performance.now() - signalledAt
      expect(signalledAt).toBeGreaterThan(0)
      expect(exitedAfter).toBeLessThan(2000)
      const jobId = [...sim.jobs.keys()][0] ?? ''
      expect(run.outputs).toMatchObject({ 'job-id': jobId, status: 'active' })
      expect(run.stdout).toContain(
        `The workflow was cancelled (${signal}). Agent job ${jobId} keeps running on the platform`
      )
      expect(run.summary).toContain(jobId)
      expect(run.summary).toContain('Cancelled')
    }
  )
})
