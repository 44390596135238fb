// The built action when GitHub does not answer whether a job is recorded: a pull request whose
// status comment records a job, a workflow token's identity, comments or docs pull request that
// answer 502, hang or reset. No second job and no second comment: the check says nothing was sent
// and a re-run will, the step succeeds, and the re-run (GitHub answering again) sends the change
// once. A key Mintlify refuses stops the run after one request; a scheduled run writes no comment
// on the merged pull request its commit came from.
import { afterEach, describe, expect, it } from '@jest/globals'
import { marker, readMarker } from '../../src/clients/github/companion.js'
import {
  completedJob,
  existingJob,
  onEvent,
  PUSHED,
  QUICK,
  runAction,
  simulators,
  type Scenario,
  type Simulator,
  warpTime
} from './harness.js'

// GitHub's faults cost these runs their retry waits and budgets, and each job its poll interval:
// all on a clock twice as fast as real time, since what they prove is what is sent, not when. Not
// faster: the re-run's reads must be answered within their budget (a fifth of the timeout) on a
// busy machine.
warpTime(2)
const sims = simulators()
afterEach(() => sims.closeAll())

const TOKEN = 'ghs_no_duplicate_token_0123'
/** The workflow token's account (REST's `GET /users/github-actions[bot]`: id 41898282). */
const BOT = 'github-actions[bot]'
const PROJECT = QUICK['project-id']

const inputs = (sim: Simulator) => ({
  ...QUICK,
  'base-url': sim.url,
  'github-token': TOKEN,
  timeout: '20s'
})
const synchronize = (sim: Simulator) =>
  onEvent(sim, 'pull_request', 'pull_request-synchronize.json')

const creates = (sim: Simulator) =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/job'))
const messages = (sim: Simulator) =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/message'))
const commentWrites = (sim: Simulator) =>
  sim.github.requests.filter((r) => r.kind === 'createComment' || r.kind === 'updateComment')
const lastCheck = (sim: Simulator) => sim.github.statuses.at(-1)

type Faults = NonNullable<Scenario['githubFaults']>
const times = (n: number, fault: { status?: number; action?: 'hang' | 'reset' }) =>
  Array.from({ length: n }, () => fault)
const FAULTS: [string, Parameters<typeof times>[1]][] = [
  ['answer 502', { status: 502 }],
  ['hang', { action: 'hang' }],
  ['reset the connection', { action: 'reset' }]
]

/** A pull request whose status comment, by the workflow token, records `jobId`. */
function recorded(sim: Simulator, jobId: string, githubFaults: Faults) {
  sim.setScenario({
    github: { comments: { 2: [{ user: BOT, body: marker({ projectId: PROJECT, jobId }) }] } },
    githubFaults
  })
}

describe('a record GitHub does not answer for starts no second job', () => {
  it.each(FAULTS)(
    'the comments %s: nothing is sent, the check says a re-run will, and the re-run sends it once',
    async (_, fault) => {
      const sim = await sims.start()
      const jobId = await existingJob(sim)
      recorded(sim, jobId, { listComments: times(8, fault) })
      const run = await runAction(inputs(sim), synchronize(sim))
      expect(run.code).toBe(0)
      expect(creates(sim)).toHaveLength(0)
      expect(messages(sim)).toHaveLength(0)
      expect(commentWrites(sim)).toEqual([])
      expect(lastCheck(sim)?.state).toBe('error')
      expect(lastCheck(sim)?.description).toContain('Nothing was sent')
      expect(lastCheck(sim)?.description).toContain('a re-run sends it')
      expect(run.stdout).toMatch(/::warning.*Could not read the comments of pull request #2/)

      sim.setScenario({ githubFaults: { listComments: [] } })
      const rerun = await runAction(inputs(sim), synchronize(sim))
      expect(rerun.code).toBe(0)
      expect(creates(sim)).toHaveLength(0)
      expect(messages(sim).map((r) => r.path)).toEqual([
        `/v2/agent/${PROJECT}/job/${jobId}/message`
      ])
      // The comment the pull request has is updated: never a second one.
      expect(commentWrites(sim).filter((r) => r.kind === 'createComment')).toEqual([])
      expect(rerun.outputs['job-id']).toBe(jobId)
    }
  )

  it.each(FAULTS)(
    'the recorded job’s docs pull request %s: nothing is sent, and the re-run sends it once',
    async (_, fault) => {
      const sim = await sims.start({ prLink: 'https://github.com/acme/docs/pull/7' })
      const jobId = await completedJob(sim)
      recorded(sim, jobId, { getPull: times(12, fault) })
      const run = await runAction(inputs(sim), synchronize(sim))
      expect(run.code).toBe(0)
      expect(creates(sim)).toHaveLength(0)
      expect(messages(sim)).toHaveLength(0)
      expect(commentWrites(sim)).toEqual([])
      expect(lastCheck(sim)?.state).toBe('error')
      expect(lastCheck(sim)?.description).toContain('Nothing was sent')

      sim.setScenario({ githubFaults: { getPull: [] } })
      const rerun = await runAction(inputs(sim), synchronize(sim))
      expect(rerun.code).toBe(0)
      expect(creates(sim)).toHaveLength(0)
      expect(messages(sim)).toHaveLength(1)
      expect(commentWrites(sim).filter((r) => r.kind === 'createComment')).toEqual([])
      expect(sim.comments).toHaveLength(1)
    }
  )

  it.each(FAULTS)(
    'the token’s identity (viewer) %s: the workflow token’s comment is still the record',
    async (_, fault) => {
      const sim = await sims.start()
      const jobId = await existingJob(sim)
      recorded(sim, jobId, { graphql: times(8, fault) })
      const run = await runAction(inputs(sim), synchronize(sim))
      expect(run.code).toBe(0)
      expect(creates(sim)).toHaveLength(0)
      expect(messages(sim).map((r) => r.path)).toEqual([
        `/v2/agent/${PROJECT}/job/${jobId}/message`
      ])
      expect(sim.comments).toHaveLength(1)
      expect(readMarker(sim.comments[0]?.body ?? '')).toMatchObject({
        projectId: PROJECT,
        jobId,
        sha: PUSHED
      })
    }
  )

  it.each([
    ['refused (403)', { status: 403 }],
    ['not answered (502)', { status: 502 }]
  ])(
    'the identity %s and a stranger’s newer marker: the workflow token’s record is followed, no new job',
    async (_, fault) => {
      const sim = await sims.start()
      const jobId = await existingJob(sim)
      sim.setScenario({
        github: {
          comments: {
            2: [
              { user: BOT, body: marker({ projectId: PROJECT, jobId }) },
              { user: 'mallory', body: marker({ projectId: PROJECT, jobId: 'job_mallory' }) }
            ]
          }
        },
        githubFaults: { graphql: times(8, fault) }
      })
      const run = await runAction(inputs(sim), synchronize(sim))
      expect(run.code).toBe(0)
      expect(creates(sim)).toHaveLength(0)
      expect(messages(sim).map((r) => r.path)).toEqual([
        `/v2/agent/${PROJECT}/job/${jobId}/message`
      ])
      // The stranger's comment is never edited: only the workflow token's own one is.
      const edited = commentWrites(sim).filter((r) => r.kind === 'updateComment')
      expect(edited.length).toBeGreaterThan(0)
      expect(sim.comments.find((c) => c.user === 'mallory')?.body).toContain('job_mallory')
    }
  )
})

describe('a key Mintlify refuses stops the run', () => {
  it('a 401 on the recorded job’s read: one request with the key, no create, one error', async () => {
    const sim = await sims.start()
    const jobId = await existingJob(sim)
    recorded(sim, jobId, {})
    sim.setScenario({ faults: { get: [{ status: 401, body: '{"message":"Unauthorized"}' }] } })
    const run = await runAction(inputs(sim), synchronize(sim))
    expect(run.code).not.toBe(0)
    const mintlify = sim.requests.filter((r) => r.path.startsWith('/v2/'))
    expect(mintlify.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v2/agent/${PROJECT}/job/${jobId}`
    ])
    expect(creates(sim)).toHaveLength(0)
    expect(run.stdout.split('\n').filter((l) => l.startsWith('::error'))).toHaveLength(1)
    expect(run.stdout).not.toContain('so a new job was started')
  })
})

describe('a scheduled run keeps its record on the branch', () => {
  it('writes no comment on the merged pull request its last commit came from', async () => {
    const sim = await sims.start({
      github: {
        commitPulls: { [PUSHED]: [2] },
        pulls: { 2: { merged_at: '2024-01-01T00:00:00Z' } }
      }
    })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'schedule', 'push.json', {
        GITHUB_EVENT_PATH: '',
        GITHUB_SHA: PUSHED,
        GITHUB_REF: 'refs/heads/main'
      })
    )
    expect(run.code).toBe(0)
    expect(creates(sim)).toHaveLength(1)
    expect(commentWrites(sim)).toEqual([])
    expect(sim.comments).toHaveLength(0)
    expect(run.outputs['comment-url']).toBe('')
    // Its result is in the job summary and the docs check on the commit.
    expect(run.summary).toContain(run.outputs['job-id'] ?? '')
    expect(sim.github.statuses.some((s) => s.sha === PUSHED)).toBe(true)
  })
})
