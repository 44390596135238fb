// The built action continuing a job instead of starting another: a follow-up message (not
// idempotent, never sent twice) or attaching to a job (nothing sent), against the simulator.
import { describe, expect, it } from '@jest/globals'
import { setTimeout as delay } from 'node:timers/promises'
import {
  completedJob,
  existingJob,
  margin,
  QUICK,
  runAction,
  waitForLine,
  type Simulator,
  WITHOUT_GITHUB,
  endToEnd,
  warpTimeIn
} from './harness.js'

// These runs write no commit status, so their jobs may end at create (see `quickScenario`).
const sims = endToEnd(WITHOUT_GITHUB, { endedAtCreate: true })

const messages = (sim: Simulator) => sim.requests.filter((r) => r.path.endsWith('/message'))
const posts = (sim: Simulator) => sim.requests.filter((r) => r.method === 'POST')

describe('a follow-up message', () => {
  it('goes to the job once, and the step waits for the same pull request', async () => {
    const sim = await sims.start({ jobDurationMs: 100 })
    const id = await existingJob(sim)
    await delay(150)
    const run = await runAction({
      ...QUICK,
      'base-url': sim.url,
      'job-id': id,
      prompt: 'Also document --dry-run'
    })
    expect(run.code).toBe(0)
    expect(posts(sim).map((r) => r.path)).toEqual([`/v2/agent/proj_e2e/job/${id}/message`])
    expect(JSON.parse(messages(sim)[0]?.body ?? '{}')).toEqual({
      prompt: 'Also document --dry-run'
    })
    expect(run.outputs['job-id']).toBe(id)
    expect(run.outputs.status).toBe('completed')
    expect(run.outputs['pr-link']).toBe(sim.jobs.get(id)?.prLink)
    expect(run.stdout).toContain(`Sent a follow-up message to agent job ${id}`)
  })

  it('with wait: false returns once the message is accepted', async () => {
    const sim = await sims.start()
    const id = await existingJob(sim)
    const run = await runAction({
      ...QUICK,
      'base-url': sim.url,
      'job-id': id,
      prompt: 'x',
      wait: 'false'
    })
    expect(run.code).toBe(0)
    expect(sim.requests).toHaveLength(1)
    expect(run.summary).toContain('Follow-up message sent to agent job')
  })

  it('is sent again once a 429 with Retry-After: 1 is waited out: two messages, one job', async () => {
    // The rate limit refused the first message (429 "Rate limit exceeded" is the message route's
    // documented answer in place of the job): it was not delivered, so sending it again is safe.
    const sim = await sims.start({
      jobDurationMs: 100,
      faults: { message: [{ status: 429, headers: { 'retry-after': '1' } }] }
    })
    const id = await existingJob(sim)
    await delay(150)
    const run = await runAction({ ...QUICK, 'base-url': sim.url, 'job-id': id, prompt: 'x' })
    expect(run.code).toBe(0)
    expect(messages(sim)).toHaveLength(2)
    expect(sim.jobs.size).toBe(1)
    // The simulator records a delivered message in the job's prompts: one delivery.
    expect(sim.jobs.get(id)?.prompts).toHaveLength(2)
    expect(run.stdout).toMatch(
      /::warning title=Mintlify agent::Rate limited \(HTTP 429\).* The message was not delivered; trying again in 1s\./
    )
    expect(run.outputs['job-id']).toBe(id)
    expect(run.outputs.status).toBe('completed')
  })

  it('fails at once when the rate limit lifts only after the timeout: not delivered, and when to try again', async () => {
    const sim = await sims.start({
      faults: { message: [{ status: 429, headers: { 'retry-after': '3600' } }] }
    })
    const id = await existingJob(sim)
    const run = await runAction({ ...QUICK, 'base-url': sim.url, 'job-id': id, prompt: 'x' })
    expect(run.code).toBe(1)
    expect(messages(sim)).toHaveLength(1)
    expect(sim.jobs.get(id)?.prompts).toHaveLength(1)
    expect(run.stdout).toMatch(
      /::error title=Mintlify agent::Rate limited \(HTTP 429\).*asks to wait 1h.*The message was not delivered: the platform refused the request\. Try again after \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\./
    )
    // Not a timeout of the job, nor a message that may have been delivered.
    expect(run.stdout).not.toMatch(/Timed out|could not be read|may or may not/)
  })

  it.each([
    ['a 500', { status: 500 }],
    ['a dropped connection', { action: 'reset' as const }]
  ])('is never sent twice after %s, and says it may have been delivered', async (_, fault) => {
    const sim = await sims.start({ faults: { message: [fault] } })
    const id = await existingJob(sim)
    const run = await runAction({ ...QUICK, 'base-url': sim.url, 'job-id': id, prompt: 'x' })
    expect(run.code).toBe(1)
    expect(messages(sim)).toHaveLength(1)
    expect(run.stdout).toMatch(
      /::error title=Mintlify agent::The request to send the follow-up message failed after it was sent .*the message may or may not have been delivered/
    )
    expect(run.outputs['job-id']).toBe(id)
  })

  it('404: names the job and the project, and is not retried', async () => {
    const sim = await sims.start()
    const run = await runAction({
      ...QUICK,
      'base-url': sim.url,
      'job-id': 'job_missing',
      prompt: 'x'
    })
    expect(run.code).toBe(1)
    expect(sim.requests).toHaveLength(1)
    expect(run.stdout).toMatch(
      /::error title=Mintlify agent::Agent job "job_missing" was not found in project "proj_e2e" \(HTTP 404\)/
    )
  })

  it('400: quotes the server and suggests a new job, and is not retried', async () => {
    const sim = await sims.start({ refuseMessages: true })
    const id = await existingJob(sim)
    const run = await runAction({ ...QUICK, 'base-url': sim.url, 'job-id': id, prompt: 'x' })
    expect(run.code).toBe(1)
    expect(sim.requests).toHaveLength(1)
    expect(run.stdout).toMatch(
      /::error title=Mintlify agent::The API refused the message .*The server said: This job does not accept follow-up messages.*start a new job/
    )
  })

  it('when cancelled while waiting, keeps the given job id and says the job goes on', async () => {
    const sim = await sims.start({ jobDurationMs: 60_000 })
    const id = await existingJob(sim)
    const run = await runAction(
      { ...QUICK, 'base-url': sim.url, 'job-id': id, prompt: 'x' },
      {
        onSpawn: (child) => {
          void waitForLine(child, /Sent a follow-up message/).then(() => child.kill('SIGINT'))
        }
      }
    )
    expect(run.code).toBe(1)
    expect(run.outputs['job-id']).toBe(id)
    expect(run.stdout).toMatch(/cancelled \(SIGINT\).*keeps running on the platform/)
    expect(messages(sim)).toHaveLength(1)
  })
})

describe('attaching to a job', () => {
  it('sends nothing that changes the job, and waits for it like a new one', async () => {
    const sim = await sims.start({ jobDurationMs: 400 })
    const id = await existingJob(sim)
    const run = await runAction({ ...QUICK, prompt: '', 'base-url': sim.url, 'job-id': id })
    expect(run.code).toBe(0)
    expect(posts(sim)).toHaveLength(0)
    expect(run.outputs).toMatchObject({ 'job-id': id, status: 'completed' })
    expect(run.outputs['pr-link']).toMatch(/^https:\/\//)
    expect(run.stdout).toContain(`Attaching to agent job ${id}`)
  })

  it('reports a job that has already ended at once, with one request', async () => {
    const sim = await sims.start({ jobDurationMs: 50, finalStatus: 'failed' })
    const id = await existingJob(sim)
    await delay(100)
    const run = await runAction({ ...QUICK, prompt: '', 'base-url': sim.url, 'job-id': id })
    expect(run.code).toBe(1)
    expect(sim.requests).toHaveLength(1)
    expect(run.stdout).toMatch(/::error title=Mintlify agent::Agent job .* failed/)
  })
})

describe('job-id is checked before any request', () => {
  it.each([
    ['blank', '   ', /is blank/],
    ['with a control character', 'job\u00071', /contains control characters/],
    ['with an encoded control character', 'job%0A1', /contains control characters/],
    // A workflow command writes "%" as "%25"; the runner shows it as "%".
    ['with a "%" that encodes nothing', '50%off', /has a "%25" that does not start/],
    ['..', '..', /cannot be "\." or "\.\."/]
  ])('%s', async (_, value, message) => {
    const sim = await sims.start()
    const run = await runAction({ ...QUICK, 'base-url': sim.url, 'job-id': value })
    expect(run.code).toBe(1)
    expect(sim.requests).toHaveLength(0)
    expect(run.stdout).toMatch(
      new RegExp(`::error title=Mintlify agent::Input "job-id": ${message.source}`)
    )
  })
})

describe('a follow-up message read back stale', () => {
  // Twice as fast as real time: the job must outlast the stale reads and what the run does around
  // them, which takes real time.
  warpTimeIn(2)

  it('does not take the status from before the message for the end of the job', async () => {
    const sim = await sims.start({ staleReadsAfterMessage: 3 })
    const id = await completedJob(sim)
    // Still running once the three stale reads, a second apart, are over, with the run's own work
    // on a machine `SLOWER` times slower than a quiet one.
    sim.setScenario({ jobDurationMs: 3_000 + margin() })
    const run = await runAction(
      { ...QUICK, 'base-url': sim.url, 'job-id': id, prompt: 'Also document --dry-run' },
      { env: { RUNNER_DEBUG: '1' } }
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('may date from before the message')
    expect(run.stdout).toMatch(/Job status: active/)
    expect(run.stdout.indexOf('Job status: active')).toBeLessThan(
      run.stdout.indexOf('Job status: completed')
    )
    expect(messages(sim)).toHaveLength(1)
  })
})
