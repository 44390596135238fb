import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { plainAddress, refuse, UNKNOWN_PROJECT, type Access } from '../simulator/routes.js'
import { defaultScenario, mergeScenario } from '../simulator/scenario.js'
import { startSimulator, type Simulator, type SimulatorOptions } from '../simulator/server.js'

const KEY = 'mint_simulator_key'
const AUTH = { authorization: `Bearer ${KEY}` }
const START = Date.parse('2030-01-02T03:04:05.000Z')
const CLI = fileURLToPath(new URL('../simulator/cli.js', import.meta.url))
const hasOpenssl = spawnSync('openssl', ['version']).status === 0

let clock = START
let sim: Simulator | undefined

beforeEach(() => {
  clock = START
})

afterEach(async () => {
  await sim?.close()
  sim = undefined
})

async function start(options: SimulatorOptions = {}): Promise<Simulator> {
  sim = await startSimulator({ now: () => clock, ...options })
  return sim
}

function jobPath(project: string, id?: string, suffix = ''): string {
  const base = `/v2/agent/${encodeURIComponent(project)}/job`
  return id === undefined ? base : `${base}/${encodeURIComponent(id)}${suffix}`
}

function post(s: Simulator, path: string, body: unknown, headers = {}): Promise<Response> {
  return fetch(s.url + path, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body)
  })
}

function create(s: Simulator, project = 'proj', prompt = 'Document the --dry-run flag') {
  return post(s, jobPath(project), { prompt })
}

function get(s: Simulator, id: string, project = 'proj'): Promise<Response> {
  return fetch(s.url + jobPath(project, id), { headers: AUTH })
}

async function created(s: Simulator, project = 'proj'): Promise<Record<string, unknown>> {
  const res = await create(s, project)
  expect(res.status).toBe(201)
  return (await res.json()) as Record<string, unknown>
}

async function message(s: Simulator, id: string, prompt = 'Also fix typos', project = 'proj') {
  const res = await post(s, jobPath(project, id, '/message'), { prompt })
  expect(res.status).toBe(200)
  return (await res.json()) as Record<string, unknown>
}

async function readJob(s: Simulator, id: string, project = 'proj') {
  const res = await get(s, id, project)
  expect(res.status).toBe(200)
  return (await res.json()) as Record<string, unknown>
}

/** Sends a request target exactly as written, which fetch would normalise first. */
function rawGet(s: Simulator, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: s.port, path, method: 'GET', headers: AUTH },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      }
    )
    req.on('error', reject)
    req.end()
  })
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe('creating a job', () => {
  it('answers 201 with an active job carrying every field of the contract', async () => {
    const s = await start()
    const res = await create(s)

    expect(res.status).toBe(201)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('x-request-id')).toMatch(/\S/)
    const job = (await res.json()) as Record<string, unknown>
    expect(job).toEqual({
      id: expect.stringMatching(/^job_\w+$/),
      status: 'active',
      source: { repository: 'https://github.com/acme/docs', ref: null },
      model: 'claude-sonnet-4-5',
      prLink: null,
      createdAt: new Date(START).toISOString(),
      archivedAt: null
    })
    expect(s.creates()).toBe(1)
    expect(s.jobs.get(job.id as string)).toMatchObject({
      projectId: 'proj',
      prompts: ['Document the --dry-run flag']
    })
  })

  it('records each request with its raw path, lower-cased headers and body', async () => {
    const s = await start()
    await post(s, '/v2/agent/p%2F1/job', { prompt: 'x' }, { 'X-Custom': 'Yes' })

    expect(s.requests).toEqual([
      {
        method: 'POST',
        path: '/v2/agent/p%2F1/job',
        headers: expect.objectContaining({ authorization: `Bearer ${KEY}`, 'x-custom': 'Yes' }),
        body: '{"prompt":"x"}'
      }
    ])
    expect([...s.jobs.values()][0]?.projectId).toBe('p/1')
  })

  it.each([
    ['invalid JSON', '{"prompt": '],
    ['an empty body', ''],
    ['a JSON array', '["prompt"]'],
    ['JSON null', 'null'],
    ['no prompt', '{"text":"hello"}'],
    ['an empty prompt', '{"prompt":""}'],
    ['a prompt that is not a string', '{"prompt":42}']
  ])('rejects %s with 400 and an error body', async (_what, body) => {
    const s = await start()
    const res = await post(s, jobPath('proj'), body)

    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: expect.stringMatching(/prompt|JSON/) })
    expect(s.creates()).toBe(0)
  })

  it('accepts a JSON body whatever its content type says', async () => {
    const s = await start()
    const res = await post(s, jobPath('proj'), { prompt: 'x' }, { 'content-type': 'text/plain' })
    expect(res.status).toBe(201)
  })
})

describe('authentication', () => {
  it.each([
    ['no Authorization header', {}],
    ['a wrong key', { authorization: 'Bearer mint_wrong' }],
    ['a lower-case scheme', { authorization: `bearer ${KEY}` }],
    ['the key without a scheme', { authorization: KEY }]
  ])('answers 401 with an error body for %s', async (_what, headers: Record<string, string>) => {
    const s = await start()
    const res = await fetch(s.url + jobPath('proj'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ prompt: 'x' })
    })

    expect(res.status).toBe(401)
    expect(res.headers.get('x-request-id')).toMatch(/\S/)
    expect(await res.json()).toEqual({ error: expect.any(String) })
    expect(s.creates()).toBe(0)
  })

  it('accepts the configured key only', async () => {
    const s = await start({ apiKey: 'mint_other' })
    expect((await create(s)).status).toBe(401)
    const res = await post(
      s,
      jobPath('proj'),
      { prompt: 'x' },
      { authorization: 'Bearer mint_other' }
    )
    expect(res.status).toBe(201)
  })
})

describe('reading a job', () => {
  it('stays active until jobDurationMs has passed on the injected clock', async () => {
    const s = await start()
    const { id } = await created(s)

    clock = START + 2999
    expect(await readJob(s, id as string)).toMatchObject({ status: 'active', prLink: null })
    clock = START + 3000
    expect(await readJob(s, id as string)).toEqual({
      id,
      status: 'completed',
      source: { repository: 'https://github.com/acme/docs', ref: 'mintlify/agent-1' },
      model: 'claude-sonnet-4-5',
      prLink: expect.stringMatching(/^https:\/\/github\.com\/acme\/docs\/pull\/\d+$/),
      createdAt: new Date(START).toISOString(),
      archivedAt: null
    })
  })

  it('ends a failed job without a pull request or branch', async () => {
    const s = await start({ scenario: { finalStatus: 'failed', jobDurationMs: 10 } })
    const { id } = await created(s)
    clock += 10
    expect(await readJob(s, id as string)).toMatchObject({
      status: 'failed',
      prLink: null,
      source: { ref: null },
      archivedAt: null
    })
  })

  it('stamps archivedAt with the moment an archived job ended', async () => {
    const s = await start({ scenario: { finalStatus: 'archived', jobDurationMs: 1000 } })
    const { id } = await created(s)
    clock += 5000
    expect(await readJob(s, id as string)).toMatchObject({
      status: 'archived',
      archivedAt: new Date(START + 1000).toISOString()
    })
  })

  it('never ends a job when finalStatus is active', async () => {
    const s = await start({ scenario: { finalStatus: 'active' } })
    const { id } = await created(s)
    clock += 7 * 24 * 3_600_000
    expect(await readJob(s, id as string)).toMatchObject({ status: 'active', prLink: null })
  })

  it('completes without a pull request when prLink is false', async () => {
    const s = await start({ scenario: { prLink: false, jobDurationMs: 0 } })
    const { id } = await created(s)
    expect(await readJob(s, id as string)).toMatchObject({ status: 'completed', prLink: null })
  })

  it('hands out a prLink string verbatim', async () => {
    const hostile = 'javascript:alert(1)\n::set-output name=pr::x %0A'
    const s = await start({ scenario: { prLink: hostile, jobDurationMs: 0 } })
    const { id } = await created(s)
    expect((await readJob(s, id as string)).prLink).toBe(hostile)
  })

  it('lays jobFields over every job response, dropping fields set to undefined', async () => {
    const s = await start({
      scenario: {
        jobFields: { status: 'weird\u001b[31m', extra: { nested: true }, model: undefined }
      }
    })
    const job = await created(s)
    expect(job).toMatchObject({ status: 'weird\u001b[31m', extra: { nested: true } })
    expect(job).not.toHaveProperty('model')
    expect(await readJob(s, job.id as string)).toMatchObject({ extra: { nested: true } })
  })

  it('answers 404 for an unknown job and for a job of another project', async () => {
    const s = await start()
    const { id } = await created(s, 'proj')

    for (const res of [await get(s, 'job_missing'), await get(s, id as string, 'other')]) {
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ error: 'Job not found' })
    }
  })

  it('lets the outcome change while a job runs, through setScenario', async () => {
    const s = await start({ scenario: { finalStatus: 'active' } })
    const { id } = await created(s)
    clock += 60_000
    expect((await readJob(s, id as string)).status).toBe('active')

    s.setScenario({ finalStatus: 'failed' })
    expect((await readJob(s, id as string)).status).toBe('failed')
    s.setScenario({ finalStatus: 'completed' })
    expect((await readJob(s, id as string)).status).toBe('failed')
  })
})

describe('routing', () => {
  it('reaches an id with reserved characters only through its single encoded segment', async () => {
    const odd = 'a/b c?#..'
    const s = await start({ scenario: { jobIds: [odd, '..'] } })
    expect((await created(s)).id).toBe(odd)
    expect((await created(s)).id).toBe('..')

    expect((await readJob(s, odd)).id).toBe(odd)
    expect(s.requests.at(-1)?.path).toBe('/v2/agent/proj/job/a%2Fb%20c%3F%23..')
    expect((await rawGet(s, '/v2/agent/proj/job/a/b%20c%3F%23..')).status).toBe(404)
    expect((await rawGet(s, '/v2/agent/proj/job/a%2Fb%20c?#..')).status).toBe(404)

    // encodeURIComponent leaves `..` alone; only an encoded dot segment reaches the job.
    expect((await rawGet(s, '/v2/agent/proj/job/%2E%2E')).status).toBe(200)
    expect((await rawGet(s, '/v2/agent/proj/job/..')).status).toBe(404)
    expect((await rawGet(s, '/v2/agent/proj/job/x/..')).status).toBe(404)
  })

  it('answers 404 Not found for other paths and 405 for a wrong method', async () => {
    const s = await start()
    for (const path of ['/', '/v1/agent/proj/job', '/v2/agent//job', '/v2/agent/proj/job/x/y']) {
      const res = await fetch(s.url + path, { headers: AUTH })
      expect([path, res.status]).toEqual([path, 404])
      expect(await res.json()).toEqual({ error: 'Not found' })
    }

    const res = await fetch(s.url + jobPath('proj'), { headers: AUTH })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST')
    expect(await res.json()).toEqual({ error: expect.any(String) })
    expect((await fetch(s.url + jobPath('proj', 'x'), { method: 'DELETE' })).status).toBe(405)
  })

  it('gives every response its own x-request-id', async () => {
    const s = await start()
    const responses = [await create(s), await get(s, 'nope'), await fetch(s.url + '/nowhere')]
    const ids = responses.map((res) => res.headers.get('x-request-id'))
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true)
    expect(new Set(ids).size).toBe(3)
  })
})

describe('follow-up messages', () => {
  it('puts a finished job back to work and restarts its duration', async () => {
    const s = await start({ scenario: { jobDurationMs: 1000 } })
    const { id } = await created(s)
    clock += 1000
    const first = await readJob(s, id as string)
    expect(first.status).toBe('completed')

    const res = await post(s, jobPath('proj', id as string, '/message'), {
      prompt: 'Also fix typos'
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ id, status: 'active', prLink: null })
    expect(s.jobs.get(id as string)?.prompts).toEqual([
      'Document the --dry-run flag',
      'Also fix typos'
    ])

    clock += 999
    expect((await readJob(s, id as string)).status).toBe('active')
    clock += 1
    expect(await readJob(s, id as string)).toMatchObject({
      status: 'completed',
      prLink: first.prLink
    })
    expect(s.creates()).toBe(1)
  })

  it('answers 400 for a bad body and 404 for an unknown job or another project', async () => {
    const s = await start()
    const { id } = await created(s)
    const bad = await post(s, jobPath('proj', id as string, '/message'), { prompt: '' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: expect.any(String) })

    const unknown = await post(s, jobPath('proj', 'nope', '/message'), { prompt: 'x' })
    expect(unknown.status).toBe(404)
    const foreign = await post(s, jobPath('other', id as string, '/message'), { prompt: 'x' })
    expect(foreign.status).toBe(404)
    expect(await foreign.json()).toEqual({ error: 'Job not found' })
    const missing = await post(s, jobPath('proj', id as string, '/message'), { text: 'x' })
    expect(missing.status).toBe(400)
    expect(s.jobs.get(id as string)?.prompts).toHaveLength(1)
  })

  it('ends with the same pull request link even when the prLink knob changes', async () => {
    const s = await start({ scenario: { jobDurationMs: 100 } })
    const { id } = await created(s)
    clock += 100
    const first = await readJob(s, id as string)
    expect(first.prLink).toMatch(/\/pull\/\d+$/)

    await message(s, id as string)
    s.setScenario({ prLink: false })
    clock += 100
    expect(await readJob(s, id as string)).toMatchObject({
      status: 'completed',
      prLink: first.prLink,
      source: first.source
    })

    s.setScenario({ prLink: 'https://github.com/acme/docs/pull/999' })
    await message(s, id as string)
    clock += 100
    expect((await readJob(s, id as string)).prLink).toBe(first.prLink)
  })

  it('opens a pull request after a follow-up when the job had none', async () => {
    const s = await start({ scenario: { jobDurationMs: 100, prLink: false } })
    const { id } = await created(s)
    clock += 100
    expect(await readJob(s, id as string)).toMatchObject({ status: 'completed', prLink: null })

    // followUpPrLink decides for follow-ups; prLink still governs new jobs.
    s.setScenario({ followUpPrLink: true })
    await message(s, id as string)
    clock += 100
    const after = await readJob(s, id as string)
    expect(after.prLink).toMatch(/^https:\/\/github\.com\/acme\/docs\/pull\/\d+$/)
    const other = await created(s)
    clock += 100
    expect((await readJob(s, other.id as string)).prLink).toBeNull()
  })

  it('follows prLink for a follow-up while followUpPrLink is null', async () => {
    const s = await start({ scenario: { jobDurationMs: 100, finalStatus: 'failed' } })
    const { id } = await created(s)
    clock += 100
    expect(await readJob(s, id as string)).toMatchObject({ status: 'failed', prLink: null })

    s.setScenario({ finalStatus: 'completed', prLink: 'https://github.com/acme/docs/pull/7' })
    await message(s, id as string)
    clock += 100
    expect(await readJob(s, id as string)).toMatchObject({
      status: 'completed',
      prLink: 'https://github.com/acme/docs/pull/7',
      source: { ref: 'mintlify/agent-1' }
    })
  })

  it('keeps the pull request of a job whose follow-up fails', async () => {
    const s = await start({ scenario: { jobDurationMs: 100 } })
    const { id } = await created(s)
    clock += 100
    const { prLink } = await readJob(s, id as string)
    s.setScenario({ finalStatus: 'failed' })
    await message(s, id as string)
    clock += 100
    expect(await readJob(s, id as string)).toMatchObject({ status: 'failed', prLink })
  })

  it('shows the status from before a message for staleReadsAfterMessage answers', async () => {
    const s = await start({ scenario: { jobDurationMs: 100, staleReadsAfterMessage: 3 } })
    const { id } = await created(s)
    clock += 100
    const before = await readJob(s, id as string)
    expect(before.status).toBe('completed')

    // The message's own answer is the first stale one.
    expect(await message(s, id as string)).toEqual(before)
    expect(await readJob(s, id as string)).toEqual(before)
    expect(await readJob(s, id as string)).toEqual(before)
    expect(await readJob(s, id as string)).toMatchObject({ status: 'active', prLink: null })
    clock += 100
    expect(await readJob(s, id as string)).toMatchObject({
      status: 'completed',
      prLink: before.prLink
    })
  })

  it('counts stale reads per message, and a job still running shows as running', async () => {
    const s = await start({ scenario: { jobDurationMs: 100, staleReadsAfterMessage: 2 } })
    const { id } = await created(s)
    await message(s, id as string)
    expect(await readJob(s, id as string)).toMatchObject({ status: 'active' })
    clock += 100
    expect((await readJob(s, id as string)).status).toBe('completed')

    expect((await message(s, id as string)).status).toBe('completed')
    expect((await readJob(s, id as string)).status).toBe('completed')
    expect((await readJob(s, id as string)).status).toBe('active')
  })

  it('refuses messages with 400 for every job, or for the jobs refuseMessages names', async () => {
    const s = await start({
      scenario: { jobIds: ['job_a', 'job_b'], refuseMessages: ['job_b'], rateLimit: { limit: 3 } }
    })
    await created(s)
    await created(s)
    expect(await message(s, 'job_a')).toMatchObject({ status: 'active' })

    const refused = await post(s, jobPath('proj', 'job_b', '/message'), { prompt: 'x' })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toEqual({ error: expect.stringMatching(/follow-up messages/) })
    expect(s.jobs.get('job_b')?.prompts).toHaveLength(1)

    s.setScenario({ refuseMessages: true })
    expect((await post(s, jobPath('proj', 'job_a', '/message'), { prompt: 'x' })).status).toBe(400)
    s.setScenario({ refuseMessages: false })
    // Refused messages used none of the three slots; two creates and one message did.
    expect((await post(s, jobPath('proj', 'job_b', '/message'), { prompt: 'x' })).status).toBe(429)
  })

  it('records a message whose answer a perform fault hides', async () => {
    const s = await start({
      scenario: { jobIds: ['job_a'], faults: { message: [{ status: 502, perform: true }] } }
    })
    await created(s)
    const res = await post(s, jobPath('proj', 'job_a', '/message'), { prompt: 'lost answer' })
    expect(res.status).toBe(502)
    expect(s.jobs.get('job_a')?.prompts).toEqual(['Document the --dry-run flag', 'lost answer'])
  })

  it('rejects a refuseMessages or staleReadsAfterMessage knob of the wrong shape', async () => {
    await expect(
      startSimulator({ scenario: { refuseMessages: 'yes' as unknown as boolean } })
    ).rejects.toThrow(/refuseMessages/)
    await expect(startSimulator({ scenario: { staleReadsAfterMessage: 1.5 } })).rejects.toThrow(
      /staleReadsAfterMessage/
    )
  })
})

describe('the key and the project, as the API checks them', () => {
  const route = (method: 'GET' | 'POST', projectId = 'proj') =>
    method === 'POST'
      ? { kind: 'create' as const, method, projectId, jobId: null }
      : { kind: 'get' as const, method, projectId, jobId: 'job_1' }
  const caller = { authorization: `Bearer ${KEY}`, address: '127.0.0.1', apiKey: KEY }
  const open: Access = { projects: null, keyScope: 'write', ipAllowlist: null, keyExpired: false }

  it('lets the right key through to any project but the unknown one by default', () => {
    expect(refuse(route('POST'), caller, open)).toBeUndefined()
    expect(refuse(route('POST', 'a/b ?#'), caller, open)).toBeUndefined()
    expect(refuse(route('POST', UNKNOWN_PROJECT), caller, open)).toEqual({
      status: 404,
      error: 'Project not found'
    })
  })

  it('knows only the listed projects when projects is a list', () => {
    const access = { ...open, projects: ['proj_a'] }
    expect(refuse(route('GET', 'proj_a'), caller, access)).toBeUndefined()
    expect(refuse(route('GET', 'proj'), caller, access)?.status).toBe(404)
  })

  it('answers 401 for another key, and for the right key once it has expired', () => {
    expect(
      refuse(route('GET'), { ...caller, authorization: 'Bearer mint_other' }, open)
    ).toMatchObject({
      status: 401,
      error: 'Unauthorized: missing or invalid API key'
    })
    expect(refuse(route('GET'), caller, { ...open, keyExpired: true })).toMatchObject({
      status: 401,
      error: expect.stringContaining('expired')
    })
  })

  it('answers 403 to a POST with a read-only key, and lets its reads through', () => {
    const access: Access = { ...open, keyScope: 'read' }
    expect(refuse(route('POST'), caller, access)).toEqual({
      status: 403,
      error: 'Forbidden: this API key is read-only'
    })
    expect(refuse(route('GET'), caller, access)).toBeUndefined()
  })

  it('answers 403 to an address outside the IP allowlist, IPv4-mapped addresses included', () => {
    const access = { ...open, ipAllowlist: ['203.0.113.7'] }
    expect(refuse(route('GET'), caller, access)).toEqual({
      status: 403,
      error: "Forbidden: requests from 127.0.0.1 are not in this organization's IP allowlist"
    })
    expect(
      refuse(route('GET'), { ...caller, address: '::ffff:203.0.113.7' }, access)
    ).toBeUndefined()
    expect(plainAddress('::ffff:127.0.0.1')).toBe('127.0.0.1')
    expect(plainAddress('::1')).toBe('::1')
  })

  it('checks the key before the project, as an API must not tell strangers which projects exist', () => {
    const stranger = { ...caller, authorization: undefined }
    expect(refuse(route('POST', UNKNOWN_PROJECT), stranger, open)?.status).toBe(401)
  })

  it('takes the knobs through a scenario, and refuses ones of the wrong shape', () => {
    const scenario = mergeScenario(defaultScenario(), {
      projects: ['p'],
      keyScope: 'read',
      ipAllowlist: ['10.0.0.1'],
      keyExpired: true
    })
    expect(scenario).toMatchObject({
      projects: ['p'],
      keyScope: 'read',
      ipAllowlist: ['10.0.0.1'],
      keyExpired: true
    })
    expect(defaultScenario()).toMatchObject(open)
    const bad = (input: object) => () => mergeScenario(defaultScenario(), input)
    expect(bad({ projects: 'p' })).toThrow(/projects must be a list/)
    expect(bad({ keyScope: 'admin' })).toThrow(/keyScope must be write or read/)
    expect(bad({ ipAllowlist: [1] })).toThrow(/ipAllowlist must be a list/)
    expect(bad({ keyExpired: 'yes' })).toThrow(/keyExpired must be true or false/)
  })
})

describe('rate limit', () => {
  it('answers 429 with a Retry-After that counts down with the clock', async () => {
    const s = await start({ scenario: { rateLimit: { limit: 2, windowMs: 60_000 } } })
    await created(s)
    clock += 10_000
    await created(s)

    const limited = await create(s)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('50')
    expect(await limited.json()).toEqual({ error: expect.stringMatching(/^Rate limit exceeded/) })

    clock += 20_000
    expect((await create(s)).headers.get('retry-after')).toBe('30')
    expect((await create(s, 'another-project')).status).toBe(201)
    clock += 30_000
    expect((await create(s)).status).toBe(201)
    expect(s.creates()).toBe(4)
  })

  it('refuses every create at a limit of 0, with a Retry-After of the window', async () => {
    const s = await start({ scenario: { rateLimit: { limit: 0, windowMs: 60_000 } } })
    const limited = await create(s)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('60')
    expect((await create(s)).status).toBe(429)
    expect(s.creates()).toBe(0)
  })

  it('counts follow-up messages against the same budget', async () => {
    const s = await start({ scenario: { rateLimit: { limit: 1, windowMs: 3_600_000 } } })
    const { id } = await created(s)
    const res = await post(s, jobPath('proj', id as string, '/message'), { prompt: 'more' })
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBe(3600)
  })
})

describe('faults', () => {
  it('answers with the exact status, headers and body, then serves normally', async () => {
    const s = await start({
      scenario: {
        faults: {
          create: [{ status: 429, headers: { 'Retry-After': '1' }, body: '{"error":"slow down"}' }],
          get: [
            { status: 502, headers: { 'content-type': 'text/html' }, body: '<h1>Bad gateway</h1>' },
            { status: 307, headers: { location: 'https://evil.example/steal' } },
            { status: 503, headers: { 'x-request-id': 'req_known' } }
          ]
        }
      }
    })

    const limited = await create(s)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('1')
    expect(await limited.text()).toBe('{"error":"slow down"}')
    expect(s.creates()).toBe(0)

    const { id } = await created(s)
    const gateway = await get(s, id as string)
    expect(gateway.status).toBe(502)
    expect(gateway.headers.get('content-type')).toBe('text/html')
    expect(await gateway.text()).toBe('<h1>Bad gateway</h1>')

    const redirect = await fetch(s.url + jobPath('proj', id as string), {
      headers: AUTH,
      redirect: 'manual'
    })
    expect(redirect.status).toBe(307)
    expect(redirect.headers.get('location')).toBe('https://evil.example/steal')

    const unavailable = await get(s, id as string)
    expect(unavailable.status).toBe(503)
    expect(unavailable.headers.get('x-request-id')).toBe('req_known')
    expect(await unavailable.text()).toBe('')

    expect((await get(s, id as string)).status).toBe(200)
  })

  it('resets the connection without answering', async () => {
    const s = await start({ scenario: { faults: { create: [{ action: 'reset' }] } } })
    await expect(create(s)).rejects.toThrow()
    expect(s.requests).toHaveLength(1)
    expect(s.creates()).toBe(0)
    expect((await create(s)).status).toBe(201)
  })

  it('creates the job before a createJob fault hides the answer', async () => {
    const s = await start({
      scenario: {
        jobIds: ['job_lost'],
        faults: {
          create: [
            { action: 'reset', createJob: true },
            { status: 504, createJob: true }
          ]
        }
      }
    })
    await expect(create(s)).rejects.toThrow()
    expect(s.creates()).toBe(1)
    expect(s.jobs.has('job_lost')).toBe(true)
    expect((await readJob(s, 'job_lost')).status).toBe('active')

    expect((await create(s)).status).toBe(504)
    expect(s.creates()).toBe(2)
  })

  it('hangs until close(), which still resolves promptly', async () => {
    const s = await start({ scenario: { faults: { get: [{ action: 'hang' }] } } })
    const outcome = get(s, 'job_x').then(
      () => 'answered',
      () => 'failed'
    )
    await until(() => s.requests.length === 1, 'the hung request to arrive')

    let timer: NodeJS.Timeout | undefined
    const closed = await Promise.race([
      s.close().then(() => 'closed'),
      new Promise((resolve) => (timer = setTimeout(resolve, 3000, 'still open')))
    ])
    clearTimeout(timer)
    expect(closed).toBe('closed')
    expect(await outcome).toBe('failed')
  })

  it('truncates the job JSON of a 200 answer', async () => {
    const s = await start({ scenario: { faults: { get: [{ action: 'truncate' }] } } })
    const { id } = await created(s)
    const res = await get(s, id as string)

    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const text = await res.text()
    expect((): unknown => JSON.parse(text)).toThrow(SyntaxError)
    const whole = JSON.stringify(await readJob(s, id as string))
    expect(text.length).toBeGreaterThan(10)
    expect(whole.startsWith(text)).toBe(true)
  })

  it('takes fault queues added at run time and keeps the caller arrays intact', async () => {
    const s = await start()
    const queue = [{ status: 500 }]
    s.setScenario({ faults: { create: queue } })
    expect((await create(s)).status).toBe(500)
    expect((await create(s)).status).toBe(201)
    expect(queue).toHaveLength(1)
  })
})

describe('flakiness', () => {
  async function statuses(options: SimulatorOptions, reads: number): Promise<number[]> {
    const s = await startSimulator({ now: () => clock, ...options })
    try {
      const res = await create(s)
      expect(res.status).toBe(201)
      const { id } = (await res.json()) as { id: string }
      const seen: number[] = []
      for (let i = 0; i < reads; i += 1) {
        const res = await get(s, id)
        if (res.status === 502) expect(res.headers.get('content-type')).toMatch(/^text\/html/)
        if (res.status === 503) expect(res.headers.get('retry-after')).toBe('1')
        await res.arrayBuffer()
        seen.push(res.status)
      }
      return seen
    } finally {
      await s.close()
    }
  }

  it('fails a reproducible share of job reads with alternating 502 and 503', async () => {
    const first = await statuses({ seed: 7, scenario: { flakiness: 0.5 } }, 30)
    const again = await statuses({ seed: 7, scenario: { flakiness: 0.5 } }, 30)
    const other = await statuses({ seed: 8, scenario: { flakiness: 0.5 } }, 30)

    expect(again).toEqual(first)
    expect(other).not.toEqual(first)
    expect(first).toContain(200)
    const failures = first.filter((status) => status !== 200)
    expect(failures.length).toBeGreaterThan(5)
    expect(failures.filter((_, i) => i % 2 === 0).every((status) => status === 502)).toBe(true)
    expect(failures.filter((_, i) => i % 2 === 1).every((status) => status === 503)).toBe(true)
  })

  it('fails every read at 1 and none at 0, and never touches creates', async () => {
    expect(await statuses({ scenario: { flakiness: 1 } }, 4)).toEqual([502, 503, 502, 503])
    expect(await statuses({ scenario: { flakiness: 0 } }, 4)).toEqual([200, 200, 200, 200])
  })
})

describe('options', () => {
  it('logs one line per request, with the size of a prompt it was sent', async () => {
    const lines: string[] = []
    const s = await start({
      log: (line) => lines.push(line),
      scenario: { jobIds: ['job_1'] }
    })
    await create(s, 'proj', 'x'.repeat(1234))
    await get(s, 'missing')
    await post(s, jobPath('proj', 'job_1', '/message'), { prompt: 'Also the changelog' })
    s.setScenario({ faults: { message: [{ action: 'reset' }] } })
    await expect(post(s, jobPath('proj', 'job_1', '/message'), { prompt: 'é' })).rejects.toThrow()
    await post(s, jobPath('proj'), '{"prompt": 42}')
    await post(s, jobPath('proj'), 'not json')
    expect(lines).toEqual([
      expect.stringMatching(/^POST \/v2\/agent\/proj\/job 201 \d+ms prompt 1234 chars$/),
      expect.stringMatching(/^GET \/v2\/agent\/proj\/job\/missing 404 \d+ms$/),
      expect.stringMatching(
        /^POST \/v2\/agent\/proj\/job\/job_1\/message 200 \d+ms prompt 18 chars$/
      ),
      'POST /v2/agent/proj/job/job_1/message reset prompt 1 chars',
      expect.stringMatching(/^POST \/v2\/agent\/proj\/job 400 \d+ms$/),
      expect.stringMatching(/^POST \/v2\/agent\/proj\/job 400 \d+ms$/)
    ])
  })

  it('rejects a scenario knob out of range', async () => {
    await expect(startSimulator({ scenario: { flakiness: 2 } })).rejects.toThrow(/flakiness/)
    const s = await start()
    expect(() => s.setScenario({ finalStatus: 'done' as 'active' })).toThrow(/finalStatus/)
  })
})

// Making a certificate needs openssl; without it there is nothing to serve HTTPS with.
const describeWithOpenssl = hasOpenssl ? describe : describe.skip

describeWithOpenssl('TLS (needs openssl to make a certificate)', () => {
  it('serves HTTPS when given a key and certificate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'simulator-tls-'))
    try {
      const keyFile = join(dir, 'key.pem')
      const certFile = join(dir, 'cert.pem')
      execFileSync(
        'openssl',
        ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
          .concat(['-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=127.0.0.1'])
          .concat(['-addext', 'subjectAltName=IP:127.0.0.1']),
        { stdio: 'ignore' }
      )
      const cert = readFileSync(certFile, 'utf8')
      const s = await start({ tls: { key: readFileSync(keyFile, 'utf8'), cert } })
      expect(s.url).toBe(`https://127.0.0.1:${s.port}`)

      const status = await new Promise<number>((resolve, reject) => {
        const req = httpsRequest(
          `${s.url}/v2/agent/proj/job`,
          { method: 'POST', ca: cert, headers: { ...AUTH, 'content-type': 'application/json' } },
          (res) => {
            res.resume()
            resolve(res.statusCode ?? 0)
          }
        )
        req.on('error', reject)
        req.end('{"prompt":"x"}')
      })
      expect(status).toBe(201)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('command line', () => {
  let child: ChildProcess | undefined

  afterEach(() => {
    child?.kill('SIGKILL')
    child = undefined
  })

  it('prints its url with --port 0, logs requests and stops on SIGTERM', async () => {
    const proc = spawn(process.execPath, [CLI, '--port', '0', '--duration', '1s'])
    child = proc
    let out = ''
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
    const exited = new Promise<[number | null, string | null]>((resolve) =>
      proc.on('exit', (code, signal) => resolve([code, signal]))
    )

    await until(() => /GitHub REST API/.test(out), 'the listening lines')
    const match = /^Mintlify agent API simulator listening on (\S+) \(API key: (\S+)\)$/m.exec(out)
    expect(match?.[1]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(match?.[2]).toBe(KEY)
    const url = match?.[1] ?? ''
    const res = await fetch(`${url}/v2/agent/proj/job`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify({ prompt: 'x' })
    })
    expect(res.status).toBe(201)
    await until(() => out.includes('POST /v2/agent/proj/job 201'), 'the request log line')

    expect(out).toContain(`GitHub REST API on the same origin: GITHUB_API_URL=${url} (any token)`)
    const github = await fetch(`${url}/repos/o/r/pulls/1/files`, {
      headers: { authorization: 'token x' }
    })
    expect(github.status).toBe(200)

    proc.kill('SIGTERM')
    expect(await exited).toEqual([0, null])
  })

  it('takes the follow-up and GitHub flags', async () => {
    const proc = spawn(process.execPath, [
      CLI,
      ...['--port', '0', '--duration', '0', '--stale-reads', '1', '--refuse-messages'],
      ...['--github-token', 'ghs_only']
    ])
    child = proc
    let out = ''
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
    await until(() => /GitHub REST API/.test(out), 'the listening lines')
    const url = /GITHUB_API_URL=(\S+)/.exec(out)?.[1] ?? ''
    expect(out).toContain('(token given by --github-token)')

    const files = (authorization: string) =>
      fetch(`${url}/repos/o/r/pulls/1/files`, { headers: { authorization } })
    expect((await files('token other')).status).toBe(401)
    expect((await files('Bearer ghs_only')).status).toBe(200)

    const job = (await (
      await fetch(`${url}/v2/agent/proj/job`, {
        method: 'POST',
        headers: AUTH,
        body: JSON.stringify({ prompt: 'x' })
      })
    ).json()) as { id: string }
    const refused = await fetch(`${url}/v2/agent/proj/job/${job.id}/message`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify({ prompt: 'y' })
    })
    expect(refused.status).toBe(400)
  })

  it('hands out the ids --job-id gives, in order, whatever characters they hold', async () => {
    const proc = spawn(process.execPath, [
      CLI,
      ...['--port', '0', '--job-id', 'velit in', '--job-id', 'a -->/b']
    ])
    child = proc
    let out = ''
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
    await until(() => /GitHub REST API/.test(out), 'the listening lines')
    const url = /GITHUB_API_URL=(\S+)/.exec(out)?.[1] ?? ''
    const create = async () =>
      (
        (await (
          await fetch(`${url}/v2/agent/proj/job`, {
            method: 'POST',
            headers: AUTH,
            body: JSON.stringify({ prompt: 'x' })
          })
        ).json()) as { id: string }
      ).id
    expect([await create(), await create()]).toEqual(['velit in', 'a -->/b'])
    expect(await create()).toMatch(/^job_[0-9a-f]{20}$/)
    const read = await fetch(`${url}/v2/agent/proj/job/${encodeURIComponent('a -->/b')}`, {
      headers: AUTH
    })
    expect(((await read.json()) as { id: string }).id).toBe('a -->/b')
  })

  it.each([
    ['--job-id', ''],
    ['--status', 'done'],
    ['--stale-reads', 'many'],
    ['--github-token', ''],
    ['--projects', ' , '],
    ['--ip-allowlist', '']
  ])('exits 2 with a one-line error on a bad flag: %s %j', (flag, value) => {
    const result = spawnSync(process.execPath, [CLI, flag, value], { encoding: 'utf8' })
    expect(result.status).toBe(2)
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining(flag)])
    expect(result.stdout).toBe('')
  })

  it('documents how to play each refusal of the API in --help', () => {
    const result = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' })
    expect(result.status).toBe(0)
    for (const flag of ['--expired-key', '--read-only-key', '--ip-allowlist', '--projects']) {
      expect(result.stdout).toContain(`  ${flag} `)
    }
    expect(result.stdout).toMatch(/401 .*--expired-key/)
    expect(result.stdout).toMatch(/403 .*--read-only-key.*--ip-allowlist/)
    expect(result.stdout).toContain(`404  run it with project-id ${UNKNOWN_PROJECT}`)
    expect(result.stdout).toContain('429  --rate-limit 0')
  })
})
