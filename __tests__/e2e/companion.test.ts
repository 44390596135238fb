// The built action as the pull request's companion, on GitHub's real example events: one status
// comment kept up to date, the job it records reused for later pushes, and never in the way.
import { describe, expect, it } from '@jest/globals'
import { marker, readMarker } from '../../src/clients/github/companion.js'
import {
  existingJob,
  KEY,
  onEvent,
  PUSHED,
  QUICK,
  runAction,
  waitForLine,
  type Simulator,
  WITH_GITHUB,
  endToEnd
} from './harness.js'

const sims = endToEnd(WITH_GITHUB)

const TOKEN = 'ghs_companion_token_0123'
/** The workflow token's account: the only author whose status comments count. */
const BOT = 'github-actions[bot]'
const REPO = '/repos/Codertocat/Hello-World'

// The comment's own writes; with a preview it says ready before the preview ends (see
// preview.test.ts), one more edit this file's sequences leave out.
const inputs = (sim: Simulator, more: Record<string, string> = {}) => ({
  ...QUICK,
  'base-url': sim.url,
  'github-token': TOKEN,
  preview: 'off',
  ...more
})

const commentCalls = (sim: Simulator) =>
  sim.requests
    .filter((r) => r.path.includes('/comments'))
    .map((r) => `${r.method} ${r.path.split('?')[0]}`)
const creates = (sim: Simulator) =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/job'))
const messages = (sim: Simulator) => sim.requests.filter((r) => r.path.endsWith('/message'))

describe('pull_request opened', () => {
  it('creates the comment with the job id, then updates it with the docs pull request', async () => {
    const sim = await sims.start()
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    expect(commentCalls(sim)).toEqual([
      `GET ${REPO}/issues/2/comments`,
      `POST ${REPO}/issues/2/comments`,
      expect.stringMatching(new RegExp(`^PATCH ${REPO}/issues/comments/\\d+$`))
    ])
    const [comment] = sim.comments
    expect(sim.comments).toHaveLength(1)
    const jobId = run.outputs['job-id'] ?? ''
    expect(comment?.history[0]).toContain('Docs update started')
    expect(comment?.history[0]).toContain(`<code>${jobId}</code>`)
    expect(readMarker(comment?.body ?? '')).toMatchObject({
      projectId: 'proj_e2e',
      jobId,
      sha: PUSHED
    })
    expect(comment?.body).toContain('✅ Docs pull request ready')
    expect(comment?.body).toContain(
      `<a href="${run.outputs['pr-link']}">acme/docs#${run.outputs['pr-number']}</a>`
    )
    expect(comment?.body).toContain('https://github.com/Codertocat/Hello-World/actions/runs/4242')
    expect(run.summary).toContain(`<a href="${run.outputs['comment-url']}">on the pull request</a>`)
    expect(run.outputs['comment-url']).toMatch(
      /^https:\/\/github\.com\/Codertocat\/Hello-World\/pull\/2#issuecomment-\d+$/
    )
  })

  it('shows nothing from the server that could mention people, link or close issues', async () => {
    const sim = await sims.start({
      jobIds: ['job_@octo-org/team'],
      jobFields: { model: '@octocat fixes #1 [x](https://evil.example)' }
    })
    await runAction(inputs(sim), onEvent(sim, 'pull_request', 'pull_request-opened.json'))
    const body = sim.comments[0]?.body ?? ''
    expect(body).not.toMatch(/@octo|fixes #1|evil\.example/)
    expect(body).not.toContain(KEY)
    expect(body).not.toContain(TOKEN)
  })
})

describe('synchronize with an existing comment', () => {
  it('sends the prompt to the recorded job, starts none, and updates the same comment', async () => {
    const sim = await sims.start({ jobDurationMs: 200 })
    const jobId = await existingJob(sim)
    sim.setScenario({
      github: {
        comments: {
          2: [
            { user: BOT, body: `${marker({ projectId: 'proj_e2e', jobId })}\nAn edit by a person.` }
          ]
        }
      }
    })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-synchronize.json')
    )
    expect(run.code).toBe(0)
    expect(creates(sim)).toHaveLength(0)
    expect(messages(sim).map((r) => r.path)).toEqual([`/v2/agent/proj_e2e/job/${jobId}/message`])
    expect(run.outputs['job-id']).toBe(jobId)
    expect(commentCalls(sim).filter((c) => c.startsWith('POST'))).toEqual([])
    expect(sim.comments).toHaveLength(1)
    expect(sim.comments[0]?.body).toContain('Docs pull request ready')
    expect(run.stdout).toContain('(reuse-job: true): sending the prompt to it as a follow-up')
  })

  it('starts a new job when the recorded one cannot take a message, and says so', async () => {
    const sim = await sims.start({ refuseMessages: true })
    const jobId = await existingJob(sim)
    sim.setScenario({
      github: { comments: { 2: [{ user: BOT, body: marker({ projectId: 'proj_e2e', jobId }) }] } }
    })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-synchronize.json')
    )
    expect(run.code).toBe(0)
    expect(messages(sim)).toHaveLength(1)
    expect(creates(sim)).toHaveLength(1)
    expect(run.outputs['job-id']).not.toBe(jobId)
    expect(run.stdout).toMatch(/could not take a message \(HTTP 400\), so a new job was started/)
    const body = sim.comments[0]?.body ?? ''
    expect(readMarker(body)).toMatchObject({
      projectId: 'proj_e2e',
      jobId: run.outputs['job-id'] ?? '',
      sha: PUSHED
    })
    expect(body).toMatch(/could not take a message/)
  })

  it('leaves the comment of another Mintlify project alone, and keeps its own', async () => {
    const other = marker({ projectId: 'proj_other', jobId: 'job_other' })
    const sim = await sims.start({ github: { comments: { 2: [{ body: other }] } } })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-synchronize.json')
    )
    expect(run.code).toBe(0)
    expect(messages(sim)).toHaveLength(0)
    expect(creates(sim)).toHaveLength(1)
    expect(sim.comments.map((c) => readMarker(c.body))).toEqual([
      readMarker(other),
      {
        projectId: 'proj_e2e',
        jobId: run.outputs['job-id'] ?? '',
        sha: PUSHED,
        docs: { owner: 'acme', repo: 'docs', number: 101 }
      }
    ])
  })

  it('with reuse-job: false starts a new job', async () => {
    const sim = await sims.start()
    const jobId = await existingJob(sim)
    sim.setScenario({
      github: { comments: { 2: [{ user: BOT, body: marker({ projectId: 'proj_e2e', jobId }) }] } }
    })
    await runAction(
      inputs(sim, { 'reuse-job': 'false' }),
      onEvent(sim, 'pull_request', 'pull_request-synchronize.json')
    )
    expect(messages(sim)).toHaveLength(0)
    expect(creates(sim)).toHaveLength(1)
  })

  it('dry-run says it would send a follow-up to the recorded job, and sends nothing', async () => {
    const sim = await sims.start()
    const jobId = await existingJob(sim)
    sim.setScenario({
      github: { comments: { 2: [{ user: BOT, body: marker({ projectId: 'proj_e2e', jobId }) }] } }
    })
    const run = await runAction(
      inputs(sim, { 'dry-run': 'true' }),
      onEvent(sim, 'pull_request', 'pull_request-synchronize.json')
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(
      `::group::The follow-up message agent job ${jobId} would be sent, the job recorded on pull request #2 (dry-run)`
    )
    // Only reads: GraphQL's `viewer` query (whose account wrote the comment) is a POST that reads.
    expect(sim.requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql')).toHaveLength(0)
  })
})

describe('push', () => {
  it('merged from a pull request: comments on that pull request', async () => {
    const sim = await sims.start({ github: { commitPulls: { [PUSHED]: [2] } } })
    const run = await runAction(inputs(sim), onEvent(sim, 'push', 'push.json'))
    expect(run.code).toBe(0)
    expect(sim.requests.some((r) => r.path.startsWith(`${REPO}/commits/${PUSHED}/pulls`))).toBe(
      true
    )
    expect(commentCalls(sim)[0]).toBe(`GET ${REPO}/issues/2/comments`)
    expect(sim.comments).toHaveLength(1)
  })

  it('of a tag: looks for no pull request', async () => {
    const sim = await sims.start({ github: { commitPulls: { [PUSHED]: [2] } } })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'push', 'push.json', { GITHUB_REF: 'refs/tags/v1.2.0' })
    )
    expect(run.code).toBe(0)
    expect(sim.requests.filter((r) => r.path.includes('Hello-World/commits'))).toHaveLength(0)
    expect(sim.comments).toHaveLength(0)
  })

  it('with no pull request: no comment, and comment-url is empty', async () => {
    const sim = await sims.start({ github: { commitPulls: { [PUSHED]: [] } } })
    const run = await runAction(inputs(sim), onEvent(sim, 'push', 'push.json'))
    expect(run.code).toBe(0)
    expect(commentCalls(sim)).toEqual([])
    expect(run.outputs['comment-url']).toBe('')
  })
})

describe('never in the way', () => {
  it('a 403 on writing the comment is one warning naming the permission, and the step succeeds', async () => {
    const sim = await sims.start({
      githubFaults: {
        createComment: [
          { status: 403, body: '{"message":"Resource not accessible by integration"}' }
        ]
      }
    })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    const warnings = run.stdout.split('\n').filter((l) => l.startsWith('::warning'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(
      /write the status comment on pull request #2.*`pull-requests: write`/
    )
    expect(run.outputs.status).toBe('completed')
  })

  it('a pull request from a fork: says once that its token is read-only', async () => {
    const sim = await sims.start({
      github: { pulls: { 2: { head: { repo: 'hubot/Hello-World' } } } },
      githubFaults: {
        createComment: [
          { status: 403, body: '{"message":"Resource not accessible by integration"}' }
        ]
      }
    })
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened-fork.json')
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/::warning.*pull requests from forks get a read-only token/)
  })

  it('comment: off writes no comment', async () => {
    const sim = await sims.start()
    const run = await runAction(
      inputs(sim, { comment: 'off' }),
      onEvent(sim, 'pull_request', 'pull_request-opened.json')
    )
    expect(run.code).toBe(0)
    expect(commentCalls(sim).filter((c) => !c.startsWith('GET'))).toEqual([])
    expect(run.outputs['comment-url']).toBe('')
  })

  it('works with GitHub Enterprise Server (GITHUB_API_URL with /api/v3)', async () => {
    const sim = await sims.start()
    const run = await runAction(
      inputs(sim),
      onEvent(sim, 'pull_request', 'pull_request-opened.json', {
        GITHUB_API_URL: `${sim.url}/api/v3`,
        GITHUB_SERVER_URL: 'https://ghes.example.com'
      })
    )
    expect(run.code).toBe(0)
    expect(sim.comments).toHaveLength(1)
    expect(sim.comments[0]?.body).toContain(
      'https://ghes.example.com/Codertocat/Hello-World/actions/runs/4242'
    )
  })
})

describe('a status comment deleted while the step runs', () => {
  /** Resolves once `ready` holds, looking every few milliseconds. */
  const until = async (ready: () => boolean) => {
    while (!ready()) await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const urlOf = (id: number | undefined) =>
    `https://github.com/Codertocat/Hello-World/pull/2#issuecomment-${id}`
  const PATCH = new RegExp(`^PATCH ${REPO}/issues/comments/\\d+$`)

  /**
   * A run on a pull request whose status comment (`found`, recording an existing job) is deleted
   * after the step found it and before the step writes it.
   */
  async function deletedOnceFound(sim: Simulator, found: number) {
    const jobId = await existingJob(sim)
    const body = marker({ projectId: 'proj_e2e', jobId })
    sim.setScenario({ github: { comments: { 2: [{ id: found, user: BOT, body }] } } })
    const run = await runAction(inputs(sim), {
      ...onEvent(sim, 'pull_request', 'pull_request-synchronize.json'),
      onSpawn: (child) =>
        void waitForLine(child, /Found this action's comment/).then(() =>
          sim.github.deleteComment(found)
        )
    })
    return { jobId, found, run }
  }

  it('the comment found: one new comment records the job, and comment-url is the new one', async () => {
    const sim = await sims.start({ jobDurationMs: 200 })
    const { jobId, found, run } = await deletedOnceFound(sim, 41)
    expect(run.code).toBe(0)
    expect(commentCalls(sim)).toEqual([
      `GET ${REPO}/issues/2/comments`,
      `PATCH ${REPO}/issues/comments/${found}`,
      `POST ${REPO}/issues/2/comments`,
      expect.stringMatching(PATCH)
    ])
    expect(sim.comments).toHaveLength(1)
    const [comment] = sim.comments
    expect(comment?.id).not.toBe(found)
    expect(readMarker(comment?.body ?? '')).toMatchObject({
      projectId: 'proj_e2e',
      jobId,
      sha: PUSHED
    })
    expect(comment?.body).toContain('Docs pull request ready')
    expect(run.outputs['comment-url']).toBe(urlOf(comment?.id))
    expect(run.stdout).toContain('The status comment on pull request #2 had been deleted')
    expect(run.stdout).not.toMatch(/::warning/)
  })

  it('not replaced because GitHub refuses: comment-url is empty, and one warning says why', async () => {
    const sim = await sims.start({
      jobDurationMs: 200,
      githubFaults: {
        createComment: [
          { status: 403, body: '{"message":"Resource not accessible by integration"}' }
        ]
      }
    })
    const { run } = await deletedOnceFound(sim, 42)
    expect(run.code).toBe(0)
    expect(sim.comments).toHaveLength(0)
    expect(run.outputs['comment-url']).toBe('')
    expect(run.summary).not.toContain('issuecomment')
    const warnings = run.stdout.split('\n').filter((l) => l.startsWith('::warning'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(
      /The status comment on pull request #2 was deleted, and a new one could not be written: GitHub refused \(HTTP 403\)/
    )
  })

  it('the comment this run wrote: replaced at the end, and comment-url is the new one', async () => {
    const sim = await sims.start({ jobDurationMs: 1_500 })
    let deleted: number | undefined
    const run = await runAction(inputs(sim), {
      ...onEvent(sim, 'pull_request', 'pull_request-opened.json'),
      // Deleted once the start comment is written, while the job still runs.
      onSpawn: () =>
        void until(() => sim.comments.length === 1).then(() => {
          deleted = sim.comments[0]?.id
          sim.github.deleteComment(deleted ?? 0)
        })
    })
    expect(run.code).toBe(0)
    expect(deleted).toBeDefined()
    expect(commentCalls(sim)).toEqual([
      `GET ${REPO}/issues/2/comments`,
      `POST ${REPO}/issues/2/comments`,
      `PATCH ${REPO}/issues/comments/${deleted}`,
      `POST ${REPO}/issues/2/comments`
    ])
    expect(sim.comments).toHaveLength(1)
    const [comment] = sim.comments
    expect(comment?.body).toContain('Docs pull request ready')
    expect(comment?.body).toContain(`<code>${run.outputs['job-id']}</code>`)
    expect(run.outputs['comment-url']).toBe(urlOf(comment?.id))
    expect(run.outputs['comment-url']).not.toBe(urlOf(deleted))
    expect(run.summary).toContain(`<a href="${urlOf(comment?.id)}">on the pull request</a>`)
    expect(run.stdout).not.toMatch(/::warning/)
  })
})
