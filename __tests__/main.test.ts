import { beforeEach, describe, expect, it, jest } from '@jest/globals'
import * as core from '../__fixtures__/core.js'
import { EPOCH } from '../__fixtures__/runtime.js'
import type { Fetch, HttpRequest } from '../src/clients/mintlify/transport.js'

jest.unstable_mockModule('@actions/core', () => core)
const { run } = await import('../src/main.js')
const { surface } = await import('../src/report/sinks/sink.js')

const KEY = 'mint_main_test_key'
const PR = 'https://github.com/acme/docs/pull/17'

interface Api {
  fetch: Fetch
  requests: { url: string; init: HttpRequest; at: number }[]
}

/**
 * An in-memory API on the virtual clock: the job is active for `durationMs`, then `final`.
 * `respond` can replace any answer.
 */
function fakeApi(
  clock: { now: () => number },
  final: Record<string, unknown> = { status: 'completed', prLink: PR },
  durationMs = 60_000,
  respond?: (
    url: string,
    init: HttpRequest,
    n: number
  ) => { status: number; body: string } | undefined
): Api {
  const requests: Api['requests'] = []
  const base = {
    id: 'job_main',
    model: 'claude-sonnet-4-5',
    source: { repository: 'https://github.com/acme/docs', ref: null },
    createdAt: '2026-11-22T00:00:00.000Z',
    archivedAt: null,
    prLink: null
  }
  const fetch: Fetch = async (url, init) => {
    requests.push({ url, init, at: clock.now() })
    const custom = respond?.(url, init, requests.length)
    const answer = custom ?? {
      status: init.method === 'POST' ? 201 : 200,
      body: JSON.stringify(
        init.method === 'POST' || clock.now() - EPOCH < durationMs
          ? { ...base, status: 'active' }
          : { ...base, source: { ...base.source, ref: 'mintlify/agent-1' }, ...final }
      )
    }
    return { status: answer.status, headers: { get: () => null }, text: async () => answer.body }
  }
  return { fetch, requests }
}

function clock() {
  let time = EPOCH
  return {
    now: () => time,
    sleep: async (ms: number, signal: AbortSignal) => {
      if (signal.aborted) throw signal.reason
      time += ms
    },
    random: () => 0.5,
    // Not a workflow run: no GITHUB_* variables, so no change is read from GitHub.
    env: {}
  }
}

const inputs = {
  prompt: 'Update the docs',
  'project-id': 'proj_1',
  'api-key': KEY,
  'poll-interval': '5s',
  'max-poll-interval': '30s'
}

beforeEach(() => {
  core.reset()
  Object.assign(core.inputs, inputs)
})

function everythingWritten(): string {
  return [
    ...core.logLines(),
    ...core.failures(),
    ...core.setOutput.mock.calls.map(([, v]) => String(v)),
    ...core.summaries
  ].join('\n')
}

describe('run', () => {
  it('creates the job, waits for it and hands its pull request to later steps', async () => {
    const c = clock()
    const api = fakeApi(c)
    await run({ ...c, fetch: api.fetch })

    expect(core.failures()).toEqual([])
    expect(core.outputs()).toEqual({
      'job-id': 'job_main',
      status: 'completed',
      'pr-link': PR,
      'pr-number': '17',
      model: 'claude-sonnet-4-5',
      'source-repository': 'https://github.com/acme/docs',
      'source-ref': 'mintlify/agent-1',
      'created-at': '2026-11-22T00:00:00.000Z',
      'archived-at': '',
      skipped: 'false',
      'comment-url': '',
      'check-url': '',
      'docs-comment-url': '',
      // Outside a workflow run no docs pull request is read, so no preview is asked for.
      'preview-url': '',
      'preview-status': '',
      // The job completed with a docs pull request; outside a workflow run its checks are not read.
      outcome: 'docs-pr',
      'docs-checks': '',
      job: expect.stringContaining('"status":"completed"') as unknown as string
    })
    expect(JSON.parse(core.outputs().job ?? '')).toMatchObject({ id: 'job_main', prLink: PR })
    expect(core.notice).toHaveBeenCalledWith(expect.stringContaining(PR), {
      title: 'Mintlify agent'
    })
    expect(api.requests[0]?.init.method).toBe('POST')
    expect(api.requests.slice(1).every((r) => r.init.method === 'GET')).toBe(true)
    expect(core.summaries).toHaveLength(1)
    expect(core.summaries[0]).toContain(`<a href="${PR}">acme/docs#17</a>`)
    expect(core.summaries[0]).toContain('<code>job_main</code>')
  })

  it('shows the report on a new surface: one renderer, one line in the list of surfaces', async () => {
    const c = clock()
    const shown: string[] = []
    const toy = surface((report) => {
      const facts = report.facts.filter((fact) => fact.on.summary).map((fact) => fact.on.summary)
      shown.push(`${report.icon} ${report.headline} (${report.check.state}; ${facts.join(', ')})`)
    })
    await run({ ...c, fetch: fakeApi(c).fetch, surfaces: [toy] })

    expect(shown).toEqual([
      '✅ The agent opened a pull request (success; Job ID, Status, Model, Pull request, ' +
        'Source repository, Source ref, Created at, Status comment, Docs check, Duration)'
    ])
    // It is shown beside the Actions report, which still says the same.
    expect(core.summaries[0]).toContain('The agent opened a pull request')
  })

  it('sets job-id as soon as the job exists, before the first poll', async () => {
    const c = clock()
    let jobIdSetBeforePoll = false
    const api = fakeApi(c, undefined, 10_000, (_, init) => {
      if (init.method === 'GET' && !jobIdSetBeforePoll) {
        jobIdSetBeforePoll = core.setOutput.mock.calls.some(
          ([n, v]) => n === 'job-id' && v === 'job_main'
        )
      }
      return undefined
    })
    await run({ ...c, fetch: api.fetch })
    expect(jobIdSetBeforePoll).toBe(true)
  })

  it('succeeds without a pull request when no files changed, and says so plainly', async () => {
    const c = clock()
    await run({ ...c, fetch: fakeApi(c, { status: 'completed' }).fetch })
    expect(core.failures()).toEqual([])
    expect(core.outputs()['pr-link']).toBe('')
    expect(core.outputs()['pr-number']).toBe('')
    expect(core.info).toHaveBeenCalledWith(
      expect.stringContaining('completed without a pull request link')
    )
    // The action cannot know that no files changed: the agent may push to the deploy branch.
    expect(everythingWritten()).not.toMatch(/without changing any files|no files changed/)
  })

  it('fails without a pull request when fail-on-no-pr is true', async () => {
    core.inputs['fail-on-no-pr'] = 'true'
    const c = clock()
    await run({ ...c, fetch: fakeApi(c, { status: 'completed' }).fetch })
    expect(core.failures()).toEqual([
      expect.stringMatching(/job_main completed without a pull request link.*fail-on-no-pr is true/)
    ])
  })

  it('succeeds with a warning when the job was archived', async () => {
    const c = clock()
    await run({
      ...c,
      fetch: fakeApi(c, { status: 'archived', archivedAt: '2026-11-22T00:01:00Z' }).fetch
    })
    expect(core.failures()).toEqual([])
    expect(core.warning).toHaveBeenCalledWith(
      expect.stringContaining('archived before it finished'),
      expect.anything()
    )
    expect(core.outputs()['archived-at']).toBe('2026-11-22T00:01:00Z')
  })

  it('fails, naming the job, when the job failed', async () => {
    const c = clock()
    await run({ ...c, fetch: fakeApi(c, { status: 'failed' }).fetch })
    expect(core.failures()).toHaveLength(1)
    expect(core.failures()).toEqual([expect.stringContaining('Agent job job_main failed')])
    expect(core.outputs().status).toBe('failed')
  })

  it('fails at the timeout with the job id and its last status, saying the job keeps running', async () => {
    core.inputs.timeout = '2m'
    const c = clock()
    await run({ ...c, fetch: fakeApi(c, undefined, Number.POSITIVE_INFINITY).fetch })
    const [message] = core.failures()
    expect(message).toMatch(
      /Timed out: agent job job_main was still active at the last check before the 2m timeout/
    )
    expect(message).toContain('keeps running on the platform')
    expect(core.outputs()).toMatchObject({ 'job-id': 'job_main', status: 'active' })
    // The last look at the job comes 5 s before the deadline.
    expect(c.now() - EPOCH).toBe(115_000)
    expect(core.summaries[0]).toContain('Timed out')
  })

  it('returns right after creating the job with wait: false', async () => {
    core.inputs.wait = 'false'
    const c = clock()
    const api = fakeApi(c)
    await run({ ...c, fetch: api.fetch })
    expect(api.requests).toHaveLength(1)
    expect(core.failures()).toEqual([])
    expect(core.outputs()).toMatchObject({ 'job-id': 'job_main', status: 'active', 'pr-link': '' })
  })

  it('sends no request when an input is wrong', async () => {
    core.inputs.timeout = 'forever'
    const c = clock()
    const api = fakeApi(c)
    await run({ ...c, fetch: api.fetch })
    expect(api.requests).toHaveLength(0)
    expect(core.failures()).toEqual([expect.stringMatching(/^Input "timeout": /)])
  })

  it('on cancellation keeps the job id in outputs, log and summary', async () => {
    const c = clock()
    const controller = new AbortController()
    const api = fakeApi(c, undefined, Number.POSITIVE_INFINITY, (_, init, n) => {
      if (init.method === 'GET' && n === 3) controller.abort()
      return undefined
    })
    await run({ ...c, fetch: api.fetch, signal: controller.signal })
    const [message] = core.failures()
    expect(message).toMatch(/cancelled.*job_main keeps running on the platform/)
    expect(core.outputs()).toMatchObject({ 'job-id': 'job_main', status: 'active' })
    expect(core.summaries[0]).toContain('job_main')
    expect(api.requests.length).toBeLessThanOrEqual(4)
  })

  it('reports the job even when something unexpected breaks after it was created', async () => {
    const c = clock()
    const api = fakeApi(c, undefined, 60_000, (_, init) => {
      if (init.method === 'GET') throw new RangeError('unexpected')
      return undefined
    })
    await run({ ...c, fetch: api.fetch })
    const [message] = core.failures()
    expect(message).toContain('job_main keeps running')
    expect(core.outputs()['job-id']).toBe('job_main')
  })

  it('fails clearly, without polling, when the created job has no id', async () => {
    const c = clock()
    const api = fakeApi(c, undefined, 60_000, (_, init) =>
      init.method === 'POST' ? { status: 201, body: '{"status":"active"}' } : undefined
    )
    await run({ ...c, fetch: api.fetch })
    expect(api.requests).toHaveLength(1)
    expect(core.failures()).toEqual([expect.stringContaining('has no usable job id')])
    expect(core.outputs()).toMatchObject({ 'job-id': '', status: 'active' })
  })

  it('never writes the key, even when the server echoes it', async () => {
    const c = clock()
    const api = fakeApi(c, undefined, 60_000, (_, init) =>
      init.method === 'POST'
        ? { status: 400, body: JSON.stringify({ error: `bad key ${KEY}` }) }
        : undefined
    )
    await run({ ...c, fetch: api.fetch })
    expect(core.failures()).not.toEqual([])
    expect(everythingWritten()).not.toContain(KEY)
    expect(everythingWritten()).toContain('bad key ***')
  })

  it('escapes hostile job fields in the summary and the log', async () => {
    const c = clock()
    const hostile = '<img src=x onerror=alert(1)>\n::warning::injected ##[error]x'
    await run({
      ...c,
      fetch: fakeApi(c, { status: 'completed', model: hostile, prLink: `${PR}\nx<<EOF` }).fetch
    })
    expect(core.summaries[0]).not.toContain('<img')
    expect(core.summaries[0]).toContain('&lt;img')
    expect(core.outputs()['pr-link']).toBe('')
    expect(core.warning).toHaveBeenCalledWith(
      expect.stringContaining('prLink in a form that is not a pull request link'),
      expect.anything()
    )
    for (const line of core.info.mock.calls.flatMap(([m]) => String(m).split('\n'))) {
      expect(line).not.toMatch(/^\s*::/)
      expect(line).not.toContain('##[')
    }
  })

  it('with wait: false, reports a job the create answer already shows as failed', async () => {
    core.inputs.wait = 'false'
    const c = clock()
    const api = fakeApi(c, undefined, 60_000, (_, init) =>
      init.method === 'POST'
        ? { status: 201, body: JSON.stringify({ id: 'job_main', status: 'failed' }) }
        : undefined
    )
    await run({ ...c, fetch: api.fetch })
    expect(api.requests).toHaveLength(1)
    expect(core.failures()).toEqual([expect.stringContaining('job_main failed')])
    expect(everythingWritten()).not.toContain('keeps running')
  })

  it('keeps job-id and what it knows when a later answer leaves fields out', async () => {
    const c = clock()
    const api = fakeApi(c, undefined, 60_000, (_, init, n) =>
      init.method === 'GET' && n === 2 ? { status: 200, body: '{"status":"active"}' } : undefined
    )
    await run({ ...c, fetch: api.fetch })
    expect(core.failures()).toEqual([])
    const ids = core.setOutput.mock.calls.filter(([n]) => n === 'job-id').map(([, v]) => String(v))
    expect(ids.every((id) => id === 'job_main')).toBe(true)
    expect(core.outputs()).toMatchObject({ 'job-id': 'job_main', model: 'claude-sonnet-4-5' })
  })

  it('treats a 200 whose body is an error as a failed check, and checks again', async () => {
    const c = clock()
    const api = fakeApi(c, undefined, 20_000, (_, init, n) =>
      init.method === 'GET' && n === 2
        ? { status: 200, body: '{"error":"job store unavailable"}' }
        : undefined
    )
    await run({ ...c, fetch: api.fetch })
    expect(core.failures()).toEqual([])
    expect(core.outputs()['job-id']).toBe('job_main')
    expect(core.info).toHaveBeenCalledWith(
      expect.stringMatching(/^Checking the job failed \(1 in a row\)/)
    )
  })
})
