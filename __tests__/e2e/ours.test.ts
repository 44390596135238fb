// The built action writes only to a docs pull request GitHub shows as the agent's, in the job's
// own repository: a job answer that names a person's pull request (in the code repository, in
// another repository the docs token reaches, or in the docs repository itself) gets no backlink,
// no reviewers, no labels, is never closed, never called ready, and is not handed on.
import { describe, expect, it } from '@jest/globals'
import { marker } from '../../src/clients/github/companion.js'
import {
  completedJob,
  onEvent,
  pushOnto,
  QUICK,
  runAction,
  type Simulator,
  WITH_GITHUB,
  CODE,
  endToEnd
} from './harness.js'

const sims = endToEnd(WITH_GITHUB)

const WORKFLOW_TOKEN = 'ghs_workflow_token_0123'
const DOCS_TOKEN = 'ghp_docs_token_0123456'
const DOCS = 'acme/docs'
const OTHER = 'acme/handbook'
const DOCS_ACCOUNT = 'docs-writer[bot]'

const inputs = (sim: Simulator, more: Record<string, string> = {}) => ({
  ...QUICK,
  'base-url': sim.url,
  'github-token': WORKFLOW_TOKEN,
  'docs-token': DOCS_TOKEN,
  'docs-reviewers': 'octocat, author',
  'docs-labels': 'documentation',
  ...more
})

/** A simulator whose jobs answer with `link` in `repository`, and both tokens, each its own. */
async function naming(
  link: string,
  repository: string,
  pulls: Record<string, { user: string }> = {}
) {
  return sims.start({
    prLink: link,
    jobFields: { source: { repository: `https://github.com/${repository}`, ref: 'mintlify/x' } },
    github: {
      tokens: {
        workflow: { token: WORKFLOW_TOKEN, user: 'github-actions[bot]', repos: [CODE] },
        docs: { token: DOCS_TOKEN, user: DOCS_ACCOUNT, repos: [DOCS, OTHER] }
      },
      pulls
    }
  })
}

/**
 * Requests that wrote to `repo#number` (its state, labels, reviewers, comments); on the code pull
 * request, the run's own status comment aside.
 */
function writesTo(sim: Simulator, repo: string, number: number) {
  const on = (r: { owner: string; repo: string }) => `${r.owner}/${r.repo}`.toLowerCase()
  const status = (body: string) => body.startsWith('<!-- mintlify-agent-action project=')
  const comments = sim.comments.filter(
    (c) => on(c) === repo.toLowerCase() && c.issueNumber === number && !status(c.body)
  )
  const touched = sim.github.requests.filter(
    (r) =>
      r.repository?.toLowerCase() === repo.toLowerCase() &&
      r.method !== 'GET' &&
      r.kind !== 'createComment' &&
      r.kind !== 'updateComment' &&
      r.kind !== 'createStatus' &&
      r.kind !== 'graphql' &&
      new RegExp(`/(?:pulls|issues)/${number}(?:/|$)`).test(r.path)
  )
  return [...touched.map((r) => r.kind), ...comments.map(() => 'comment')]
}

function warnings(stdout: string): string[] {
  return stdout.split('\n').filter((line) => line.startsWith('::warning'))
}

describe("a job answer naming a pull request that is not the agent's", () => {
  it("a person's pull request in the code repository: left untouched on the run, and when the code pull request is closed", async () => {
    // The job says its docs live in the code repository and names the code pull request itself,
    // which Codertocat opened (GitHub's example pull request).
    const link = `https://github.com/${CODE}/pull/2`
    const sim = await naming(link, CODE)
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    expect(run.outputs['pr-link']).toBe('')
    expect(run.outputs['pr-number']).toBe('')
    expect(run.stdout).toContain('not by an agent account')
    expect(run.stdout).toContain(`${CODE}#2`)
    // The status comment is the one write to the code pull request: no labels, no reviewers.
    expect(writesTo(sim, CODE, 2)).toEqual([])
    const status = sim.comments.find((c) => `${c.owner}/${c.repo}` === CODE)
    expect(status?.body).toContain("not the agent's")
    expect(status?.body).not.toMatch(/Docs pull request ready/)
    const check = sim.github.statuses.at(-1)
    expect(check?.state).toBe('error')
    expect(check?.targetUrl ?? '').not.toContain('/pull/2')

    // The code pull request is then closed without merging: the pull request the job names is
    // not closed, and nothing is written to it.
    const jobId = run.outputs['job-id'] ?? ''
    sim.setScenario({
      github: {
        comments: {
          [`${CODE}#2`]: [
            { user: 'github-actions[bot]', body: marker({ projectId: 'proj_e2e', jobId }) }
          ]
        }
      }
    })
    sim.github.requests.length = 0
    const closed = await runAction(
      inputs(sim, { 'on-code-closed': 'close' }),
      onEvent(sim, 'pull_request', 'pull_request-closed.json')
    )
    expect(closed.code).toBe(0)
    expect(sim.github.requests.filter((r) => r.kind === 'updatePull')).toEqual([])
    expect(sim.github.pulls.get(`${CODE}#2`)?.state).toBeUndefined()
    expect(writesTo(sim, CODE, 2)).toEqual([])
  })

  it('a later push: nothing is written to the pull request the job names', async () => {
    const link = `https://github.com/${CODE}/pull/2`
    const sim = await naming(link, CODE)
    const run = await runAction(inputs(sim), pushOnto(sim, 'a'.repeat(40), 'b'.repeat(40)))
    expect(run.code).toBe(0)
    expect(run.outputs['pr-link']).toBe('')
    expect(writesTo(sim, CODE, 2)).toEqual([])
  })

  it('a pull request in another repository the docs token reaches, opened by a person', async () => {
    const sim = await naming(`https://github.com/${OTHER}/pull/5`, OTHER, {
      [`${OTHER}#5`]: { user: 'octocat' }
    })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    expect(run.outputs['pr-link']).toBe('')
    expect(writesTo(sim, OTHER, 5)).toEqual([])
    expect(warnings(run.stdout).filter((w) => w.includes(`${OTHER}#5`))).toHaveLength(1)
  })

  it('a pull request in the docs repository opened by someone else', async () => {
    const sim = await naming(`https://github.com/${DOCS}/pull/101`, DOCS, {
      [`${DOCS}#101`]: { user: 'hubot' }
    })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    expect(run.outputs['pr-link']).toBe('')
    expect(writesTo(sim, DOCS, 101)).toEqual([])
    expect(sim.github.statuses.at(-1)?.state).toBe('error')
  })

  it('the same pull request opened by mintlify[bot] is followed as before', async () => {
    const sim = await naming(`https://github.com/${DOCS}/pull/101`, DOCS)
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    expect(run.outputs['pr-link']).toBe(`https://github.com/${DOCS}/pull/101`)
    expect(writesTo(sim, DOCS, 101).sort()).toEqual(['addLabels', 'comment', 'requestReviewers'])
    expect(sim.github.statuses.at(-1)?.state).toBe('success')
  })
})

describe('a platform link or id outside the one strict shape', () => {
  it.each([
    ['a query', `https://github.com/${DOCS}/pull/101?x=1`],
    ['a fragment', `https://github.com/${DOCS}/pull/101#x`],
    ['user info', `https://bot@github.com/${DOCS}/pull/101`],
    ['an encoded character', `https://github.com/acme/do%63s/pull/101`],
    ['a trailing part', `https://github.com/${DOCS}/pull/101/files`],
    ['plain http', `http://github.com/${DOCS}/pull/101`]
  ])(
    'a pull request link with %s is treated as absent, never written or handed on',
    async (_, link) => {
      const sim = await naming(link, DOCS)
      const run = await runAction(
        inputs(sim),
        onEvent(sim, 'pull_request', 'pull_request-opened.json')
      )
      expect(run.code).toBe(0)
      expect(run.outputs['pr-link']).toBe('')
      expect(JSON.parse(run.outputs.job ?? '{}')).toMatchObject({ prLink: null })
      const written = [
        ...sim.comments.map((c) => c.body),
        ...sim.github.statuses.map((s) => `${s.description ?? ''} ${s.targetUrl ?? ''}`)
      ].join('\n')
      expect(written).not.toContain(link)
      expect(run.summary).not.toContain(link)
      expect(run.stdout).not.toContain(link)
      expect(run.stdout).toContain('prLink in a form that is not a pull request link')
      expect(writesTo(sim, DOCS, 101)).toEqual([])
    }
  )
})

describe('a recorded job whose answer names another docs pull request than the record', () => {
  /** The status comment recorded acme/docs#150 for the job; the job's answer now names #101, which
   * mintlify[bot] opened too (another change's docs pull request, say). */
  async function contradicted() {
    const sim = await sims.start({
      github: {
        tokens: {
          workflow: { token: WORKFLOW_TOKEN, user: 'github-actions[bot]', repos: [CODE] },
          docs: { token: DOCS_TOKEN, user: DOCS_ACCOUNT, repos: [DOCS] }
        }
      }
    })
    const jobId = await completedJob(sim)
    const recorded = {
      projectId: 'proj_e2e',
      jobId,
      docs: { owner: 'acme', repo: 'docs', number: 150 }
    }
    sim.setScenario({
      github: {
        comments: { [`${CODE}#2`]: [{ user: 'github-actions[bot]', body: marker(recorded) }] }
      }
    })
    sim.requests.length = 0
    return sim
  }
  const sent = (sim: Simulator) =>
    sim.requests.filter((r) => r.method === 'POST' && /^\/v[12]\//.test(r.path))

  it('starts nothing, writes to neither, hands on no link, and the check is no success', async () => {
    const sim = await contradicted()
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-synchronize.json')
    )
    expect(run.code).toBe(0)
    // No create, no follow-up message, no preview: nothing is sent to Mintlify.
    expect(sent(sim)).toEqual([])
    expect(writesTo(sim, DOCS, 101)).toEqual([])
    expect(writesTo(sim, DOCS, 150)).toEqual([])
    expect(run.outputs['pr-link'] ?? '').toBe('')
    const said = warnings(run.stdout).filter((line) => line.includes('acme/docs#150'))
    expect(said).toHaveLength(1)
    expect(said[0]).toContain('acme/docs#101')
    expect(said[0]).toContain('Mintlify dashboard')
    const check = sim.github.statuses.at(-1)
    expect(check?.state).toBe('error')
    expect(check?.description).toContain('another docs pull request than the record')
  })

  it('the code pull request closed: neither docs pull request is closed or written to', async () => {
    const sim = await contradicted()
    const closed = await runAction(
      inputs(sim, { 'on-code-closed': 'close' }),
      onEvent(sim, 'pull_request', 'pull_request-closed.json')
    )
    expect(closed.code).toBe(0)
    expect(sent(sim)).toEqual([])
    expect(writesTo(sim, DOCS, 101)).toEqual([])
    expect(writesTo(sim, DOCS, 150)).toEqual([])
    expect(sim.github.pulls.get('acme/docs#101')?.state ?? 'open').toBe('open')
    expect(closed.stdout).toContain('the record on the code pull request names acme/docs#150')
  })
})
