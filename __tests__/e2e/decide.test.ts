// One test per defect the decision had, on the built action: the agent's own work, a follow-up
// sent blind, a refused follow-up on a branch, a re-run that could not mend its check, and a
// record lost by a run that started nothing.
import { describe, expect, it } from '@jest/globals'
import { readRecord } from '../../src/clients/github/branch-record.js'
import { marker } from '../../src/clients/github/companion.js'
import {
  completedJob,
  onEvent,
  PUSHED,
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
  endToEnd
} from './harness.js'

const sims = endToEnd(WITH_GITHUB)

const TOKEN = 'ghs_decide_workflow_0123'

const inputs = (sim: Simulator, more: Record<string, string> = {}) => ({
  ...QUICK,
  'base-url': sim.url,
  'github-token': TOKEN,
  comment: 'off',
  ...more
})
const creates = (sim: Simulator) =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/job'))
const messages = (sim: Simulator) =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/message'))
const checksOn = (sim: Simulator, sha: string) =>
  sim.github.statuses.filter((s) => s.sha === sha && s.context === CONTEXT)
const recordOn = (sim: Simulator, sha: string) => {
  const status = checksOn(sim, sha).at(-1)
  return status ? readRecord(status.description ?? '', sha) : undefined
}

const push = pushOnto

/** A branch with four commits, on which runs gather into one docs job. */
const onMain = (scenario: Scenario = {}) =>
  sims.start({
    jobDurationMs: 100,
    ...scenario,
    github: { history: [A, B, C, D], ...scenario.github }
  })

/** Pull request 7, opened by the agent, whose merge is the pushed commit. */
const agentsMerge = (pulls: number[]) => ({
  github: {
    commitPulls: { [PUSHED]: pulls },
    pulls: { [`${CODE}#7`]: { user: 'mintlify[bot]' } }
  }
})

describe("the agent's own work starts no job, whatever comment says", () => {
  it.each([
    ['comment: off, its merge commit', [7]],
    ['its merge commit that also belongs to another open pull request', [9, 7]]
  ])('%s', async (_, pulls) => {
    const sim = await sims.start(agentsMerge(pulls))
    const run = await runAction(inputs(sim), onEvent(sim, 'push', 'push.json'))
    expect(run.code).toBe(0)
    expect(creates(sim)).toHaveLength(0)
    expect(run.outputs.skipped).toBe('true')
    expect(run.stdout).toContain(
      'comes from pull request #7, opened by mintlify[bot] (agent-accounts)'
    )
  })

  it('a 502 on the pull requests of the commit: nothing is started, and the check is no success', async () => {
    const sim = await sims.start({
      githubFaults: { commitPulls: Array.from({ length: 6 }, () => ({ status: 502 })) }
    })
    const run = await runAction(inputs(sim), onEvent(sim, 'push', 'push.json'))
    expect(run.code).toBe(0)
    expect(creates(sim)).toHaveLength(0)
    expect(checksOn(sim, PUSHED).map((s) => s.state)).toEqual(['error'])
    expect(run.stdout).toContain("Whether it is the agent's own work cannot be told")
  })

  it('a token that may not list the pull requests of a commit: the run goes on, with one warning', async () => {
    const sim = await sims.start({ githubFaults: { commitPulls: [{ status: 403 }] } })
    const run = await runAction(inputs(sim), onEvent(sim, 'push', 'push.json'))
    expect(run.code).toBe(0)
    expect(creates(sim)).toHaveLength(1)
    const said = run.stdout.split('\n').filter((l) => l.startsWith('::warning'))
    expect(said.filter((l) => l.includes('grant pull-requests: read'))).toHaveLength(1)
  })

  it("a nightly run whose only new commit is the agent's merge starts nothing and keeps the record", async () => {
    const sim = await onMain()
    const first = await runAction(inputs(sim), push(sim, A, B))
    sim.setScenario({
      github: { commitPulls: { [D]: [7] }, pulls: { [`${CODE}#7`]: { user: 'mintlify[bot]' } } }
    })
    const nightly = await runAction(
      inputs(sim),
      onEvent(sim, 'schedule', 'push.json', {
        GITHUB_EVENT_PATH: '',
        GITHUB_SHA: D,
        GITHUB_REF: 'refs/heads/main'
      })
    )
    expect(nightly.code).toBe(0)
    expect(nightly.outputs.skipped).toBe('true')
    expect(creates(sim)).toHaveLength(1)
    expect(messages(sim)).toHaveLength(0)
    expect(recordOn(sim, D)?.jobId).toBe(first.outputs['job-id'])
  })
})

describe('a follow-up is never sent blind', () => {
  it('a recorded job whose docs pull request GitHub does not answer for: nothing is sent, and no success on an unknown state', async () => {
    const sim = await sims.start()
    const jobId = await completedJob(sim)
    sim.setScenario({
      github: {
        comments: {
          2: [{ user: 'github-actions[bot]', body: marker({ projectId: 'proj_e2e', jobId }) }]
        }
      },
      githubFaults: { getPull: Array.from({ length: 12 }, () => ({ status: 502 })) }
    })
    const run = await runAction(
      inputs(sim, { comment: 'auto' }),
      onEvent(sim, 'pull_request', 'pull_request-synchronize.json')
    )
    expect(run.code).toBe(0)
    expect(messages(sim)).toHaveLength(0)
    expect(creates(sim)).toHaveLength(0)
    expect(sim.github.statuses.at(-1)?.state).toBe('error')
  })
})

describe('runs on a branch', () => {
  it('a refused follow-up becomes a new job, and the branch records it', async () => {
    const sim = await onMain()
    const first = await runAction(inputs(sim), push(sim, A, B))
    sim.setScenario({ refuseMessages: true })
    const second = await runAction(inputs(sim), push(sim, B, C))
    expect(second.code).toBe(0)
    expect(messages(sim)).toHaveLength(1)
    expect(creates(sim)).toHaveLength(2)
    expect(second.outputs['job-id']).not.toBe(first.outputs['job-id'])
    expect(second.stdout).toMatch(/could not take a message \(HTTP 400\), so a new job was started/)
    expect(recordOn(sim, C)).toEqual({
      jobId: second.outputs['job-id'],
      branch: 'main',
      since: B.slice(0, 12),
      told: C
    })
  })

  it('re-running a push run that stopped waiting mends the check from the job’s end', async () => {
    // A run that stops waiting (a timeout, or wait: false) leaves the check pending on its commit.
    const sim = await onMain({ jobDurationMs: 1500 })
    const first = await runAction(inputs(sim, { wait: 'false' }), push(sim, A, B))
    expect(first.code).toBe(0)
    expect(checksOn(sim, B).at(-1)?.state).toBe('pending')
    const again = await runAction(inputs(sim), push(sim, A, B))
    expect(again.code).toBe(0)
    expect(again.outputs['job-id']).toBe(first.outputs['job-id'])
    expect(creates(sim)).toHaveLength(1)
    expect(messages(sim)).toHaveLength(0)
    expect(checksOn(sim, B).at(-1)?.state).toBe('success')
    expect(recordOn(sim, B)?.jobId).toBe(first.outputs['job-id'])
  })

  it('the record is found however many commits landed since it was written', async () => {
    const shas = Array.from({ length: 130 }, (_, i) =>
      i.toString(16).padStart(40, '0').replace(/^0/, 'f')
    )
    const sim = await onMain({ github: { history: shas } })
    const first = await runAction(inputs(sim), push(sim, shas[0] ?? '', shas[1] ?? ''))
    const late = await runAction(inputs(sim), push(sim, shas[128] ?? '', shas[129] ?? ''))
    expect(late.code).toBe(0)
    expect(late.outputs['job-id']).toBe(first.outputs['job-id'])
    expect(creates(sim)).toHaveLength(1)
    expect(messages(sim)).toHaveLength(1)
  })

  it('a run skipped by paths carries the record forward, and the next run joins the same job', async () => {
    const sim = await onMain()
    const first = await runAction(inputs(sim), push(sim, A, B))
    const skipped = await runAction(inputs(sim, { paths: 'nothing/**' }), push(sim, B, C))
    expect(skipped.outputs.skipped).toBe('true')
    expect(recordOn(sim, C)).toEqual({
      jobId: first.outputs['job-id'],
      branch: 'main',
      since: A.slice(0, 12),
      told: C
    })
    const next = await runAction(inputs(sim), push(sim, C, D))
    expect(next.outputs['job-id']).toBe(first.outputs['job-id'])
    expect(creates(sim)).toHaveLength(1)
    expect(messages(sim)).toHaveLength(1)
  })
})
