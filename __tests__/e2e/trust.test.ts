// The built action on the pull request as an attacker and a bad day would have it: a stranger's
// comment carrying the action's marker, a recorded job id that is not an id, a recorded job that
// cannot go on, a comment create GitHub answers 502 after doing it, a GitHub that never answers,
// and a conversation too long for one page.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { marker, readMarker } from '../../src/clients/github/companion.js'
import {
  endsBy,
  existingJob,
  onEvent,
  QUICK,
  runAction,
  PUSHED,
  type Scenario,
  type Simulator,
  WITH_GITHUB,
  warnings,
  endToEnd,
  atPace
} from './harness.js'

const sims = endToEnd(WITH_GITHUB)

const TOKEN = 'ghs_trust_token_0123'
const BOT = 'github-actions[bot]'
const PROJECT = QUICK['project-id']

const inputs = (sim: Simulator, more: Record<string, string> = {}) => ({
  ...QUICK,
  'base-url': sim.url,
  'github-token': TOKEN,
  ...more
})
const onPullRequest = (sim: Simulator) =>
  onEvent(sim, 'pull_request', 'pull_request-synchronize.json')

const creates = (sim: Simulator) =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/job'))
const messages = (sim: Simulator) => sim.requests.filter((r) => r.path.endsWith('/message'))
const statusComments = (sim: Simulator) =>
  sim.comments.filter((c) => c.user === BOT && c.body.startsWith('<!-- mintlify-agent-action'))

/** A status comment as the action writes it, by `user`. */
const record = (jobId: string, user = BOT) => ({
  user,
  body: `${marker({ projectId: PROJECT, jobId })}\n### ⏳ Docs update started`
})

describe('only the action’s own record counts', () => {
  it("a stranger's comment with the marker gets nothing and is never edited", async () => {
    const sim = await sims.start()
    const theirs = await existingJob(sim)
    sim.setScenario({ github: { comments: { 2: [record(theirs, 'mallory')] } } })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(messages(sim)).toHaveLength(0)
    expect(creates(sim)).toHaveLength(1)
    expect(run.outputs['job-id']).not.toBe(theirs)
    const stranger = sim.comments.find((c) => c.user === 'mallory')
    expect(stranger?.history).toHaveLength(1)
    expect(statusComments(sim)).toHaveLength(1)
  })

  it("the bot's own comment with the marker quoted inside other text records nothing", async () => {
    const sim = await sims.start()
    const jobId = await existingJob(sim)
    const quoted = { user: BOT, body: `> ${marker({ projectId: PROJECT, jobId })}` }
    sim.setScenario({ github: { comments: { 2: [quoted] } } })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(messages(sim)).toHaveLength(0)
    expect(creates(sim)).toHaveLength(1)
  })

  it('the action’s own comment is followed, and a forged newer one does not displace it', async () => {
    const sim = await sims.start({ jobDurationMs: 200 })
    const ours = await existingJob(sim)
    const theirs = await existingJob(sim)
    sim.setScenario({
      github: { comments: { 2: [record(ours), record(theirs, 'mallory')] } }
    })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(messages(sim).map((r) => r.path)).toEqual([`/v2/agent/${PROJECT}/job/${ours}/message`])
    expect(creates(sim)).toHaveLength(0)
  })

  it('with comment: off, no comment is read and nothing is reused from comments', async () => {
    const sim = await sims.start()
    const jobId = await existingJob(sim)
    sim.setScenario({ github: { comments: { 2: [record(jobId)] } } })
    const run = await runAction(inputs(sim, { comment: 'off' }), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(sim.requests.filter((r) => r.path.includes('/comments'))).toEqual([])
    expect(messages(sim)).toHaveLength(0)
    expect(creates(sim)).toHaveLength(1)
  })

  it('when the token account cannot be learned (refused), the workflow token’s record still counts and a stranger’s marker does not', async () => {
    const sim = await sims.start({ githubFaults: { graphql: [{ status: 401 }] } })
    const jobId = await existingJob(sim)
    sim.setScenario({
      github: {
        comments: {
          2: [record(jobId), { user: 'mallory', body: marker({ projectId: 'proj_e2e', jobId }) }]
        }
      }
    })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    // The workflow token always acts as github-actions[bot]: its record is followed, no new job.
    expect(messages(sim).map((r) => r.path)).toEqual([`/v2/agent/${PROJECT}/job/${jobId}/message`])
    expect(creates(sim)).toHaveLength(0)
    expect(warnings(run.stdout).filter((w) => w.includes('no earlier comment'))).toEqual([])
  })
})

describe('a recorded job id is untrusted input', () => {
  it.each([
    ['longer than 256 characters', 'j'.repeat(300)],
    ['a dot segment', '..'],
    ['a control character', 'job\u0007one']
  ])(
    'one that is %s is ignored with a warning, and the next run follows the new job',
    async (_, bad) => {
      const sim = await sims.start({ jobDurationMs: 200 })
      sim.setScenario({ github: { comments: { 2: [record(bad)] } } })
      const first = await runAction(inputs(sim), onPullRequest(sim))
      expect(first.code).toBe(0)
      expect(messages(sim)).toHaveLength(0)
      expect(creates(sim)).toHaveLength(1)
      expect(warnings(first.stdout).join('\n')).toMatch(/records a job id that .* so it is ignored/)
      // The comment now records the new job: the next run follows it. On the same commit, which
      // that job was told already, it sends nothing and follows the job to its end.
      expect(statusComments(sim)).toHaveLength(1)
      const second = await runAction(inputs(sim), onPullRequest(sim))
      expect(second.code).toBe(0)
      expect(second.outputs['job-id']).toBe(first.outputs['job-id'])
      expect(messages(sim)).toHaveLength(0)
      expect(creates(sim)).toHaveLength(1)
    }
  )
})

describe('a recorded job that cannot go on is replaced, once', () => {
  it.each([409, 410, 422])(
    'HTTP %i to the follow-up starts a new job, recorded for next time',
    async (status) => {
      const sim = await sims.start({
        jobDurationMs: 200,
        faults: { message: [{ status, body: JSON.stringify({ error: 'job is closed' }) }] }
      })
      const old = await existingJob(sim)
      sim.setScenario({ github: { comments: { 2: [record(old)] } } })
      const run = await runAction(inputs(sim), onPullRequest(sim))
      expect(run.code).toBe(0)
      expect(creates(sim)).toHaveLength(1)
      const fresh = run.outputs['job-id'] ?? ''
      expect(fresh).not.toBe(old)
      expect(run.stdout).toMatch(new RegExp(`could not take a message \\(HTTP ${status}\\)`))
      const [comment] = statusComments(sim)
      expect(readMarker(comment?.body ?? '')).toMatchObject({
        projectId: PROJECT,
        jobId: fresh,
        sha: PUSHED
      })
      expect(comment?.body).toContain('a new job was started')
    }
  )

  it('a 403 to the follow-up is about the key: it fails without starting another job', async () => {
    const sim = await sims.start({
      faults: { message: [{ status: 403, body: JSON.stringify({ error: 'read-only key' }) }] }
    })
    const old = await existingJob(sim)
    sim.setScenario({ github: { comments: { 2: [record(old)] } } })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).not.toBe(0)
    expect(creates(sim)).toHaveLength(0)
  })
})

describe('a comment create is never repeated blindly', () => {
  it.each<[string, NonNullable<Scenario['githubFaults']>]>([
    ['a 502 after writing it', { createComment: [{ status: 502, perform: true }] }],
    ['a reset after writing it', { createComment: [{ action: 'reset', perform: true }] }],
    [
      'a 502 after writing it, twice',
      {
        createComment: [
          { status: 502, perform: true },
          { status: 502, perform: true }
        ]
      }
    ]
  ])('%s leaves one status comment, updated to the end', async (_, githubFaults) => {
    const sim = await sims.start({ githubFaults })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    expect(statusComments(sim)).toHaveLength(1)
    expect(statusComments(sim)[0]?.body).toContain('Docs pull request ready')
    expect(
      sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/comments'))
    ).toHaveLength(1)
  })
})

describe('GitHub never costs the docs job', () => {
  it('with every GitHub request hanging, a job that ends at once is reported, within timeout', async () => {
    const hang = Array.from({ length: 10 }, () => ({ action: 'hang' as const }))
    // Comments that do not answer may hide a job already recorded: that run sends nothing and
    // says a re-run will (__tests__/e2e/no-duplicate.test.ts).
    const kinds = [
      'graphql',
      'createComment',
      'updateComment',
      'pullFiles',
      'commitPulls',
      'compare',
      'commit'
    ] as const
    const sim = await sims.start({
      jobDurationMs: 100,
      githubFaults: Object.fromEntries(kinds.map((k) => [k, hang]))
    })
    // Real time: the budgets GitHub never answers in (the change, the lookups, the last writes)
    // take about 8 s of the 12 s timeout, and the rest must hold the run's own work and the job's
    // first check on a machine `SLOWER` times slower than a quiet one.
    const run = await atPace(1, () =>
      runAction(
        inputs(sim, { timeout: '12s' }),
        onEvent(sim, 'pull_request', 'pull_request-opened.json')
      )
    )
    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    expect(run.outputs['pr-link']).toMatch(/^https:\/\//)
    // The timeout, plus the last comment update's budget at most.
    expect(run.ms).toBeLessThan(endsBy(12_000))
  })
})

describe('the action’s comment is found on a long pull request', () => {
  it('among 250 comments, the recorded job is followed and no second comment is written', async () => {
    const sim = await sims.start({ jobDurationMs: 200 })
    const jobId = await existingJob(sim)
    const chatter = Array.from({ length: 250 }, (_, i) => ({ user: 'octocat', body: `LGTM ${i}` }))
    chatter[180] = record(jobId)
    sim.setScenario({ github: { comments: { 2: chatter } } })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(messages(sim).map((r) => r.path)).toEqual([`/v2/agent/${PROJECT}/job/${jobId}/message`])
    expect(creates(sim)).toHaveLength(0)
    expect(statusComments(sim)).toHaveLength(1)
  })
})

describe('everything GitHub sends is bounded', () => {
  it('an answer of 17 MiB is refused unread, once, and the job goes on without the files', async () => {
    const huge = { filename: 'docs/huge.md', patch: `@@ -1 +1 @@\n+${'x'.repeat(17 * 2 ** 20)}` }
    const sim = await sims.start({ github: { pulls: { 2: { files: [huge] } } } })
    const run = await runAction(
      inputs(sim, { comment: 'off' }),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    expect(sim.github.requests.filter((r) => r.kind === 'pullFiles')).toHaveLength(1)
    expect(warnings(run.stdout).join('\n')).toMatch(/files of pull request #2.*larger than/)
  })

  it('a pull request whose pages never end is read for at most three pages', async () => {
    const files = Array.from({ length: 1_000 }, (_, i) => ({
      filename: `src/file-${i}.ts`,
      patch: '@@ -1 +1 @@\n+x'
    }))
    const sim = await sims.start({ github: { pulls: { 2: { files } } } })
    const run = await runAction(
      inputs(sim, { comment: 'off' }),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    expect(sim.github.requests.filter((r) => r.kind === 'pullFiles')).toHaveLength(3)
  })
})

describe('the job summary is bounded in bytes', () => {
  it('a dry run of a prompt that escapes to six bytes a character writes under 1 MiB', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prompt-'))
    writeFileSync(join(dir, 'prompt.md'), '"'.repeat(300_000))
    const sim = await sims.start()
    const run = await runAction(
      { 'prompt-file': 'prompt.md', 'dry-run': 'true', 'base-url': sim.url, context: 'off' },
      { cwd: dir, env: { GITHUB_WORKSPACE: dir } }
    )
    expect(run.code).toBe(0)
    expect(run.summary).toContain('&quot;&quot;')
    expect(Buffer.byteLength(run.summary)).toBeLessThan(2 ** 20)
  })
})
