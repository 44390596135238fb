// One deadline for everything: on the built action, whatever the API does to the reads of a job
// (502 forever here), the step ends within `timeout` plus the last writes' budget, reports a
// timeout and keeps `job-id`, on every path that reads a job: attaching, a job recorded on a pull
// request, and a job recorded on a branch.
import { afterEach, describe, expect, it } from '@jest/globals'
import { marker } from '../../src/clients/github/companion.js'
import {
  endsBy,
  existingJob,
  onEvent,
  PUSHED,
  QUICK,
  runAction,
  simulators,
  type Simulator,
  pushOnto,
  warpTime
} from './harness.js'

// The 10 s deadlines, the reads' retry waits and the last writes' budget pass on a clock twice as
// fast as real time: what these tests prove is when, on the action's clock, the step ends. Not
// faster: GitHub must still answer the lookups within their 2 s budget on a busy machine.
warpTime(2)
const sims = simulators()
afterEach(() => sims.closeAll())

const TIMEOUT_MS = 10_000

/** Every read of a job answers 502 with an HTML page, as a proxy in front of a sick API does. */
const readsFail = { status: 502, body: '<html><body>Bad Gateway</body></html>' }
const failingReads = () => ({ get: Array.from({ length: 10_000 }, () => ({ ...readsFail })) })

const inputs = (sim: Simulator, more: Record<string, string> = {}) => ({
  ...QUICK,
  'base-url': sim.url,
  timeout: `${TIMEOUT_MS / 1000}s`,
  'poll-interval': '1s',
  'max-poll-interval': '2s',
  ...more
})

const reads = (sim: Simulator) =>
  sim.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v2/'))
const mintlifyPosts = (sim: Simulator) =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v2/'))

/** The branch's commits, oldest first. */
const [A, B, C] = ['a', 'b', 'c'].map((c) => c.repeat(40)) as [string, string, string]
/** A run on a branch that gathers into one job, recorded on the branch's docs check. */
const BRANCH = { 'github-token': 'ghs_deadline_0123', comment: 'off' }

const push = pushOnto

describe('the step ends by its deadline whatever the reads of the job do', () => {
  it('attaching to a job it cannot read: a timeout that keeps job-id', async () => {
    const sim = await sims.start()
    const id = await existingJob(sim)
    sim.setScenario({ faults: failingReads() })
    const run = await runAction(inputs(sim, { prompt: '', 'job-id': id }))
    expect(run.code).toBe(1)
    expect(run.ms).toBeLessThan(endsBy(TIMEOUT_MS))
    expect(run.outputs['job-id']).toBe(id)
    expect(run.stdout).toMatch(
      new RegExp(
        `::error title=Mintlify agent::Timed out: agent job ${id} could not be read before the 10s timeout`
      )
    )
    // Each try was a real request, not a stream of requests with no time to be answered.
    expect(reads(sim).length).toBeGreaterThan(1)
    expect(reads(sim).length).toBeLessThan(30)
  })

  it('a job recorded on the pull request that cannot be read: bounded, then a timeout', async () => {
    const sim = await sims.start()
    const recorded = await existingJob(sim)
    sim.setScenario({
      faults: failingReads(),
      github: {
        comments: {
          'Codertocat/Hello-World#2': [
            {
              user: 'github-actions[bot]',
              body: marker({ projectId: 'proj_e2e', jobId: recorded })
            }
          ]
        }
      }
    })
    const run = await runAction(
      inputs(sim, { 'github-token': 'ghs_deadline_0123' }),
      onEvent(sim, 'pull_request', 'pull_request-synchronize.json')
    )
    expect(run.code).toBe(1)
    expect(run.ms).toBeLessThan(endsBy(TIMEOUT_MS))
    expect(run.outputs['job-id']).toBeTruthy()
    expect(run.stdout).toContain('::error title=Mintlify agent::Timed out: agent job')
    // The last writes still told the pull request: the check is pending, not success.
    const check = sim.github.statuses.filter((s) => s.sha === PUSHED).at(-1)
    expect(check?.state).toBe('pending')
  })

  it('a job recorded on the branch that cannot be read: bounded, then a timeout', async () => {
    const sim = await sims.start({ github: { history: [A, B, C] } })
    // A first run records its job on the branch's docs check.
    const first = await runAction(inputs(sim, BRANCH), push(sim, A, B))
    expect(first.code).toBe(0)
    sim.setScenario({ faults: failingReads() })
    const run = await runAction(inputs(sim, BRANCH), push(sim, B, C))
    expect(run.code).toBe(1)
    expect(run.ms).toBeLessThan(endsBy(TIMEOUT_MS))
    expect(run.outputs['job-id']).toBeTruthy()
    expect(run.stdout).toContain('::error title=Mintlify agent::Timed out: agent job')
  })
})

describe('a cancellation while a recorded job is read', () => {
  it('is reported as a cancellation, never as "so a new job was started"', async () => {
    const sim = await sims.start({ github: { history: [A, B, C] } })
    await runAction(inputs(sim, BRANCH), push(sim, A, B))
    sim.setScenario({ faults: failingReads() })
    sim.requests.length = 0
    const run = await runAction(inputs(sim, { ...BRANCH, timeout: '5m' }), {
      ...push(sim, B, C),
      onSpawn: (child) => {
        // Once the first read of the recorded job has failed, the runner cancels the step.
        const timer = setInterval(() => {
          if (reads(sim).length > 0) {
            clearInterval(timer)
            child.kill('SIGINT')
          }
        }, 20)
        child.on('close', () => clearInterval(timer))
      }
    })
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('The workflow was cancelled (SIGINT)')
    expect(run.stdout).not.toContain('new job was started')
    expect(mintlifyPosts(sim)).toHaveLength(0)
  })
})
