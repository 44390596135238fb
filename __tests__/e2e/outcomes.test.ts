import { afterEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { endsBy, KEY, QUICK, ROOT, runAction, simulators, warpTime } from './harness.js'

// Each run waits for its job's first check (a second), and one for its 10 s deadline: on a clock
// twice as fast as real time, since what these tests prove is what the action sends and says, and
// when on its own clock. Not faster: the last look is made half a second before the deadline, and
// its request's real time on a busy machine, multiplied, must fit in that.
warpTime(2)

// These runs write no commit status, so their jobs may end at create (see `quickScenario`).
const sims = simulators({ endedAtCreate: true })
const simulator = sims.start
afterEach(sims.closeAll)

describe('the committed bundle, run as a runner runs it', () => {
  it('completed with a pull request: success, every output, a notice and a summary', async () => {
    const sim = await simulator({ finalStatus: 'completed', prLink: true })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })

    expect(run.code).toBe(0)
    const jobId = run.outputs['job-id'] ?? ''
    expect(jobId).not.toBe('')
    expect(run.outputs).toMatchObject({
      status: 'completed',
      model: expect.any(String) as unknown as string,
      'source-repository': 'https://github.com/acme/docs',
      'archived-at': ''
    })
    expect(run.outputs['pr-link']).toMatch(/^https:\/\/github\.com\/acme\/docs\/pull\/\d+$/)
    expect(run.outputs['pr-link']).toBe(
      `https://github.com/acme/docs/pull/${run.outputs['pr-number']}`
    )
    expect(run.outputs['source-ref']).not.toBe('')
    expect(run.outputs['created-at']).toMatch(/^\d{4}-\d{2}-\d{2}T/)
    expect(JSON.parse(run.outputs.job ?? '')).toMatchObject({ id: jobId, status: 'completed' })
    expect(run.stdout).toContain(`Created agent job ${jobId}`)
    expect(run.stdout).toMatch(
      /::notice title=Mintlify agent::.*opened a pull request: https:\/\/github\.com/
    )
    expect(run.summary).toContain('The agent opened a pull request')
    expect(run.summary).toContain(`<code>${jobId}</code>`)
    // The docs pull request and the repository the agent worked on are real links.
    expect(run.summary).toContain(
      `<a href="${run.outputs['pr-link']}">acme/docs#${run.outputs['pr-number']}</a>`
    )
    expect(run.summary).toContain(
      '<a href="https://github.com/acme/docs">https&#58;//github.com/acme/docs</a>'
    )
  })

  it('sends exactly the documented requests', async () => {
    // A job still running when created, so the checks of it are among the requests.
    const sim = await simulator({ finalStatus: 'completed', jobDurationMs: 100 })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(0)

    const [create, ...polls] = sim.requests
    expect(create?.method).toBe('POST')
    expect(create?.path).toBe('/v2/agent/proj_e2e/job')
    expect(create?.body).toBe(JSON.stringify({ prompt: QUICK.prompt }))
    expect(create?.headers['content-type']).toBe('application/json')
    expect(create?.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(create?.headers['user-agent']).toMatch(/^mintlify-agent-action\/\d+\.\d+\.\d+$/)
    expect(polls.length).toBeGreaterThan(0)
    for (const poll of polls) {
      expect(poll.method).toBe('GET')
      expect(poll.path).toBe(
        `/v2/agent/proj_e2e/job/${encodeURIComponent(run.outputs['job-id'] ?? '')}`
      )
      expect(poll.headers.authorization).toBe(`Bearer ${KEY}`)
    }
    expect(sim.creates()).toBe(1)
  })

  it('completed without a pull request: success that says no files changed', async () => {
    const sim = await simulator({ finalStatus: 'completed', prLink: false })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ status: 'completed', 'pr-link': '', 'pr-number': '' })
    expect(run.stdout).toContain('completed without a pull request link')
    expect(run.stdout).toContain('push straight to the deploy branch')
  })

  it('completed without a pull request and fail-on-no-pr: failure', async () => {
    const sim = await simulator({ finalStatus: 'completed', prLink: false })
    const run = await runAction({ ...QUICK, 'base-url': sim.url, 'fail-on-no-pr': 'true' })
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(
      /::error title=Mintlify agent::Agent job .* completed without a pull request link.*fail-on-no-pr is true/
    )
    expect(run.outputs.status).toBe('completed')
  })

  it('archived: success with a warning', async () => {
    const sim = await simulator({ finalStatus: 'archived', prLink: false })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('archived')
    expect(run.outputs['archived-at']).toMatch(/^\d{4}-/)
    expect(run.stdout).toMatch(
      /::warning title=Mintlify agent::Agent job .* was archived before it finished/
    )
  })

  it('failed: failure, with an error annotation naming the job', async () => {
    const sim = await simulator({ finalStatus: 'failed' })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(1)
    expect(run.outputs.status).toBe('failed')
    // One error annotation, titled like the warnings, with where to look: never an untitled one.
    const errors = run.stdout.split('\n').filter((line) => line.startsWith('::error'))
    expect(errors).toEqual([
      `::error title=Mintlify agent::Agent job ${run.outputs['job-id']} failed. Open it in the ` +
        'Mintlify dashboard (https://app.mintlify.com) to see what the agent reported.'
    ])
    expect(run.summary).toContain('The job failed')
  })

  it('timeout: failure with the job id, status active, and word that the job keeps running', async () => {
    // Waits 10 s on the action's clock, the shortest timeout it takes: the run is about reaching it.
    const sim = await simulator({ finalStatus: 'active' })
    const run = await runAction({ ...QUICK, 'base-url': sim.url, timeout: '10s' })
    expect(run.code).toBe(1)
    expect(run.outputs.status).toBe('active')
    expect(run.stdout).toMatch(
      new RegExp(
        `::error title=Mintlify agent::Timed out: agent job ${run.outputs['job-id']} was still active at the last check before the 10s timeout`
      )
    )
    expect(run.stdout).toContain(
      'keeps running on the platform (the API cannot stop a job); follow it in the Mintlify ' +
        'dashboard (https://app.mintlify.com).'
    )
    expect(run.stdout.split('\n').filter((line) => line.startsWith('::error'))).toHaveLength(1)
    expect(run.summary).toContain('Timed out')
    expect(run.ms).toBeLessThan(endsBy(10_000))
  })

  it('wait: false: success right after create, outputs from the create answer', async () => {
    // A job still running when created: its outputs are the create answer's, not a later read's.
    const sim = await simulator({ finalStatus: 'completed', jobDurationMs: 100 })
    const run = await runAction({ ...QUICK, 'base-url': sim.url, wait: 'false' })
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ status: 'active', 'pr-link': '' })
    expect(run.outputs['job-id']).not.toBe('')
    expect(sim.requests.map((r) => r.method)).toEqual(['POST'])
  })

  it('reads the prompt from prompt-file, relative to the workspace', async () => {
    const sim = await simulator({ finalStatus: 'completed' })
    const workspace = mkdtempSync(join(tmpdir(), 'workspace-'))
    writeFileSync(
      join(workspace, 'docs-prompt.md'),
      'Rewrite the quickstart.\n\nUse "npm" examples.\n'
    )
    const { prompt: _, ...rest } = QUICK
    const run = await runAction(
      { ...rest, 'prompt-file': 'docs-prompt.md', 'base-url': sim.url },
      { cwd: workspace }
    )
    expect(run.code).toBe(0)
    expect(sim.requests[0]?.body).toBe(
      JSON.stringify({ prompt: 'Rewrite the quickstart.\n\nUse "npm" examples.' })
    )
  })

  it('writes job-id before polling, once, and every output once', async () => {
    const sim = await simulator({ finalStatus: 'completed' })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.outputNames[0]).toBe('job-id')
    expect(new Set(run.outputNames).size).toBe(run.outputNames.length)
    // Every output action.yml declares, and nothing else.
    const action = parseYaml(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
      outputs: Record<string, unknown>
    }
    expect(run.outputNames.sort()).toEqual(Object.keys(action.outputs).sort())
  })
})
