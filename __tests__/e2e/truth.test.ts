// The built action says the docs are ready only when they are: the docs pull request is read
// before the check or the comment says so, a recorded job whose docs pull request is done is sent
// nothing more, tokens go only to the job's own docs repository, and the check reports only on
// the change, under one name per project, even on a bad day.
import { describe, expect, it } from '@jest/globals'
import { marker, readMarker } from '../../src/clients/github/companion.js'
import { checkName } from '../../src/report/check.js'
import {
  completedJob,
  onEvent,
  PUSHED,
  QUICK,
  runAction,
  type Simulator,
  WITH_GITHUB,
  CODE,
  CONTEXT,
  warnings,
  endToEnd,
  atPace
} from './harness.js'

const sims = endToEnd(WITH_GITHUB)

const WORKFLOW_TOKEN = 'ghs_truth_workflow_0123'
const DOCS_TOKEN = 'ghp_truth_docs_0123456'
const BOT = 'github-actions[bot]'

const inputs = (sim: Simulator, more: Record<string, string> = {}) => ({
  ...QUICK,
  'base-url': sim.url,
  'github-token': WORKFLOW_TOKEN,
  ...more
})
const onPullRequest = (sim: Simulator) =>
  onEvent(sim, 'pull_request', 'pull_request-synchronize.json')
const checks = (sim: Simulator, context = CONTEXT) =>
  sim.github.statuses.filter((s) => s.context === context)
const posts = (sim: Simulator, what: 'job' | 'message') =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`/${what}`))
const creates = (sim: Simulator) =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/job'))
const statusComment = (sim: Simulator) =>
  sim.comments.find((c) => `${c.owner}/${c.repo}` === CODE && c.issueNumber === 2)

/** The simulator, with pull request #2's status comment recording `jobId` as told `sha`. */
async function recorded(pulls: Record<string, object>, sha?: string) {
  const sim = await sims.start({ jobDurationMs: 50 })
  const jobId = await completedJob(sim)
  sim.setScenario({
    github: {
      pulls,
      comments: {
        [`${CODE}#2`]: [{ user: BOT, body: marker({ projectId: 'proj_e2e', jobId, sha }) }]
      }
    }
  })
  return { sim, jobId }
}

describe('a recorded job whose docs pull request is done is sent nothing more', () => {
  it.each([
    ['merged', { merged_at: '2026-11-20T10:00:00Z' }, 'was merged'],
    ['closed', { state: 'closed' }, 'was closed without merging']
  ])('%s: the change goes to a new job, and the comment says why', async (_, docs, how) => {
    const { sim, jobId } = await recorded({ 'acme/docs#101': docs })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(posts(sim, 'message')).toHaveLength(0)
    expect(posts(sim, 'job')).toHaveLength(1)
    expect(run.outputs['job-id']).not.toBe(jobId)
    expect(run.outputs['pr-link']).toBe('https://github.com/acme/docs/pull/102')
    const comment = statusComment(sim)?.body ?? ''
    expect(readMarker(comment)?.jobId).toBe(run.outputs['job-id'])
    expect(run.stdout).toContain(`Docs pull request acme/docs#101 of agent job ${jobId} ${how}`)
    // The comment says it too, as text that links nothing.
    expect(comment).toContain(`acme/docs&#35;&#8203;101 of agent job ${jobId} ${how}`)
    expect(checks(sim).at(-1)).toMatchObject({
      state: 'success',
      description: 'Docs pull request ready, preview ready',
      targetUrl: 'https://github.com/acme/docs/pull/102'
    })
  })

  it('a merge whose changes were all documented: nothing new, so no job, and the check says so', async () => {
    const { sim } = await recorded(
      {
        'acme/docs#101': { merged_at: '2026-11-20T10:00:00Z' },
        [`${CODE}#2`]: { head: { sha: PUSHED } }
      },
      PUSHED
    )
    sim.setScenario({ github: { commitPulls: { [PUSHED]: [2] } } })
    const run = await runAction(inputs(sim), onEvent(sim, 'push', 'push.json'))
    expect(run.code).toBe(0)
    expect(run.outputs.skipped).toBe('true')
    expect(posts(sim, 'message')).toHaveLength(0)
    expect(posts(sim, 'job')).toHaveLength(0)
    expect(run.stdout).toMatch(/acme\/docs#101 .* is merged, and that job was told every commit/)
    const [check, ...more] = checks(sim)
    expect(more).toEqual([])
    expect(check?.state).toBe('success')
    // The branch's record names the pull request's job, so the next push is told only what is new.
    expect(check?.description).toMatch(
      /^Docs already merged: acme\/docs#101 · job job_\w+ since f95f852bd8fc on changes$/
    )
  })

  it('an open docs pull request is followed up as before, and the check says ready', async () => {
    const { sim, jobId } = await recorded({})
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(posts(sim, 'job')).toHaveLength(0)
    expect(posts(sim, 'message')).toHaveLength(1)
    expect(run.outputs['job-id']).toBe(jobId)
    expect(checks(sim).at(-1)).toMatchObject({
      state: 'success',
      // The docs pull request is open, so its preview was built too (previews are on by default).
      description: 'Docs pull request ready, preview ready'
    })
  })
})

describe('the check never says ready for a docs pull request that is not open', () => {
  it('a follow-up given with job-id to a job whose docs pull request was merged: failure', async () => {
    const { sim, jobId } = await recorded({
      'acme/docs#101': { merged_at: '2026-11-20T10:00:00Z' }
    })
    const run = await runAction(
      inputs(sim, { 'job-id': jobId, comment: 'off' }),
      onPullRequest(sim)
    )
    expect(run.code).toBe(0)
    expect(checks(sim).at(-1)).toMatchObject({
      state: 'failure',
      description: 'Docs pull request already merged: this change is not in it'
    })
    expect(checks(sim).some((s) => s.state === 'success')).toBe(false)
    expect(warnings(run.stdout).join('\n')).toContain('acme/docs#101 was merged')
  })

  it('a docs pull request closed while the job ran: failure, never ready', async () => {
    const sim = await sims.start({ github: { pulls: { 'acme/docs#101': { state: 'closed' } } } })
    const run = await runAction(inputs(sim, { comment: 'off' }), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(checks(sim).map((s) => s.state)).toEqual(['pending', 'failure'])
    expect(checks(sim).at(-1)?.description).toBe('Docs pull request closed without merging')
  })
})

describe('tokens go only to the job’s own docs repository', () => {
  it.each([
    ['another repository of the same host', { prLink: 'https://github.com/acme/other/pull/7' }],
    ['a job that names no docs repository', { jobFields: { source: undefined } }]
  ])('%s: no request, no close, one warning, exit 0', async (_, scenario) => {
    const sim = await sims.start({
      ...scenario,
      github: {
        tokens: {
          workflow: { token: WORKFLOW_TOKEN, repos: [CODE] },
          docs: { token: DOCS_TOKEN, user: 'docs-writer[bot]' }
        }
      }
    })
    const run = await runAction(
      inputs(sim, { 'docs-token': DOCS_TOKEN, 'docs-labels': 'documentation' }),
      onPullRequest(sim)
    )
    expect(run.code).toBe(0)
    expect(sim.github.requests.filter((r) => r.repository && r.repository !== CODE)).toEqual([])
    expect(sim.github.requests.filter((r) => r.token === 'docs')).toEqual([])
    const said = warnings(run.stdout)
    expect(said).toHaveLength(1)
    expect(said[0]).toContain('no token is sent for it')
    expect(checks(sim).at(-1)?.description).toBe(
      'Docs pull request opened; its state could not be read'
    )
  })

  it('a closed code pull request closes nothing outside the job’s docs repository', async () => {
    const sim = await sims.start({
      jobDurationMs: 50,
      prLink: 'https://github.com/acme/other/pull/7'
    })
    const jobId = await completedJob(sim)
    const run = await runAction(
      inputs(sim, { 'docs-token': DOCS_TOKEN, 'job-id': jobId }),
      onEvent(sim, 'pull_request', 'pull_request-closed.json')
    )
    expect(run.code).toBe(0)
    expect(sim.github.requests.filter((r) => r.repository && r.repository !== CODE)).toEqual([])
    expect(warnings(run.stdout)).toHaveLength(1)
  })
})

describe('one check per project, reporting only on the change', () => {
  it('project ids that differ only in dropped characters get checks of their own', async () => {
    const sim = await sims.start()
    const env = onPullRequest(sim)
    for (const id of ['proj a', 'proja']) {
      const run = await runAction(inputs(sim, { 'project-id': id, comment: 'off' }), env)
      expect(run.code).toBe(0)
    }
    const names = [...new Set(sim.github.statuses.map((s) => s.context))]
    expect(names).toHaveLength(2)
    expect(names).toEqual([checkName('proj a'), checkName('proja')])
  })

  it('a scheduled run that does not gather, or one that does not tell the job the change, leaves a failed check as it was', async () => {
    const sim = await sims.start({ finalStatus: 'failed', prLink: false })
    const push = onEvent(sim, 'push', 'push.json', { GITHUB_SHA: PUSHED })
    const failed = await runAction(inputs(sim, { comment: 'off' }), push)
    expect(failed.code).toBe(1)
    expect(checks(sim).at(-1)?.state).toBe('failure')

    sim.setScenario({ finalStatus: 'completed', prLink: true })
    // A schedule that keeps a job per run (reuse-job: false) prompts about no change in particular.
    const scheduled = onEvent(sim, 'schedule', 'push.json', { GITHUB_SHA: PUSHED })
    const alone = { comment: 'off', 'reuse-job': 'false' }
    expect((await runAction(inputs(sim, alone), scheduled)).code).toBe(0)
    const off = await runAction(inputs(sim, { comment: 'off', context: 'off' }), push)
    expect(off.code).toBe(0)
    expect(checks(sim).at(-1)?.state).toBe('failure')
    expect(checks(sim)).toHaveLength(2)

    // A run that told the job this change does turn it green: a push, or a schedule that gathers
    // (it tells a new job everything since the failed job's last documented commit).
    expect((await runAction(inputs(sim, { comment: 'off' }), scheduled)).code).toBe(0)
    expect(checks(sim).at(-1)?.state).toBe('success')
    expect(creates(sim)).toHaveLength(4)
  })
})

describe('the last writes on a bad day', () => {
  it('a pending write still in flight does not starve the final one', async () => {
    const sim = await sims.start({
      jobDurationMs: 100,
      githubFaults: { createStatus: [{ action: 'slow', delayMs: 30_000 }] }
    })
    // Held past the step's own end (10 s, then 1 s of last writes), which it is waited for. Real
    // time: the docs pull request's state is read and the final check written in that second, on
    // a machine `SLOWER` times slower than a quiet one (tens of milliseconds there).
    const run = await atPace(1, () =>
      runAction(inputs(sim, { comment: 'off', timeout: '10s' }), onPullRequest(sim))
    )
    expect(run.code).toBe(0)
    expect(checks(sim).at(-1)).toMatchObject({
      state: 'success',
      // The docs pull request is open, so its preview was built too (previews are on by default).
      description: 'Docs pull request ready, preview ready'
    })
    expect(run.outputs['check-url']).toContain(`/commit/`)
    // GitHub still holds the pending write when the last writes' time runs out, and may store it
    // after the final one: one warning says the check may show an older state.
    const said = warnings(run.stdout)
    expect(said).toHaveLength(1)
    expect(said[0]).toContain('may show an older state')
  })

  it('a signal during the final writes still leaves the outputs and the summary', async () => {
    const sim = await sims.start({
      jobDurationMs: 100,
      // The pending check lands; the final one never answers.
      githubFaults: { createStatus: [{ action: 'slow', delayMs: 1 }, { action: 'hang' }] }
    })
    const run = await runAction(inputs(sim, { comment: 'off', timeout: '2m' }), {
      ...onPullRequest(sim),
      onSpawn: (child) => {
        // SIGTERM once the final check write is under way, as a runner stopping the step would.
        const watch = setInterval(() => {
          if (sim.github.requests.filter((r) => r.kind === 'createStatus').length < 2) return
          clearInterval(watch)
          child.kill('SIGTERM')
        }, 10)
        child.on('close', () => clearInterval(watch))
      }
    })
    expect(run.signal).toBeNull()
    expect(run.outputs['job-id']).toMatch(/^job_/)
    expect(run.outputs['pr-link']).toBe('https://github.com/acme/docs/pull/101')
    expect(run.summary).toContain('Mintlify agent')
  })
})
