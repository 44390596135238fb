// The built action reading the open docs pull request's own checks once at the end of the run (the
// `docs-checks` output): commit statuses and check runs on its head, from the fake GitHub. A failing
// one turns the code change's docs check red and is listed in the status comment; running ones
// leave it green, saying so.
import { describe, expect, it } from '@jest/globals'
import {
  CODE,
  onEvent,
  QUICK,
  runAction,
  type Simulator,
  WITH_GITHUB,
  warnings,
  endToEnd
} from './harness.js'

const sims = endToEnd(WITH_GITHUB)

const WORKFLOW_TOKEN = 'ghs_checks_workflow_0123'
const DOCS_TOKEN = 'ghp_checks_docs_0123456'
const DOCS = 'acme/docs'
/** The docs pull request the simulator's first job opens, and its head commit. */
const DOCS_PULL = `${DOCS}#101`
const DOCS_HEAD = 'd0'.repeat(20)
const CONTEXT = `Mintlify docs (${QUICK['project-id']})`

type Checks = NonNullable<
  NonNullable<NonNullable<Parameters<typeof sims.start>[0]>['github']>['checks']
>[string]

/** The docs pull request, the agent's, open, with `checks` on its head. */
const withChecks = (checks?: Checks, more: object = {}) => ({
  github: {
    tokens: {
      workflow: { token: WORKFLOW_TOKEN, repos: [CODE] },
      docs: { token: DOCS_TOKEN, user: 'docs-reader[bot]', repos: [DOCS] }
    },
    pulls: { [DOCS_PULL]: { user: 'mintlify[bot]', head: { sha: DOCS_HEAD } } },
    ...(checks ? { checks: { [DOCS_PULL]: checks } } : {})
  },
  ...more
})

const inputs = (sim: Simulator) => ({
  ...QUICK,
  'base-url': sim.url,
  'github-token': WORKFLOW_TOKEN,
  'docs-token': DOCS_TOKEN,
  preview: 'off'
})
const onPullRequest = (sim: Simulator) => onEvent(sim, 'pull_request', 'pull_request-opened.json')

const checkOf = (sim: Simulator) => sim.github.statuses.filter((s) => s.context === CONTEXT).at(-1)
const commentOf = (sim: Simulator) =>
  sim.comments.filter((c) => `${c.owner}/${c.repo}` === CODE && c.issueNumber === 2).at(-1)?.body ??
  ''
const reads = (sim: Simulator) =>
  sim.github.requests
    .filter((r) => r.kind === 'checkRuns' || r.kind === 'combinedStatus')
    .map((r) => [r.kind, r.repository, r.token, new URL(r.path, sim.url).pathname])

describe("the docs pull request's own checks", () => {
  it('a failing check run: the docs check fails naming it, the comment lists it, the step passes', async () => {
    const sim = await sims.start(
      withChecks({
        runs: [
          { name: 'build', conclusion: 'failure', details_url: 'https://vercel.example/build/1' },
          { name: 'spelling', conclusion: 'success' }
        ]
      })
    )
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(run.outputs['docs-checks']).toBe('failure')
    expect(run.outputs.outcome).toBe('docs-pr')
    // Read once, with docs-token, on the docs pull request's head.
    expect(reads(sim).sort()).toEqual([
      ['checkRuns', DOCS, 'docs', `/repos/${DOCS}/commits/${DOCS_HEAD}/check-runs`],
      ['combinedStatus', DOCS, 'docs', `/repos/${DOCS}/commits/${DOCS_HEAD}/status`]
    ])
    expect(checkOf(sim)).toMatchObject({
      state: 'failure',
      description: 'Docs pull request checks failing: build'
    })
    const comment = commentOf(sim)
    expect(comment).toContain('### ❌ Docs pull request checks failing')
    // A details link off this GitHub is not linked: the check run's own page on GitHub is.
    expect(comment).toMatch(/<a href="https:\/\/github\.com\/acme\/docs\/runs\/\d+">build<\/a>/)
    expect(comment).not.toContain('vercel.example')
    expect(comment).not.toContain('spelling')
    expect(warnings(run.stdout).filter((w) => w.includes('failed: build'))).toHaveLength(1)
    expect(run.summary).toContain('<th>Docs checks</th>')
  })

  it('a failing commit status: failure, linked only on this GitHub, inert text elsewhere', async () => {
    const sim = await sims.start(
      withChecks({
        statuses: [
          {
            context: 'docs/links',
            state: 'error',
            target_url: 'https://github.com/acme/docs/actions/runs/9'
          },
          { context: 'deploy', state: 'failure', target_url: 'https://evil.example/x' },
          { context: 'lint', state: 'success' }
        ]
      })
    )
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(run.outputs['docs-checks']).toBe('failure')
    expect(checkOf(sim)).toMatchObject({
      state: 'failure',
      description: 'Docs pull request checks failing: docs/links, deploy'
    })
    const comment = commentOf(sim)
    expect(comment).toContain(
      '<a href="https://github.com/acme/docs/actions/runs/9">docs/links</a>'
    )
    expect(comment).toContain(', deploy')
    expect(comment).not.toContain('evil.example')
  })

  it('still running, none failed: pending, and the docs check stays green saying so', async () => {
    const sim = await sims.start(
      withChecks({
        runs: [
          { name: 'build', status: 'in_progress' },
          { name: 'lint', conclusion: 'success' }
        ]
      })
    )
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(run.outputs['docs-checks']).toBe('pending')
    expect(checkOf(sim)).toMatchObject({
      state: 'success',
      description: 'Docs pull request ready; its checks are still running'
    })
    expect(commentOf(sim)).toContain('### ✅ Docs pull request ready; its checks are still running')
  })

  it("all passed: success; the action's own docs check on that commit is not counted", async () => {
    const sim = await sims.start(
      withChecks({
        runs: [
          { name: 'build', conclusion: 'success' },
          { name: 'a11y', conclusion: 'skipped' }
        ],
        statuses: [{ context: CONTEXT, state: 'failure' }]
      })
    )
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(run.outputs['docs-checks']).toBe('success')
    expect(checkOf(sim)).toMatchObject({ state: 'success', description: 'Docs pull request ready' })
  })

  it('no checks at all: success', async () => {
    const sim = await sims.start(withChecks())
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(run.outputs['docs-checks']).toBe('success')
    expect(reads(sim)).toHaveLength(2)
    expect(checkOf(sim)).toMatchObject({ state: 'success', description: 'Docs pull request ready' })
  })

  it('unreadable: unknown, one warning, and the docs check is not changed by it', async () => {
    const refused = { status: 403, body: '{"message":"Resource not accessible by integration"}' }
    const sim = await sims.start(
      withChecks(
        { runs: [{ name: 'build', conclusion: 'failure' }] },
        {
          githubFaults: { checkRuns: [refused] }
        }
      )
    )
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(run.outputs['docs-checks']).toBe('unknown')
    const said = warnings(run.stdout).filter((w) => w.includes('Could not read the checks'))
    expect(said).toHaveLength(1)
    expect(said[0]).toContain('docs-token')
    expect(checkOf(sim)).toMatchObject({ state: 'success', description: 'Docs pull request ready' })
  })

  it('a docs pull request that is not open is not asked for its checks', async () => {
    const sim = await sims.start({
      github: {
        ...withChecks({ runs: [{ name: 'build', conclusion: 'failure' }] }).github,
        pulls: {
          [DOCS_PULL]: { user: 'mintlify[bot]', head: { sha: DOCS_HEAD }, state: 'closed' }
        }
      }
    })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.outputs['docs-checks']).toBe('')
    expect(reads(sim)).toEqual([])
  })
})
