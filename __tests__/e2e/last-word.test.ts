// The last word, on the built action against the simulator: the final docs check lands though
// GitHub fails its first try (a 502, a reset, no answer), a `/docs` command always ends with an
// answer on its comment, nothing on GitHub names a project id the platform refused (a key given
// as the project id), and a docs pull request the job opened is "opened" though the workflow
// token cannot read the private docs repository.
import { describe, expect, it } from '@jest/globals'
import { marker } from '../../src/clients/github/companion.js'
import { UNNAMED_CHECK } from '../../src/report/check.js'
import { parseDuration } from '../../src/base/duration.js'
import { budgetsFor } from '../../src/clients/github/policy.js'
import {
  existingJob,
  margin,
  onEvent,
  PUSHED,
  QUICK,
  runAction,
  type Scenario,
  type Simulator,
  WITH_GITHUB,
  CODE,
  CONTEXT,
  warnings,
  endToEnd,
  onComment,
  COMMENT_ID,
  warpTimeIn
} from './harness.js'

const sims = endToEnd(WITH_GITHUB)

const TOKEN = 'ghs_last_word_token_0123'
/** The test merge commit GITHUB_SHA names on a pull_request event: never where the check goes. */
const MERGE = 'b3a1f1e4c0d2e5f6a7b8c9d0e1f2a3b4c5d6e7f8'
/** A request GitHub lets through as usual: the fault queue's way of skipping one request. */
const PASS = { action: 'slow' as const, delayMs: 0 }

const inputs = (sim: Simulator, more: Record<string, string> = {}) => ({
  ...QUICK,
  'base-url': sim.url,
  'github-token': TOKEN,
  comment: 'off',
  // The fault queues count this file's writes; a preview adds the ready write before the last.
  preview: 'off',
  ...more
})
const onPullRequest = (sim: Simulator) =>
  onEvent(sim, 'pull_request', 'pull_request-opened.json', { GITHUB_SHA: MERGE })
const statuses = (sim: Simulator, context = CONTEXT) =>
  sim.github.statuses.filter((s) => s.context === context)
/** Everything the action sent GitHub: paths, headers and bodies. */
const toGitHub = (sim: Simulator) =>
  JSON.stringify(sim.requests.filter((r) => !r.path.startsWith('/v2/')))

describe('the final check write when GitHub fails its first try', () => {
  // `QUICK`'s timeout gives the last writes 5 s: a try that is never answered is cut after 4 s,
  // leaving a second (a third of one in real time) for the next.
  it.each([
    ['a 502', { status: 502, body: '{"message":"Server Error"}' }],
    ['a reset connection', { action: 'reset' as const }],
    ['no answer at all', { action: 'hang' as const }]
  ])('%s: sent again, and the check ends success', async (_, fault) => {
    const sim = await sims.start({ githubFaults: { createStatus: [PASS, fault] } })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    const sent = sim.github.requests.filter((r) => r.kind === 'createStatus')
    // The pending write, the final one that failed, and the final one again: once, or more
    // when a try's answer comes after its share of the budget on a loaded machine (a commit
    // status is safe to write again; the last one wins).
    expect(sent.length).toBeGreaterThanOrEqual(3)
    expect(
      statuses(sim)
        .slice(1)
        .every((s) => s.state === 'success')
    ).toBe(true)
    expect(statuses(sim).at(-1)).toMatchObject({
      state: 'success',
      description: expect.stringMatching(/^Docs pull request ready/),
      sha: PUSHED
    })
    expect(warnings(run.stdout).filter((w) => w.includes('docs check'))).toEqual([])
    expect(run.outputs['check-url']).toContain(PUSHED)
  })
})

describe('the final check write when GitHub fails every try', () => {
  // Real time: the tries go on until the last writes' budget ends, and the last one must still be
  // answered (its 503 is what the warning names) in what is left, about a second, on a machine
  // `SLOWER` times slower than a quiet one.
  warpTimeIn(1)

  it('a final write that fails on every try: one warning, and the step still succeeds', async () => {
    const down = { status: 503, body: '{"message":"Unavailable"}' }
    const sim = await sims.start({
      githubFaults: { createStatus: [PASS, ...Array<typeof down>(30).fill(down)] }
    })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    const said = warnings(run.stdout).filter((w) => w.includes('docs check'))
    expect(said).toHaveLength(1)
    expect(said[0]).toContain('HTTP 503')
    // Tried more than once, and never past the last writes' budget after the job's end (its first
    // check, a second in).
    expect(sim.github.requests.filter((r) => r.kind === 'createStatus').length).toBeGreaterThan(2)
    const lastMs = budgetsFor(parseDuration(QUICK.timeout) ?? 0).last
    expect(run.ms).toBeLessThan(1_000 + lastMs + margin())
  })
})

describe('the status comment’s last edit when GitHub fails its first try', () => {
  it.each([
    ['a 502', { status: 502, body: '{"message":"Server Error"}' }],
    ['no answer at all', { action: 'hang' as const }]
  ])('%s: sent again, and the comment ends on the final state', async (_, fault) => {
    const sim = await sims.start({ githubFaults: { updateComment: [fault] } })
    const run = await runAction(inputs(sim, { comment: 'auto' }), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(sim.github.requests.filter((r) => r.kind === 'updateComment')).toHaveLength(2)
    const [status] = sim.github.comments
    expect(status?.body).toContain('Docs pull request ready')
    expect(warnings(run.stdout)).toEqual([])
    expect(run.outputs['comment-url']).toContain(`#issuecomment-${status?.id}`)
  })
})

/** GitHub's example `/docs` comment on pull request #2, after the comments in `before`. */
function command(sim: Simulator, body: string, before: { user: string; body: string }[]) {
  const held = [...before, { id: COMMENT_ID, user: 'Codertocat', body }]
  sim.setScenario({ github: { comments: { [`${CODE}#2`]: held } } })
  return onComment(sim, body)
}

describe('a /docs command whose follow-up fails', () => {
  it('ends with 😕 on the comment, the status comment updated, and job-id the recorded job', async () => {
    const broken = { status: 500, body: '{"error":"Internal error"}' }
    const scenario: Scenario = {
      faults: { message: [broken, broken, broken] },
      github: { permissions: { Codertocat: 'write' } }
    }
    const sim = await sims.start(scenario)
    const jobId = await existingJob(sim)
    const status = marker({ projectId: QUICK['project-id'], jobId })
    const run = await runAction(
      { ...inputs(sim), prompt: '', comment: 'auto' },
      command(sim, '/docs Also document the --retries flag', [
        { user: 'github-actions[bot]', body: `${status}\nearlier words` }
      ])
    )
    expect(run.code).not.toBe(0)
    expect(run.outputs['job-id']).toBe(jobId)
    expect(sim.github.reactions.map((r) => r.content)).toEqual(['eyes', 'confused'])
    const updated = sim.github.comments.find((c) => c.body.startsWith(status))
    expect(updated?.body).toContain('The docs step failed')
    expect(updated?.body).not.toContain('earlier words')
    // Red, for a person to act on; never left pending, as nothing will come to end it.
    expect(statuses(sim).at(-1)?.state).toBe('error')
  })
})

describe('api-key and project-id swapped, with a key that does not start with mint_', () => {
  it('the platform refuses it: no GitHub request carries the key, and the check names no project', async () => {
    const key = 'sk_live_0123456789abcdefghij'
    const sim = await sims.start()
    const run = await runAction(
      inputs(sim, { 'api-key': QUICK['project-id'], 'project-id': key, comment: 'auto' }),
      onPullRequest(sim)
    )
    expect(run.code).not.toBe(0)
    expect(sim.requests.some((r) => r.path.startsWith('/v2/'))).toBe(true)
    expect(toGitHub(sim)).not.toContain(key)
    expect(sim.github.statuses.map((s) => [s.context, s.state])).toEqual([[UNNAMED_CHECK, 'error']])
    expect(sim.github.comments).toEqual([])
  })
})

describe('docs in a private repository, without docs-token', () => {
  it('the pull request the job opened is success "opened", said once with the fix', async () => {
    const sim = await sims.start({
      github: {
        tokens: {
          workflow: { token: TOKEN, repos: [CODE] },
          docs: { token: 'ghp_docs_token_unused_0123', repos: ['acme/docs'] }
        },
        pulls: { 'acme/docs#101': { user: 'mintlify[bot]' } }
      }
    })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(statuses(sim).map((s) => s.state)).toEqual(['pending', 'success'])
    expect(statuses(sim).at(-1)).toMatchObject({
      description: 'Docs pull request opened; its state could not be read',
      targetUrl: run.outputs['pr-link']
    })
    const said = warnings(run.stdout)
    expect(said).toHaveLength(1)
    expect(said[0]).toContain('docs-token')
    expect(said[0]).toContain('pull-requests: read')
  })
})
