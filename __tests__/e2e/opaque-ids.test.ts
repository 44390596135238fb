// The built action against a platform whose job ids are plain strings with no pattern, as its
// description allows (a mock built from that description answers ids such as `velit in`): the job
// is followed to its end and reported, the id goes back to the API as one encoded path segment,
// and it is published only encoded or escaped, in a form a later run reads back as the same id.
import { describe, expect, it } from '@jest/globals'
import { readMarker } from '../../src/clients/github/companion.js'
import { endToEnd, onEvent, QUICK, runAction, type Simulator, WITH_GITHUB } from './harness.js'

const sims = endToEnd(WITH_GITHUB)

const TOKEN = 'ghs_opaque_ids_token_0123'
const posts = (sim: Simulator) => sim.requests.filter((r) => r.method === 'POST')
const jobPaths = (sim: Simulator) =>
  sim.requests.filter((r) => r.path.startsWith('/v2/')).map((r) => `${r.method} ${r.path}`)

describe('a job id with a space, as the platform may give it', () => {
  it('is followed to completion, reported, and given back by the job-id output to a follow-up', async () => {
    const sim = await sims.start({ jobIds: ['velit in'] })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(0)
    expect(run.stdout).not.toContain('no usable job id')
    const [create, ...reads] = jobPaths(sim)
    expect(create).toBe('POST /v2/agent/proj_e2e/job')
    expect(reads.length).toBeGreaterThan(0)
    expect(new Set(reads)).toEqual(new Set(['GET /v2/agent/proj_e2e/job/velit%20in']))
    expect(run.outputs).toMatchObject({
      'job-id': 'velit%20in',
      status: 'completed',
      'pr-link': sim.jobs.get('velit in')?.prLink
    })
    expect(JSON.parse(run.outputs.job ?? '{}')).toMatchObject({ id: 'velit in' })
    expect(run.stdout).toContain('Created agent job velit in (status active')
    expect(run.summary).toContain('<code>velit in</code>')

    // A later step continues the job with the id the output gave.
    sim.requests.length = 0
    const next = await runAction({
      ...QUICK,
      'base-url': sim.url,
      'job-id': run.outputs['job-id'] ?? '',
      prompt: 'Also document --dry-run'
    })
    expect(next.code).toBe(0)
    expect(posts(sim).map((r) => r.path)).toEqual(['/v2/agent/proj_e2e/job/velit%20in/message'])
    expect(sim.jobs.size).toBe(1)
    expect(next.outputs['job-id']).toBe('velit%20in')
    expect(next.outputs.status).toBe('completed')
  })
})

describe('a job id that holds the end of an HTML comment, markup and a slash', () => {
  const id = 'a --> <b>*x*</b> [y](z) @octocat #1 /v%2F'

  it('keeps the status comment intact and its record readable, and the next run follows the same job', async () => {
    const sim = await sims.start({ jobIds: [id], jobDurationMs: 200 })
    const inputs = { ...QUICK, 'base-url': sim.url, 'github-token': TOKEN }
    const run = await runAction(inputs, onEvent(sim, 'pull_request', 'pull_request-opened.json'))
    expect(run.code).toBe(0)
    expect(run.outputs['job-id']).toBe(
      'a%20--%3E%20%3Cb%3E%2Ax%2A%3C%2Fb%3E%20%5By%5D%28z%29%20%40octocat%20%231%20%2Fv%252F'
    )
    expect(sim.requests.map((r) => r.path)).toContain(
      `/v2/agent/proj_e2e/job/${encodeURIComponent(id)}`
    )
    const body = sim.comments[0]?.body ?? ''
    const [first = '', ...rest] = body.split('\n')
    // The marker is the first line alone, closed once, at its end.
    expect(first).toMatch(/^<!-- mintlify-agent-action .* -->$/)
    expect(first.indexOf('-->')).toBe(first.length - 3)
    expect(readMarker(body)).toMatchObject({ projectId: 'proj_e2e', jobId: id })
    // The rest shows the id as text: no markup, link, mention or issue reference of its own.
    const after = rest.join('\n')
    expect(after).not.toMatch(/<b>|\]\(z\)|@octocat|#1 |-->/)
    expect(after).toContain('<code>a --&gt; &lt;b&gt;')

    // The next run on the pull request (its head already told to the job) finds the record and
    // follows that job: the id read back whole from the marker, no second job.
    sim.requests.length = 0
    const again = await runAction(
      inputs,
      onEvent(sim, 'pull_request', 'pull_request-synchronize.json')
    )
    expect(again.code).toBe(0)
    expect(again.stdout).toContain("Found this action's comment on pull request #2.")
    expect(again.stdout).not.toContain('so it is ignored')
    const paths = sim.requests.filter((r) => r.path.startsWith('/v2/')).map((r) => r.path)
    expect(paths.length).toBeGreaterThan(0)
    expect(new Set(paths)).toEqual(new Set([`/v2/agent/proj_e2e/job/${encodeURIComponent(id)}`]))
    expect(again.outputs['job-id']).toBe(run.outputs['job-id'])
    expect(sim.jobs.size).toBe(1)
    expect(readMarker(sim.comments[0]?.body ?? '')).toMatchObject({ jobId: id })
  })
})
