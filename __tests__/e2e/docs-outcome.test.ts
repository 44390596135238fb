// The built action telling what a completed job did to the docs (the `outcome` output: a docs pull
// request, a push to the deploy branch, no change, or unknown), read from the fake GitHub with the
// token that may read the docs repository, and saying it on the check, the status comment and the
// job summary.
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

const WORKFLOW_TOKEN = 'ghs_outcome_workflow_0123'
const DOCS_TOKEN = 'ghp_outcome_docs_0123456'
const DOCS = 'acme/docs'
const CONTEXT = `Mintlify docs (${QUICK['project-id']})`

/** Two tokens, each reaching its own repository only, as on GitHub. */
const TOKENS = {
  workflow: { token: WORKFLOW_TOKEN, repos: [CODE] },
  docs: { token: DOCS_TOKEN, user: 'docs-reader[bot]', repos: [DOCS] }
}

interface Commit {
  sha: string
  message: string
  author: { login: string; date?: string }
}

/** The agent's commit, a person's, and one of the agent's from long before the job. */
const AGENT_SHA = 'a1'.repeat(20)
const PERSON_SHA = 'b2'.repeat(20)
const OLD_AGENT_SHA = 'c3'.repeat(20)
const agentCommit: Commit = {
  sha: AGENT_SHA,
  message: 'Document the flag',
  author: { login: 'mintlify[bot]' }
}
const personCommit: Commit = {
  sha: PERSON_SHA,
  message: 'Fix a typo',
  author: { login: 'octocat' }
}
const oldAgentCommit: Commit = {
  sha: OLD_AGENT_SHA,
  message: 'Document the old flag',
  author: { login: 'mintlify[bot]', date: '2020-01-01T00:00:00Z' }
}

/**
 * A job that completes without a pull request link, in `acme/docs`, naming `ref` as its branch
 * (null: none, so the repository's default branch is read), with `commits` on `branch`.
 */
const pushScenario = (
  ref: string | null,
  branch: string,
  commits: Commit[],
  more: object = {}
) => ({
  prLink: false,
  jobFields: { source: { repository: `https://github.com/${DOCS}`, ref } },
  github: {
    tokens: TOKENS,
    repos: { [DOCS]: { default_branch: 'main' } },
    branchCommits: { [`${DOCS}@${branch}`]: commits },
    ...more
  }
})

const inputs = (sim: Simulator, more: Record<string, string> = {}) => ({
  ...QUICK,
  'base-url': sim.url,
  'github-token': WORKFLOW_TOKEN,
  'docs-token': DOCS_TOKEN,
  preview: 'off',
  ...more
})
const onPullRequest = (sim: Simulator) => onEvent(sim, 'pull_request', 'pull_request-opened.json')

const checkOf = (sim: Simulator) => sim.github.statuses.filter((s) => s.context === CONTEXT).at(-1)
const commentOf = (sim: Simulator) =>
  sim.comments.filter((c) => `${c.owner}/${c.repo}` === CODE && c.issueNumber === 2).at(-1)?.body ??
  ''
const reads = (sim: Simulator, kind: string) => sim.github.requests.filter((r) => r.kind === kind)

describe('the outcome of a job that completed', () => {
  it('docs-pr: the job opened a docs pull request; the deploy branch is not read', async () => {
    const sim = await sims.start({
      github: { tokens: TOKENS, pulls: { [`${DOCS}#101`]: { user: 'mintlify[bot]' } } }
    })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(run.outputs.outcome).toBe('docs-pr')
    expect(reads(sim, 'listCommits')).toEqual([])
    expect(reads(sim, 'getRepo')).toEqual([])
    expect(checkOf(sim)).toMatchObject({ state: 'success', description: 'Docs pull request ready' })
  })

  it('pushed: the agent committed to the default branch since the job; a person and an older commit do not count', async () => {
    const sim = await sims.start(
      pushScenario(null, 'main', [personCommit, agentCommit, oldAgentCommit])
    )
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(run.outputs.outcome).toBe('pushed')
    expect(run.outputs['pr-link']).toBe('')

    // One read of the repository for its default branch, one of the branch's commits since the
    // job was created, both with docs-token.
    expect(reads(sim, 'getRepo').map((r) => [r.repository, r.token])).toEqual([[DOCS, 'docs']])
    const [listed, ...more] = reads(sim, 'listCommits')
    expect(more).toEqual([])
    expect(listed?.token).toBe('docs')
    const query = new URL(listed?.path ?? '', sim.url).searchParams
    expect(Object.fromEntries(query)).toEqual({
      sha: 'main',
      since: run.outputs['created-at'],
      per_page: '20'
    })

    expect(checkOf(sim)).toMatchObject({
      state: 'success',
      description: 'Docs pushed to main: 1 commit'
    })
    const comment = commentOf(sim)
    expect(comment).toContain('### ✅ Docs pushed to main')
    expect(comment).toContain(
      `<a href="https://github.com/${DOCS}/commit/${AGENT_SHA}"><code>${AGENT_SHA.slice(0, 7)}</code></a>`
    )
    expect(comment).not.toContain(PERSON_SHA.slice(0, 7))
    expect(comment).not.toContain(OLD_AGENT_SHA.slice(0, 7))
    expect(run.summary).toContain('<th>Outcome</th>')
    expect(run.summary).toContain(`https://github.com/${DOCS}/commit/${AGENT_SHA}`)
    expect(warnings(run.stdout)).toEqual([])
  })

  it("no-change: only a person's commit since the job, and the agent's from before it, on the job's own branch", async () => {
    const sim = await sims.start(pushScenario('main', 'main', [personCommit, oldAgentCommit]))
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(run.outputs.outcome).toBe('no-change')
    // The job names its branch: the repository is not asked for its default one.
    expect(reads(sim, 'getRepo')).toEqual([])
    expect(reads(sim, 'listCommits')).toHaveLength(1)
    expect(checkOf(sim)).toMatchObject({ state: 'success', description: 'No docs change needed' })
    expect(commentOf(sim)).toContain('### ☑️ No docs change needed')
    expect(run.stdout).toContain('no docs change was needed')
    expect(run.summary).toContain('No docs change needed')
  })

  it('an agent commit dated before the job is not a push, whatever branch it is on', async () => {
    const sim = await sims.start(pushScenario(null, 'main', [oldAgentCommit]))
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.outputs.outcome).toBe('no-change')
  })

  it('unknown: the workflow token cannot read the docs repository; one warning says which token would', async () => {
    const sim = await sims.start(pushScenario(null, 'main', [agentCommit]))
    const run = await runAction(inputs(sim, { 'docs-token': '' }), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(run.outputs.outcome).toBe('unknown')
    expect(reads(sim, 'getRepo').map((r) => [r.token, r.status])).toEqual([['workflow', 404]])
    expect(reads(sim, 'listCommits')).toEqual([])
    const said = warnings(run.stdout)
    expect(said).toHaveLength(1)
    expect(said[0]).toContain('Could not read whether the agent pushed to acme/docs')
    expect(said[0]).toContain('docs-token')
    expect(said[0]).toContain('contents: read')
    expect(checkOf(sim)).toMatchObject({
      state: 'success',
      description: 'Completed, no pull request; whether the agent pushed could not be read'
    })
    expect(commentOf(sim)).toContain('Unknown: the docs repository could not be read')
  })

  it("a read GitHub never answers is cut at the step's budget: unknown, and the step ends", async () => {
    const sim = await sims.start({
      ...pushScenario(null, 'main', [agentCommit]),
      githubFaults: { listCommits: [{ action: 'hang' }] }
    })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(run.outputs.outcome).toBe('unknown')
    expect(reads(sim, 'listCommits')).toHaveLength(1)
    const said = warnings(run.stdout).filter((w) => w.includes('Could not read whether'))
    expect(said).toHaveLength(1)
    expect(said[0]).toContain('did not answer in time')
    // Within the 20s timeout and the last writes' budget after it.
    expect(run.ms).toBeLessThan(24_000)
  })

  it('a dry run reads nothing and leaves the outcome empty', async () => {
    const sim = await sims.start(pushScenario(null, 'main', [agentCommit]))
    const run = await runAction(inputs(sim, { 'dry-run': 'true' }), onPullRequest(sim))
    expect(run.code).toBe(0)
    expect(run.outputs.outcome).toBe('')
    expect(reads(sim, 'listCommits')).toEqual([])
    expect(reads(sim, 'getRepo')).toEqual([])
  })

  it('a failed job has no outcome, and nothing is read for it', async () => {
    const sim = await sims.start({
      ...pushScenario(null, 'main', [agentCommit]),
      finalStatus: 'failed'
    })
    const run = await runAction(inputs(sim), onPullRequest(sim))
    expect(run.code).not.toBe(0)
    expect(run.outputs.outcome).toBe('')
    expect(reads(sim, 'listCommits')).toEqual([])
  })
})
