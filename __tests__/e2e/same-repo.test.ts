// Docs kept in the code repository itself (Mintlify's monorepo setup), on the built action: the
// agent's own pull requests and pushes start nothing and its docs pull request passes its own
// check, and the docs pull request follows the code pull request with the workflow token alone.
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { backlinkMarker } from '../../src/clients/github/backlink.js'
import { marker } from '../../src/clients/github/companion.js'
import {
  completedJob,
  onEvent,
  PUSHED,
  QUICK,
  ROOT,
  runAction,
  simulators,
  type Simulator,
  WITH_GITHUB,
  CODE,
  CONTEXT,
  endToEnd
} from './harness.js'

const sims = endToEnd(WITH_GITHUB)

const WORKFLOW_TOKEN = 'ghs_monorepo_workflow_0123'
const BOT = 'github-actions[bot]'
/** The docs pull request the agent opens in the code repository itself. */
const DOCS_LINK = `https://github.com/${CODE}/pull/7`

/** The simulator with docs in the code repository: the agent's pull request is #7 there. */
const monorepo = (more: Parameters<ReturnType<typeof simulators>['start']>[0] = {}) =>
  sims.start({
    prLink: DOCS_LINK,
    jobFields: { source: { repository: `https://github.com/${CODE}`, ref: null } },
    ...more,
    github: {
      tokens: { workflow: { token: WORKFLOW_TOKEN, user: BOT, repos: [CODE] } },
      pulls: { 7: { user: 'mintlify[bot]' } },
      ...more.github
    }
  })

const inputs = (sim: Simulator, more: Record<string, string> = {}) => ({
  ...QUICK,
  'base-url': sim.url,
  'github-token': WORKFLOW_TOKEN,
  ...more
})

/** The parts of GitHub's example payloads these tests change. */
interface Payload {
  number?: number
  pull_request: { number: number; user: { login: string } }
  commits: { author: { username: string } }[]
}

/** One of GitHub's example events with `edit` applied, written to a file of its own. */
function eventFile(file: string, edit: (payload: Payload) => void): string {
  const path0 = join(ROOT, '__fixtures__', 'events', file)
  const payload = JSON.parse(readFileSync(path0, 'utf8')) as Payload
  edit(payload)
  const path = join(mkdtempSync(join(tmpdir(), 'event-')), file)
  writeFileSync(path, JSON.stringify(payload))
  return path
}

/** A pull request event whose pull request was opened by `login`. */
const pullBy = (sim: Simulator, login: string, file = 'pull_request-opened.json') =>
  onEvent(sim, 'pull_request', file, {
    GITHUB_EVENT_PATH: eventFile(file, (p) => (p.pull_request.user.login = login))
  })

const jobPosts = (sim: Simulator) =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v2/agent/'))
const checks = (sim: Simulator) => sim.github.statuses.filter((s) => s.context === CONTEXT)
const comments = (sim: Simulator, number: number) =>
  sim.comments.filter((c) => `${c.owner}/${c.repo}` === CODE && c.issueNumber === number)

describe("the agent's own work starts no job", () => {
  it.each(['pull_request-opened.json', 'pull_request-synchronize.json'])(
    'a pull request by mintlify[bot] (%s): skipped, no comment, and a passing check',
    async (file) => {
      const sim = await monorepo()
      const run = await runAction(inputs(sim), pullBy(sim, 'mintlify[bot]', file))
      expect(run.code).toBe(0)
      expect(run.outputs.skipped).toBe('true')
      expect(jobPosts(sim)).toEqual([])
      expect(sim.comments).toEqual([])
      expect(run.stdout).toContain(
        "opened by mintlify[bot] (agent-accounts): it is the agent's own"
      )
      expect(checks(sim).map((s) => [s.state, s.description])).toEqual([
        ['success', 'This is the docs pull request itself']
      ])
    }
  )

  it('a docs pull request the action knows (its backlink), shown as a person’s: skipped', async () => {
    const sim = await monorepo()
    const backlink = backlinkMarker({ projectId: 'proj_e2e', changes: [], asked: [], labeled: [] })
    sim.setScenario({ github: { comments: { [`${CODE}#2`]: [{ user: BOT, body: backlink }] } } })
    const run = await runAction(inputs(sim), pullBy(sim, 'docs-writer'))
    expect(run.code).toBe(0)
    expect(run.outputs.skipped).toBe('true')
    expect(jobPosts(sim)).toEqual([])
    expect(run.stdout).toContain('followed by this action as a docs pull request')
    expect(checks(sim).at(-1)?.state).toBe('success')
  })

  it('a backlink anyone else wrote makes nothing a docs pull request', async () => {
    const sim = await monorepo()
    const backlink = backlinkMarker({ projectId: 'proj_e2e', changes: [], asked: [], labeled: [] })
    sim.setScenario({
      github: { comments: { [`${CODE}#2`]: [{ user: 'mallory', body: backlink }] } }
    })
    const run = await runAction(inputs(sim), pullBy(sim, 'docs-writer'))
    expect(run.outputs.skipped).toBe('false')
    expect(jobPosts(sim)).toHaveLength(1)
  })

  it('a push that merges the agent’s pull request: skipped, the check says why', async () => {
    const sim = await monorepo({ github: { commitPulls: { [PUSHED]: [7] } } })
    const run = await runAction(inputs(sim), onEvent(sim, 'push', 'push.json'))
    expect(run.code).toBe(0)
    expect(run.outputs.skipped).toBe('true')
    expect(jobPosts(sim)).toEqual([])
    expect(run.stdout).toContain(
      'The pushed commit comes from pull request #7, opened by mintlify[bot]'
    )
    expect(checks(sim).at(-1)?.description).toBe("The agent's own docs change: nothing to document")
  })

  it('a push whose commits are all the agent’s: skipped without asking GitHub anything', async () => {
    const sim = await monorepo()
    const path = eventFile('push.json', (p) => {
      for (const commit of p.commits) commit.author.username = 'mintlify[bot]'
    })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'push', 'push.json', { GITHUB_EVENT_PATH: path })
    )
    expect(run.outputs.skipped).toBe('true')
    expect(jobPosts(sim)).toEqual([])
    expect(sim.github.requests.map((r) => r.kind)).toEqual(['createStatus'])
  })

  it.each(['octocat', 'dependabot[bot]'])(
    'a pull request by %s still starts one job',
    async (login) => {
      const sim = await monorepo()
      const run = await runAction(inputs(sim, { comment: 'off' }), pullBy(sim, login))
      expect(run.code).toBe(0)
      expect(run.outputs.skipped).toBe('false')
      expect(jobPosts(sim)).toHaveLength(1)
    }
  )

  it('agent-accounts names the person an organisation attributes agent pull requests to', async () => {
    const sim = await monorepo()
    const run = await runAction(
      inputs(sim, { 'agent-accounts': 'mintlify[bot], docs-writer' }),
      pullBy(sim, 'docs-writer')
    )
    expect(run.outputs.skipped).toBe('true')
    expect(jobPosts(sim)).toEqual([])
  })
})

describe('the docs pull request follows the code one with the workflow token', () => {
  it('gets its backlink, reviewers and labels, all with github-token', async () => {
    const sim = await monorepo()
    const run = await runAction(
      inputs(sim, { 'docs-reviewers': 'octocat, author', 'docs-labels': 'documentation' }),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    expect(run.outputs['pr-link']).toBe(DOCS_LINK)
    const onDocs = sim.github.requests.filter(
      (r) => r.path.includes('/pulls/7') || r.path.includes('/issues/7/')
    )
    expect(onDocs.length).toBeGreaterThan(0)
    expect(onDocs.every((r) => r.token === 'workflow')).toBe(true)
    const pull = sim.github.pulls.get(`${CODE}#7`.toLowerCase())
    expect(pull?.reviewers).toEqual(['octocat', 'Codertocat'])
    expect(pull?.labels).toEqual(['documentation'])
    const [backlink, ...more] = comments(sim, 7)
    expect(more).toEqual([])
    expect(backlink?.user).toBe(BOT)
    expect(run.outputs['docs-comment-url']).toContain(`/${CODE}/pull/7#issuecomment-`)
    expect(checks(sim).at(-1)?.description).toMatch(/^Docs pull request ready(, preview ready)?$/)
    // A run on the docs pull request itself, whoever is shown as its author, now knows it by its
    // backlink and starts nothing.
    const file = 'pull_request-synchronize.json'
    const onDocsPull = onEvent(sim, 'pull_request', file, {
      GITHUB_EVENT_PATH: eventFile(file, (p) => {
        p.number = 7
        p.pull_request.number = 7
        p.pull_request.user.login = 'docs-writer'
      })
    })
    const again = await runAction(inputs(sim), onDocsPull)
    expect(again.outputs.skipped).toBe('true')
    expect(jobPosts(sim)).toHaveLength(1)
  })

  it('is closed when the code pull request is closed unmerged, with the workflow token', async () => {
    const sim = await monorepo({ jobDurationMs: 50 })
    const jobId = await completedJob(sim)
    sim.setScenario({
      github: {
        comments: { [`${CODE}#2`]: [{ user: BOT, body: marker({ projectId: 'proj_e2e', jobId }) }] }
      }
    })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-closed.json')
    )
    expect(run.code).toBe(0)
    expect(jobPosts(sim)).toEqual([])
    const closes = sim.github.requests.filter((r) => r.kind === 'updatePull')
    expect(closes.map((r) => [r.path, r.token])).toEqual([[`/repos/${CODE}/pulls/7`, 'workflow']])
    expect(comments(sim, 7).some((c) => c.body.includes('was closed without being merged'))).toBe(
      true
    )
  })
})
