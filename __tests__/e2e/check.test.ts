// The built action's docs check: one commit status per Mintlify project on the code change's head
// commit, pending while the job runs and then what the run came to, seen from the fake GitHub.
import { describe, expect, it } from '@jest/globals'
import {
  existingJob,
  now,
  onEvent,
  PUSHED,
  QUICK,
  runAction,
  type Simulator,
  WITH_GITHUB,
  warnings,
  endToEnd,
  atPace,
  SHORT_TIMEOUT
} from './harness.js'

const sims = endToEnd(WITH_GITHUB)

const TOKEN = 'ghs_check_token_0123'
const HEAD = PUSHED
/** The test merge commit GITHUB_SHA names on a pull_request event: never where the check goes. */
const MERGE = 'b3a1f1e4c0d2e5f6a7b8c9d0e1f2a3b4c5d6e7f8'
const CONTEXT = `Mintlify docs (${QUICK['project-id']})`

// The check's own sequence; with a preview the docs check says ready before it ends (see
// preview.test.ts), a third state this file's sequences leave out.
const inputs = (sim: Simulator, more: Record<string, string> = {}) => ({
  ...QUICK,
  'base-url': sim.url,
  'github-token': TOKEN,
  comment: 'off',
  preview: 'off',
  ...more
})
const onPullRequest = (sim: Simulator, extra: Record<string, string> = {}) =>
  onEvent(sim, 'pull_request', 'pull_request-opened.json', { GITHUB_SHA: MERGE, ...extra })

/** The statuses the run set, oldest first, as `state: description`. */
const statuses = (sim: Simulator, context = CONTEXT) =>
  sim.github.statuses.filter((s) => s.context === context)
const statusRequests = (sim: Simulator) =>
  sim.github.requests.filter((r) => r.kind === 'createStatus')

/** Resolves once `done()` holds, or after `ms` on this file's clock at the latest. */
async function until(done: () => boolean, ms: number): Promise<void> {
  for (const end = now() + ms; !done() && now() < end;) {
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** The last writes' budget for a step with a `timeout` of 30s (budgetsFor: a tenth of it). */
const LAST_OF_30S = 3_000

describe('the docs check on a pull request', () => {
  it('is pending while the job runs, then success linking the docs pull request', async () => {
    const sim = await sims.start({ prLink: true })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    const set = statuses(sim)
    expect(set.map((s) => s.state)).toEqual(['pending', 'success'])
    expect(set.every((s) => s.sha === HEAD)).toBe(true)
    expect(set[0]?.targetUrl).toBe('https://github.com/Codertocat/Hello-World/actions/runs/4242')
    expect(set[0]?.description).toContain(run.outputs['job-id'])
    expect(set[1]?.targetUrl).toBe(run.outputs['pr-link'])
    expect(set[1]?.description).toMatch(/^Docs pull request ready/)
    expect(run.outputs['check-url']).toBe(
      `https://github.com/Codertocat/Hello-World/commit/${HEAD}`
    )
    expect(run.summary).toContain(`<a href="${run.outputs['check-url']}">on the commit</a>`)
  })

  it('with a preview: ready as soon as the docs are, then the preview’s end', async () => {
    const sim = await sims.start({
      prLink: true,
      github: {
        pulls: { 'acme/docs#101': { user: 'mintlify[bot]', head: { ref: 'mintlify/x' } } }
      },
      jobFields: { source: { repository: 'https://github.com/acme/docs', ref: 'mintlify/x' } },
      // Long enough for the ready write to land before the preview ends.
      preview: { buildMs: 3000 }
    })
    const run = await runAction(inputs(sim, { preview: 'auto' }), onPullRequest(sim))
    expect(run.code).toBe(0)
    const set = statuses(sim).map((s) => [s.state, s.description])
    expect(set).toEqual([
      ['pending', expect.stringContaining(run.outputs['job-id'] ?? '')],
      ['success', 'Docs pull request ready'],
      ['success', 'Docs pull request ready, preview ready']
    ])
  })

  it('completed without a pull request, and nothing pushed: success, saying no change was needed', async () => {
    const sim = await sims.start({ prLink: false })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(run.outputs.outcome).toBe('no-change')
    expect(statuses(sim).at(-1)).toMatchObject({
      state: 'success',
      description: 'No docs change needed'
    })
  })

  it('a failed job: failure', async () => {
    const sim = await sims.start({ finalStatus: 'failed', prLink: false })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).not.toBe(0)
    expect(statuses(sim).at(-1)?.state).toBe('failure')
  })

  it('a timeout: still pending, naming the job that keeps running', async () => {
    const sim = await sims.start({ finalStatus: 'active' })
    const run = await atPace(SHORT_TIMEOUT, () =>
      runAction(inputs(sim, { timeout: '10s' }), onPullRequest(sim))
    )
    expect(run.code).not.toBe(0)
    const last = statuses(sim).at(-1)
    expect(last?.state).toBe('pending')
    expect(last?.description).toContain(`Still running: docs job ${run.outputs['job-id']}`)
  })

  it('skipped by paths: success, so a required check does not block', async () => {
    const sim = await sims.start()
    const run = await runAction(inputs(sim, { paths: 'no-such-dir/**' }), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(run.outputs.skipped).toBe('true')
    expect(statuses(sim).map((s) => [s.state, s.description])).toEqual([
      ['success', 'No documented files changed']
    ])
  })

  it('check: off sends no status request at all; dry-run neither', async () => {
    const sim = await sims.start()
    const off = await runAction(inputs(sim, { check: 'off' }), onPullRequest(sim))
    const dry = await runAction(inputs(sim, { 'dry-run': 'true' }), onPullRequest(sim))
    expect([off.code, dry.code]).toEqual([0, 0])
    expect(statusRequests(sim)).toEqual([])
    expect(off.outputs['check-url']).toBe('')
  })

  it('a 403: one warning naming statuses: write, and the docs job is reported', async () => {
    const refused = {
      status: 403,
      body: '{"message":"Resource not accessible by integration"}'
    }
    const sim = await sims.start({ githubFaults: { createStatus: [refused, refused] } })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    const said = warnings(run.stdout).filter((w) => w.includes('docs check'))
    expect(said).toHaveLength(1)
    expect(said[0]).toContain('`statuses: write`')
    // A refused permission is remembered: the end is not sent to be refused again.
    expect(statusRequests(sim)).toHaveLength(1)
    expect(run.outputs['check-url']).toBe('')
  })
})

describe('the docs check when GitHub holds the pending write', () => {
  it('still ends on the final state: it is written again once the held write lands', async () => {
    // GitHub holds the pending write 2 s, then stores it; the job is done long before.
    const held = 2_000
    const sim = await sims.start({
      githubFaults: { createStatus: [{ action: 'slow', delayMs: held }] }
    })
    const run = await atPace(SHORT_TIMEOUT, () =>
      runAction(inputs(sim, { timeout: '30s' }), onPullRequest(sim))
    )
    expect(run.code).toBe(0)
    // GitHub stores a held write even when the step gave up on it: look once it has.
    await until(() => statuses(sim).some((s) => s.state === 'pending'), held + 1_000)
    // What the commit shows is the status GitHub stored last for the context.
    expect(statuses(sim).at(-1)).toMatchObject({
      state: 'success',
      description: expect.stringMatching(/^Docs pull request ready/)
    })
    // Written again after the held write when the job ended first (as it does unless the machine
    // is slow): the pending state is never the last one stored.
    const states = statuses(sim).map((s) => s.state)
    expect(states.lastIndexOf('pending')).toBeLessThan(states.lastIndexOf('success'))
    expect(warnings(run.stdout)).toEqual([])
    // The step waited for the held write, and no longer than its timeout and the last writes.
    expect(run.ms).toBeGreaterThan(held)
    expect(run.ms).toBeLessThan(30_000 + LAST_OF_30S)
  })
})

describe("the docs check when GitHub holds the pending write past the last writes' budget", () => {
  it('the job ended with most of timeout left: the step waits for it, and ends on the final state', async () => {
    // Held 6 s: longer than the 3 s the last writes have, well within the 30 s timeout.
    const held = 6_000
    const sim = await sims.start({
      githubFaults: { createStatus: [{ action: 'slow', delayMs: held }] }
    })
    const run = await atPace(SHORT_TIMEOUT, () =>
      runAction(inputs(sim, { timeout: '30s' }), onPullRequest(sim))
    )
    expect(run.code).toBe(0)
    // The final state went out as the job ended, and again once GitHub answered the held write.
    const states = statuses(sim).map((s) => s.state)
    expect(states[0]).toBe('success')
    expect(states.lastIndexOf('pending')).toBeLessThan(states.lastIndexOf('success'))
    expect(statuses(sim).at(-1)?.description).toMatch(/^Docs pull request ready/)
    expect(warnings(run.stdout)).toEqual([])
    expect(run.ms).toBeGreaterThan(held)
    expect(run.ms).toBeLessThan(30_000 + LAST_OF_30S)
  })
})

describe('the docs check on a pull request from a fork', () => {
  it('the read-only token: one warning that says so, and exit 0', async () => {
    const refused = { status: 403, body: '{"message":"Resource not accessible by integration"}' }
    const sim = await sims.start({
      github: { pulls: { 2: { head: { repo: 'hubot/Hello-World' } } } },
      githubFaults: { createStatus: [refused, refused] }
    })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened-fork.json', { GITHUB_SHA: MERGE })
    )
    expect(run.code).toBe(0)
    const said = warnings(run.stdout).filter((w) => w.includes('docs check'))
    expect(said).toHaveLength(1)
    expect(said[0]).toContain('pull requests from forks get a read-only token')
  })
})

describe('the docs check elsewhere', () => {
  it('on a push, goes on the pushed commit', async () => {
    const sim = await sims.start({ github: { commitPulls: { [PUSHED]: [] } } })
    const run = await runAction(inputs(sim), onEvent(sim, 'push', 'push.json'))
    expect(run.code).toBe(0)
    expect(statuses(sim).map((s) => [s.sha, s.state])).toEqual([
      [PUSHED, 'pending'],
      [PUSHED, 'success']
    ])
  })

  it('two projects in one workflow keep two checks', async () => {
    const sim = await sims.start()
    for (const project of ['proj_api', 'proj_guides']) {
      const run = await runAction(inputs(sim, { 'project-id': project }), onPullRequest(sim))
      expect(run.code).toBe(0)
    }
    expect(statuses(sim, 'Mintlify docs (proj_api)').at(-1)?.state).toBe('success')
    expect(statuses(sim, 'Mintlify docs (proj_guides)').at(-1)?.state).toBe('success')
  })

  it('wait: false leaves it pending; a later step attaching with job-id completes it', async () => {
    const sim = await sims.start({ jobDurationMs: 400 })
    const first = await runAction(inputs(sim, { wait: 'false' }), onPullRequest(sim))
    expect(first.code).toBe(0)
    const jobId = first.outputs['job-id'] ?? ''
    expect(statuses(sim).map((s) => s.state)).toEqual(['pending'])
    expect(statuses(sim)[0]?.description).toContain(jobId)
    const { prompt: _unused, ...attach } = inputs(sim, { 'job-id': jobId })
    const second = await runAction(attach, onPullRequest(sim))
    expect(second.code).toBe(0)
    expect(statuses(sim).map((s) => [s.sha, s.state])).toEqual([
      [HEAD, 'pending'],
      [HEAD, 'pending'],
      [HEAD, 'success']
    ])
  })

  it('works with GitHub Enterprise Server', async () => {
    const sim = await sims.start()
    const run = await runAction(
      inputs(sim),
      onPullRequest(sim, {
        GITHUB_API_URL: `${sim.url}/api/v3`,
        GITHUB_SERVER_URL: 'https://ghes.example.com'
      })
    )
    expect(run.code).toBe(0)
    // The job's docs pull request is on github.com, which the action does not read from a GHES
    // workflow: its state is not known, so the check is never success.
    expect(statuses(sim).at(-1)?.state).toBe('error')
    expect(statuses(sim).at(-1)?.description).toBe(
      'Docs pull request opened; its state could not be read'
    )
    expect(run.outputs['check-url']).toBe(
      `https://ghes.example.com/Codertocat/Hello-World/commit/${HEAD}`
    )
  })
})

describe('the docs check with a recorded job', () => {
  it('a follow-up sets it pending again, then success', async () => {
    const sim = await sims.start({ jobDurationMs: 200 })
    const jobId = await existingJob(sim)
    const run = await runAction(inputs(sim, { 'job-id': jobId }), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(statuses(sim).map((s) => s.state)).toEqual(['pending', 'success'])
    expect(statuses(sim)[0]?.description).toBe(`Follow-up sent to docs job ${jobId}`)
  })
})
