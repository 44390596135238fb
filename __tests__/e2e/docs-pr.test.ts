// The built action following the docs pull request with docs-token, on GitHub's example events:
// one backlink comment, reviewers and labels once each, the docs pull request closed when the
// code pull request is abandoned, and each token sent only where it belongs.
import { describe, expect, it } from '@jest/globals'
import { marker } from '../../src/clients/github/companion.js'
import { readBacklink } from '../../src/clients/github/backlink.js'
import {
  existingJob,
  onEvent,
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
/** The docs pull request the simulator's first job opens. */
const DOCS_PULL = `${DOCS}#101`
const DOCS_LINK = 'https://github.com/acme/docs/pull/101'
const DOCS_ACCOUNT = 'docs-writer[bot]'

/** Two tokens, each reaching its own repository only, as on GitHub. */
const TOKENS = {
  tokens: {
    workflow: { token: WORKFLOW_TOKEN, repos: [CODE] },
    docs: { token: DOCS_TOKEN, user: DOCS_ACCOUNT, repos: [DOCS] }
  },
  pulls: { [DOCS_PULL]: { user: 'mintlify[bot]' } }
}

const inputs = (sim: Simulator, more: Record<string, string> = {}) => ({
  ...QUICK,
  'base-url': sim.url,
  'github-token': WORKFLOW_TOKEN,
  'docs-token': DOCS_TOKEN,
  'docs-reviewers': 'octocat, acme/writers, author',
  'docs-labels': 'documentation',
  ...more
})

const docsRequests = (sim: Simulator) =>
  sim.github.requests.filter((r) => r.repository?.toLowerCase() === DOCS)
const kinds = (sim: Simulator, kind: string) =>
  sim.github.requests.filter((r) => r.kind === kind && r.repository === DOCS)
const docsComments = (sim: Simulator) =>
  sim.comments.filter((c) => `${c.owner}/${c.repo}` === DOCS && c.issueNumber === 101)
const jobRequests = (sim: Simulator) =>
  sim.requests.filter((r) => r.path.startsWith('/v2/agent/') && r.method === 'POST')

describe('a pull request run with docs-token', () => {
  it('links the code change, asks the reviewers and adds the labels, each once', async () => {
    const sim = await sims.start({ github: TOKENS })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    expect(run.outputs['pr-link']).toBe(DOCS_LINK)

    const [backlink, ...more] = docsComments(sim)
    expect(more).toEqual([])
    expect(backlink?.user).toBe(DOCS_ACCOUNT)
    expect(backlink?.body).toContain(
      '<a href="https://github.com/Codertocat/Hello-World/pull/2">Codertocat/Hello-World#2</a>'
    )
    expect(backlink?.body).toContain('Update the README with new information.')
    expect(backlink?.body).toContain('https://github.com/Codertocat/Hello-World/actions/runs/4242')
    expect(readBacklink(backlink?.body ?? '')?.changes).toHaveLength(1)
    expect(run.outputs['docs-comment-url']).toMatch(
      /^https:\/\/github\.com\/acme\/docs\/pull\/101#issuecomment-\d+$/
    )

    expect(kinds(sim, 'requestReviewers')).toHaveLength(1)
    expect(kinds(sim, 'addLabels')).toHaveLength(1)
    const pull = sim.github.pulls.get(DOCS_PULL)
    expect(pull?.reviewers).toEqual(['octocat', 'Codertocat'])
    expect(pull?.teams).toEqual(['writers'])
    expect(pull?.labels).toEqual(['documentation'])
  })

  it('updates the same comment on a follow-up run, and asks nobody twice', async () => {
    const sim = await sims.start({ github: TOKENS })
    const first = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(first.code).toBe(0)
    const second = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-synchronize.json', { GITHUB_RUN_ID: '4243' })
    )
    expect(second.code).toBe(0)
    expect(second.outputs['job-id']).toBe(first.outputs['job-id'])

    expect(docsComments(sim)).toHaveLength(1)
    expect(kinds(sim, 'createComment')).toHaveLength(1)
    expect(kinds(sim, 'updateComment')).toHaveLength(1)
    expect(kinds(sim, 'requestReviewers')).toHaveLength(1)
    expect(kinds(sim, 'addLabels')).toHaveLength(1)
    const body = docsComments(sim)[0]?.body ?? ''
    expect(readBacklink(body)?.changes.map((c) => c.run)).toEqual([
      'https://github.com/Codertocat/Hello-World/actions/runs/4242',
      'https://github.com/Codertocat/Hello-World/actions/runs/4243'
    ])
    expect(second.outputs['docs-comment-url']).toBe(first.outputs['docs-comment-url'])

    // The log says what each run did on GitHub, a line each, and where.
    const said = (log: string, pattern: RegExp) =>
      log.split('\n').filter((line) => pattern.test(line))
    const comment = /^(Created|Updated) the status comment on pull request #2: (\S+)$/
    const check =
      /^Set the docs check "Mintlify docs \(proj_e2e\)" on commit ec26c3e to success: Docs pull request ready/
    const backlink =
      /^(Created|Updated) the backlink comment on docs pull request acme\/docs#101: (\S+)$/
    const asked =
      /^Asked octocat, Codertocat, acme\/writers to review docs pull request acme\/docs#101\.$/
    const labeled = /^Added the label documentation to docs pull request acme\/docs#101\.$/
    for (const pattern of [comment, check, backlink, asked, labeled]) {
      expect(said(first.stdout, pattern)).toHaveLength(1)
    }
    expect(said(first.stdout, comment)[0]).toBe(
      `Created the status comment on pull request #2: ${first.outputs['comment-url']}`
    )
    expect(said(first.stdout, backlink)[0]).toBe(
      `Created the backlink comment on docs pull request acme/docs#101: ${first.outputs['docs-comment-url']}`
    )
    expect(said(second.stdout, comment)).toEqual([
      `Updated the status comment on pull request #2: ${first.outputs['comment-url']}`
    ])
    expect(said(second.stdout, check)).toHaveLength(1)
    expect(said(second.stdout, backlink)).toEqual([
      `Updated the backlink comment on docs pull request acme/docs#101: ${first.outputs['docs-comment-url']}`
    ])
    // Nobody was asked and no label added the second time: the log says none was.
    expect(said(second.stdout, asked)).toEqual([])
    expect(said(second.stdout, labeled)).toEqual([])
  })

  it('still asks the others when GitHub refuses one reviewer, with one warning', async () => {
    const sim = await sims.start({ github: { ...TOKENS, nonCollaborators: ['stranger'] } })
    const run = await runAction(
      inputs(sim, { 'docs-reviewers': 'stranger, octocat' }),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    expect(sim.github.pulls.get(DOCS_PULL)?.reviewers).toEqual(['octocat'])
    expect(kinds(sim, 'requestReviewers').map((r) => r.status)).toEqual([422, 422, 201])
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('stranger')
  })

  it('sends each token only to its own repository, and never shows the docs token', async () => {
    const sim = await sims.start({ github: TOKENS })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    const byToken = (label: string) =>
      new Set(sim.github.requests.filter((r) => r.token === label).map((r) => r.repository))
    expect(byToken('docs')).toEqual(new Set([DOCS, null]))
    expect(byToken('workflow')).toEqual(new Set([CODE, null]))
    // GraphQL (`viewer`) has no repository: each token asks who it is once.
    expect(sim.github.requests.filter((r) => r.kind === 'graphql').map((r) => r.token)).toEqual(
      expect.arrayContaining(['docs', 'workflow'])
    )
    expect(sim.github.requests.every((r) => r.token !== null)).toBe(true)
    // Masked first, as the API key is; never printed anywhere else.
    expect(run.stdout).toContain(`::add-mask::${DOCS_TOKEN}`)
    const printed = `${run.stdout}${run.stderr}${run.summary}`.replace(
      `::add-mask::${DOCS_TOKEN}`,
      ''
    )
    expect(printed).not.toContain(DOCS_TOKEN)
    expect(sim.comments.map((c) => c.body).join('\n')).not.toContain(DOCS_TOKEN)
  })
})

describe('where the docs token is not sent', () => {
  it('sends nothing for a pull request link on another host, and warns once', async () => {
    const sim = await sims.start({
      github: TOKENS,
      prLink: 'https://evil.example/acme/docs/pull/101'
    })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    expect(docsRequests(sim)).toEqual([])
    expect(sim.github.requests.filter((r) => r.token === 'docs')).toEqual([])
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('no token is sent')
    expect(run.outputs['docs-comment-url']).toBe('')
  })

  it('without docs-token only reads the docs pull request, with the workflow token', async () => {
    const sim = await sims.start({ github: TOKENS })
    const run = await runAction(
      inputs(sim, { 'docs-token': '', 'docs-reviewers': '', 'docs-labels': '' }),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    // The workflow token cannot see this private docs repository: one read, then nothing.
    expect(docsRequests(sim).map((r) => [r.method, r.kind, r.token])).toEqual([
      ['GET', 'getPull', 'workflow']
    ])
    expect(run.stdout).toContain('Could not read the state of docs pull request acme/docs#101')
    expect(run.stdout).toContain('give docs-token')
    const [check] = sim.github.statuses
    // The job just opened it: success, saying its state is not known (nobody needs to act).
    expect(sim.github.statuses.at(-1)?.state).toBe('success')
    expect(sim.github.statuses.at(-1)?.description).toBe(
      'Docs pull request opened; its state could not be read'
    )
    expect(check?.state).toBe('pending')
  })

  it('warns once and succeeds when the docs repository refuses the token (403)', async () => {
    const sim = await sims.start({
      github: {
        ...TOKENS,
        tokens: {
          ...TOKENS.tokens,
          docs: { token: DOCS_TOKEN, user: DOCS_ACCOUNT, repos: [], readOnly: [DOCS] }
        }
      }
    })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    expect(run.outputs['pr-link']).toBe(DOCS_LINK)
    const writes = docsRequests(sim).filter((r) => r.method !== 'GET')
    // The first write is refused; nothing more is written there.
    expect(writes.map((r) => r.status)).toEqual([403])
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(
      'Could not ask for reviews on acme/docs#101: GitHub refused docs-token (HTTP 403): give ' +
        'docs-token access to acme/docs with `pull-requests: write`'
    )
    expect(warnings[0]).not.toContain('list it under')
  })

  it('says once, with the docs token’s fix, when the docs repository does not let docs-token in', async () => {
    const sim = await sims.start({
      github: {
        ...TOKENS,
        tokens: { ...TOKENS.tokens, docs: { token: DOCS_TOKEN, user: DOCS_ACCOUNT, repos: [] } }
      }
    })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    // One read, refused; nothing else is sent there with that token.
    expect(docsRequests(sim).map((r) => [r.method, r.kind, r.token, r.status])).toEqual([
      ['GET', 'getPull', 'docs', 404]
    ])
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning'))
    expect(warnings).toEqual([
      '::warning title=Mintlify agent::Could not read the state of docs pull request ' +
        'acme/docs#101: GitHub refused docs-token (HTTP 404): give docs-token access to ' +
        'acme/docs with `pull-requests: read` (the repository access of a fine-grained token, ' +
        "or a GitHub App installed there; the workflow's `permissions:` do not apply to it)."
    ])
    // The job summary lists it once too, under the warnings.
    expect(run.summary.match(/GitHub refused docs-token/g)).toHaveLength(1)
  })

  it('points a refused workflow token at the workflow’s permissions', async () => {
    const sim = await sims.start({
      github: {
        ...TOKENS,
        tokens: {
          ...TOKENS.tokens,
          workflow: { token: WORKFLOW_TOKEN, repos: [], readOnly: [CODE] }
        }
      }
    })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    const refused = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('::warning') && line.includes('GitHub refused'))
    expect(refused.length).toBeGreaterThan(0)
    for (const line of refused) {
      expect(line).toContain('github-token needs the `')
      expect(line).toContain('list it under `permissions:` in the workflow')
      expect(line).not.toContain('docs-token')
    }
  })
})

describe('pull_request closed', () => {
  /** A status comment on the code pull request recording a job, as an earlier run left it. */
  async function recorded(sim: Simulator): Promise<string> {
    const jobId = await existingJob(sim)
    // Let the job open its docs pull request.
    await new Promise((resolve) => setTimeout(resolve, 400))
    sim.setScenario({
      github: {
        comments: {
          [`${CODE}#2`]: [
            { user: 'github-actions[bot]', body: marker({ projectId: 'proj_e2e', jobId }) }
          ]
        }
      }
    })
    return jobId
  }

  it('closes the docs pull request with a comment saying why, and starts no job', async () => {
    const sim = await sims.start({
      github: {
        ...TOKENS,
        tokens: {
          ...TOKENS.tokens,
          workflow: { token: WORKFLOW_TOKEN, user: 'github-actions[bot]', repos: [CODE] }
        }
      }
    })
    const jobId = await recorded(sim)
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-closed.json')
    )
    expect(run.code).toBe(0)
    expect(jobRequests(sim)).toEqual([])
    expect(run.outputs['job-id']).toBe(jobId)
    expect(sim.github.pulls.get(DOCS_PULL)?.state).toBe('closed')
    expect(kinds(sim, 'updatePull')).toHaveLength(1)
    expect(run.stdout.split('\n')).toContain('Closed docs pull request acme/docs#101.')
    const docs = docsComments(sim)
    expect(docs.map((c) => c.user)).toEqual([DOCS_ACCOUNT, DOCS_ACCOUNT])
    expect(
      docs.some((c) =>
        c.body.includes('was closed without being merged, so this pull request was closed')
      )
    ).toBe(true)
    expect(docs.some((c) => readBacklink(c.body)?.code === 'closed')).toBe(true)
    for (const request of sim.github.requests.filter((r) => r.repository !== null)) {
      expect([request.repository, request.token]).toEqual(
        request.repository === DOCS ? [DOCS, 'docs'] : [CODE, 'workflow']
      )
    }
    const status = sim.comments.find((c) => `${c.owner}/${c.repo}` === CODE)
    expect(status?.body).toMatch(
      /closed without merging, so docs pull request acme\/docs.*101 was closed/
    )
  })

  it('only notes a merge in the backlink', async () => {
    const sim = await sims.start({ github: TOKENS })
    await recorded(sim)
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-closed-merged.json')
    )
    expect(run.code).toBe(0)
    expect(jobRequests(sim)).toEqual([])
    expect(kinds(sim, 'updatePull')).toEqual([])
    expect(sim.github.pulls.get(DOCS_PULL)?.state).toBeUndefined()
    const docs = docsComments(sim)
    expect(docs).toHaveLength(1)
    expect(readBacklink(docs[0]?.body ?? '')?.code).toBe('merged')
    expect(docs[0]?.body).toContain('The code pull request was merged.')
  })
})
