// Runs on a branch gather into one docs job, on the built action against a fake GitHub that keeps
// its state across runs: the docs check on the branch records the job, the next push or schedule
// joins its open docs pull request with everything since the docs were last told, and a done docs
// pull request, a failed job or an unreadable state starts a new job.
import { describe, expect, it } from '@jest/globals'
import { readBacklink } from '../../src/clients/github/backlink.js'
import { readRecord } from '../../src/clients/github/branch-record.js'
import { marker } from '../../src/clients/github/companion.js'
import {
  completedJob,
  onEvent,
  QUICK,
  runAction,
  type Scenario,
  type Simulator,
  pushOnto,
  A,
  B,
  C,
  D,
  WITH_GITHUB,
  CODE,
  CONTEXT,
  warnings,
  promptOf,
  endToEnd
} from './harness.js'

const sims = endToEnd(WITH_GITHUB)

const TOKEN = 'ghs_branch_workflow_0123'
const E = 'e'.repeat(40)

const start = (scenario: Scenario = {}) =>
  sims.start({
    jobDurationMs: 100,
    ...scenario,
    github: { history: [A, B, C, D], ...scenario.github }
  })

const inputs = (sim: Simulator, more: Record<string, string> = {}) => ({
  ...QUICK,
  'base-url': sim.url,
  'github-token': TOKEN,
  comment: 'off',
  ...more
})

const push = pushOnto

/** A scheduled run on `main` at `sha`. */
const schedule = (sim: Simulator, sha: string) =>
  onEvent(sim, 'schedule', 'push.json', {
    GITHUB_EVENT_PATH: '',
    GITHUB_SHA: sha,
    GITHUB_REF: 'refs/heads/main'
  })

const creates = (sim: Simulator) =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/job'))
const messages = (sim: Simulator) =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/message'))
/** The record the docs check on `sha` keeps. */
const recordOn = (sim: Simulator, sha: string, context = CONTEXT) => {
  const status = sim.github.statuses.filter((s) => s.sha === sha && s.context === context).at(-1)
  return status ? readRecord(status.description ?? '', sha) : undefined
}

describe('pushes to main gather into one docs job', () => {
  it('two direct pushes go to one job: the second joins its open docs pull request', async () => {
    const sim = await start()
    const first = await runAction(inputs(sim), push(sim, A, B))
    expect(first.code).toBe(0)
    const jobId = first.outputs['job-id'] ?? ''
    expect(recordOn(sim, B)).toEqual({ jobId, branch: 'main', since: A.slice(0, 12), told: B })

    const second = await runAction(inputs(sim), push(sim, B, C))
    expect(second.code).toBe(0)
    expect(creates(sim)).toHaveLength(1)
    expect(messages(sim)).toHaveLength(1)
    expect(second.outputs['job-id']).toBe(jobId)
    expect(second.outputs['pr-link']).toBe('https://github.com/acme/docs/pull/101')
    expect(second.stdout).toContain(
      `This change joins agent job ${jobId} and its open docs pull request acme/docs#101 on main`
    )
    // Told only what is new: everything since the commit the job was last told about.
    const prompt = promptOf(messages(sim)[0])
    expect(prompt).toContain(`## Context: the commits on main since ${B.slice(0, 7)}`)
    expect(recordOn(sim, C)).toEqual({ jobId, branch: 'main', since: A.slice(0, 12), told: C })
    expect(second.summary).toContain('joins agent job')
  })

  it('a schedule run after pushes that never ran the action tells the job about all of them', async () => {
    const sim = await start()
    const first = await runAction(inputs(sim), push(sim, A, B))
    const nightly = await runAction(inputs(sim), schedule(sim, D))
    expect(nightly.code).toBe(0)
    expect(messages(sim)).toHaveLength(1)
    expect(nightly.outputs['job-id']).toBe(first.outputs['job-id'])
    const compares = sim.github.requests.filter((r) => r.kind === 'compare').at(-1)
    expect(compares?.path).toContain(`/compare/${B}...${D}`)
    expect(promptOf(messages(sim)[0])).toContain(`the commits on main since ${B.slice(0, 7)}`)
    expect(recordOn(sim, D)?.jobId).toBe(first.outputs['job-id'])
  })

  it('nothing new since the docs were last told: the run starts and sends nothing, and keeps the record', async () => {
    const sim = await start()
    const first = await runAction(inputs(sim), push(sim, A, B))
    const toMintlify = () => sim.requests.filter((r) => /^\/v[12]\//.test(r.path)).length
    const asked = toMintlify()
    const checks = sim.github.statuses.length
    const again = await runAction(inputs(sim), schedule(sim, B))
    // The job was told B and the check on B says how it ended: a quiet night asks Mintlify
    // nothing at all, and leaves the check, which holds the record, as it is.
    expect(again.code).toBe(0)
    expect(again.outputs.skipped).toBe('true')
    expect(toMintlify()).toBe(asked)
    expect(sim.github.statuses).toHaveLength(checks)
    expect(again.stdout).toContain('Nothing changed on main since')
    expect(recordOn(sim, B)).toEqual({
      jobId: first.outputs['job-id'],
      branch: 'main',
      since: A.slice(0, 12),
      told: B
    })
    const next = await runAction(inputs(sim), push(sim, B, C))
    expect(next.code).toBe(0)
    expect(creates(sim)).toHaveLength(1)
    expect(messages(sim)).toHaveLength(1)
  })

  it('the check on the commit still pending (the run stopped waiting): the next run mends it, sending nothing', async () => {
    const sim = await start()
    const first = await runAction(inputs(sim, { wait: 'false' }), push(sim, A, B))
    expect(sim.github.statuses.at(-1)?.state).toBe('pending')
    const again = await runAction(inputs(sim), schedule(sim, B))
    // Told B already: the job is read to its end and the check set, but nothing is sent to it,
    // and with nothing new to show no preview is asked for.
    expect(again.outputs['job-id']).toBe(first.outputs['job-id'])
    expect(creates(sim)).toHaveLength(1)
    expect(messages(sim)).toHaveLength(0)
    const posts = sim.requests.filter((r) => /^\/v[12]\//.test(r.path) && r.method !== 'GET')
    expect(posts).toHaveLength(1)
    expect(again.outputs['preview-status']).toBe('unchanged')
    expect(sim.github.statuses.at(-1)?.state).toBe('success')
  })

  it('a merged pull request that had its own job records that job on the branch', async () => {
    const sim = await start({ github: { commitPulls: { [B]: [2] } } })
    const pullJob = await completedJob(sim)
    const recorded = marker({ projectId: 'proj_e2e', jobId: pullJob })
    sim.setScenario({
      github: { comments: { [`${CODE}#2`]: [{ user: 'github-actions[bot]', body: recorded }] } }
    })
    const merge = await runAction(inputs(sim, { comment: 'auto' }), push(sim, A, B))
    expect(merge.outputs['job-id']).toBe(pullJob)
    expect(recordOn(sim, B)?.jobId).toBe(pullJob)
    const next = await runAction(inputs(sim), push(sim, B, C))
    expect(next.outputs['job-id']).toBe(pullJob)
    expect(creates(sim)).toHaveLength(0)
    expect(promptOf(messages(sim)[1])).toContain(`the commits on main since ${B.slice(0, 7)}`)
  })
})

describe('the docs pull request shows what it gathered', () => {
  it('the backlink lists every change that fed the job, newest last, and asks their authors', async () => {
    const DOCS_TOKEN = 'ghp_branch_docs_0123456'
    const sim = await start({
      github: {
        tokens: {
          workflow: { token: TOKEN, repos: [CODE] },
          docs: { token: DOCS_TOKEN, user: 'docs-writer[bot]', repos: ['acme/docs'] }
        },
        pulls: { 'acme/docs#101': { user: 'mintlify[bot]' } }
      }
    })
    const more = { 'docs-token': DOCS_TOKEN, 'docs-reviewers': 'author' }
    await runAction(inputs(sim, more), push(sim, A, B))
    await runAction(inputs(sim, more), schedule(sim, D))
    const backlinks = sim.comments.filter((c) => c.repo === 'docs' && c.issueNumber === 101)
    expect(backlinks).toHaveLength(1)
    const record = readBacklink(backlinks[0]?.body ?? '')
    expect(record?.changes.map((c) => c.sha)).toEqual([B, D])
    expect(backlinks[0]?.body).toContain('(a scheduled run)')
    expect(sim.github.pulls.get('acme/docs#101')?.reviewers).toEqual(['Codertocat'])
  })
})

describe('a new job once the docs pull request is done', () => {
  it.each([
    ['merged', { merged_at: '2026-11-20T10:00:00Z' }, B, 'was merged'],
    ['closed', { state: 'closed' }, A, 'was closed without merging']
  ] as const)(
    '%s: told everything since the last documented commit',
    async (_, pull, since, how) => {
      const sim = await start()
      const first = await runAction(inputs(sim), push(sim, A, B))
      sim.setScenario({ github: { pulls: { 'acme/docs#101': pull } } })
      const second = await runAction(inputs(sim), push(sim, B, C))
      expect(second.code).toBe(0)
      expect(creates(sim)).toHaveLength(2)
      expect(messages(sim)).toHaveLength(0)
      expect(second.outputs['job-id']).not.toBe(first.outputs['job-id'])
      expect(second.stdout).toContain(
        `Docs pull request acme/docs#101 of agent job ${first.outputs['job-id']} ${how}`
      )
      expect(promptOf(creates(sim)[1])).toContain(`the commits on main since ${since.slice(0, 7)}`)
    }
  )

  it('a failed job: a new job, told everything since the last documented commit', async () => {
    const sim = await start({ finalStatus: 'failed', prLink: false })
    await runAction(inputs(sim), push(sim, A, B))
    sim.setScenario({ finalStatus: 'completed', prLink: true })
    const second = await runAction(inputs(sim), push(sim, B, C))
    expect(second.code).toBe(0)
    expect(creates(sim)).toHaveLength(2)
    expect(promptOf(creates(sim)[1])).toContain(`the commits on main since ${A.slice(0, 7)}`)
  })

  it('an unreadable docs pull request starts a new job, with one warning naming docs-token', async () => {
    const sim = await start({ github: { tokens: { workflow: { token: TOKEN, repos: [CODE] } } } })
    await runAction(inputs(sim), push(sim, A, B))
    const second = await runAction(inputs(sim), push(sim, B, C))
    expect(second.code).toBe(0)
    expect(creates(sim)).toHaveLength(2)
    const said = warnings(second.stdout)
    expect(said).toHaveLength(1)
    expect(said[0]).toContain('docs-token')
    expect(said[0]).toContain('gather into one docs pull request only while it can be read')
    // Only what is new goes to the new job: the prompts do not grow with every push.
    expect(promptOf(creates(sim)[1])).toContain(`the commits on main since ${B.slice(0, 7)}`)
    await runAction(inputs(sim), push(sim, C, D))
    expect(promptOf(creates(sim)[2])).toContain(`the commits on main since ${C.slice(0, 7)}`)
  })
})

describe('records stay apart', () => {
  it("a record another account wrote is ignored, and hides the action's own", async () => {
    const sim = await start({
      github: {
        tokens: {
          workflow: { token: TOKEN },
          mallory: { token: 'ghp_mallory_0123456', user: 'mallory' }
        }
      }
    })
    const first = await runAction(inputs(sim), push(sim, A, B))
    // Someone else writes the same check on the same commit, naming the same job.
    const forged = sim.github.statuses.at(-1)?.description ?? ''
    await fetch(`${sim.url}/repos/${CODE}/statuses/${B}`, {
      method: 'POST',
      headers: { Authorization: 'token ghp_mallory_0123456', 'Content-Type': 'application/json' },
      body: JSON.stringify({ state: 'success', context: CONTEXT, description: forged })
    })
    const second = await runAction(inputs(sim), push(sim, B, C))
    expect(second.outputs['job-id']).not.toBe(first.outputs['job-id'])
    expect(messages(sim)).toHaveLength(0)
  })

  it('two branches and two projects never share a job', async () => {
    const sim = await start({ github: { history: [A, B, C, D, E] } })
    const main = await runAction(inputs(sim), push(sim, A, B))
    sim.setScenario({ github: { history: [A, B, E] } })
    const feature = await runAction(inputs(sim), push(sim, B, E, 'feature'))
    expect(feature.outputs['job-id']).not.toBe(main.outputs['job-id'])
    sim.setScenario({ github: { history: [A, B, C, D] } })
    const other = await runAction(inputs(sim, { 'project-id': 'proj_other' }), push(sim, B, C))
    expect(other.outputs['job-id']).not.toBe(main.outputs['job-id'])
    expect(messages(sim)).toHaveLength(0)
    expect(creates(sim)).toHaveLength(3)
  })

  it('reuse-job: false starts a job per run and keeps no record', async () => {
    const sim = await start()
    await runAction(inputs(sim, { 'reuse-job': 'false' }), push(sim, A, B))
    await runAction(inputs(sim, { 'reuse-job': 'false' }), push(sim, B, C))
    expect(creates(sim)).toHaveLength(2)
    expect(messages(sim)).toHaveLength(0)
    expect(recordOn(sim, B)).toBeUndefined()
  })
})
