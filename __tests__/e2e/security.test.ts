import { afterEach, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import {
  commandLines,
  KEY,
  QUICK,
  ROOT,
  runAction,
  simulators,
  startConnectProxy,
  type Proxy,
  warpTime,
  WITHOUT_GITHUB
} from './harness.js'

warpTime(WITHOUT_GITHUB)

// These runs write no commit status, so their jobs may end at create (see `quickScenario`).
const sims = simulators({ endedAtCreate: true })
const proxies: Proxy[] = []
afterEach(async () => {
  await sims.closeAll()
  await Promise.all(proxies.splice(0).map((p) => p.close()))
})

const TLS = join(ROOT, '__fixtures__', 'tls')
const HOSTILE = 'oops\n::warning::x\n::stop-commands::pwned\n%0A::error::y ##[error]z'

/** The workflow commands the action itself writes; anything else in the log was injected. */
const OWN_COMMAND =
  /^::(add-mask|debug|notice title=Mintlify agent|warning title=Mintlify agent|error title=Mintlify agent)::/

describe('the API key', () => {
  it('never appears in the log, outputs or summary, even when the server echoes it', async () => {
    const sim = await sims.start({
      finalStatus: 'completed',
      jobFields: { model: `model-${KEY}`, note: KEY },
      faults: {
        get: [{ status: 500, body: JSON.stringify({ error: `bad token Bearer ${KEY}` }) }]
      }
    })
    const run = await runAction({ ...QUICK, 'base-url': sim.url }, { env: { RUNNER_DEBUG: '1' } })
    expect(run.code).toBe(0)
    const logLines = `${run.stdout}\n${run.stderr}`.split('\n').filter((l) => l.includes(KEY))
    expect(logLines).toEqual([`::add-mask::${KEY}`])
    expect(JSON.stringify(run.outputs)).not.toContain(KEY)
    expect(run.summary).not.toContain(KEY)
    expect(run.outputs.model).toBe('model-***')
    expect(run.stdout).toContain('bad token Bearer ***')
  })

  it('is rejected when it holds whitespace, before any request, without echoing it', async () => {
    const sim = await sims.start()
    const run = await runAction({ ...QUICK, 'api-key': 'mint_abc def', 'base-url': sim.url })
    expect(run.code).toBe(1)
    expect(sim.requests).toHaveLength(0)
    expect(run.stdout).toContain(
      '::error title=Mintlify agent::Input "api-key": contains whitespace, control or non-ASCII characters'
    )
    expect(run.stdout.replace(/::add-mask::.*/, '')).not.toContain('abc def')
  })

  it('only warns when it does not start with mint_', async () => {
    const sim = await sims.start({}, { apiKey: 'other_key' })
    const run = await runAction({ ...QUICK, 'api-key': 'other_key', 'base-url': sim.url })
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(
      /::warning title=Mintlify agent::The api-key does not start with "mint_".*api-keys/
    )
  })
})

describe('untrusted text stays text', () => {
  it('defuses workflow commands in error bodies', async () => {
    const sim = await sims.start({
      faults: {
        get: [
          { status: 502, body: JSON.stringify({ error: HOSTILE }) },
          { status: 503, body: HOSTILE }
        ]
      }
    })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(0)
    expect(commandLines(run.stdout).filter((l) => !OWN_COMMAND.test(l))).toEqual([])
    expect(run.stdout).not.toContain('##[')
    expect(run.stdout).toContain('oops\\n::warning::x')
  })

  it('defuses workflow commands in job fields, the final error and the summary', async () => {
    // Waits 10 s, the shortest timeout: a status the action does not know counts as running, so
    // only the timeout ends the run, and its error is among the texts under test.
    const sim = await sims.start({
      finalStatus: 'failed',
      jobFields: { status: HOSTILE, model: `<script>alert(1)</script>${HOSTILE}` }
    })
    const run = await runAction({ ...QUICK, 'base-url': sim.url, timeout: '10s' })
    expect(run.code).toBe(1)
    expect(commandLines(run.stdout).filter((l) => !OWN_COMMAND.test(l))).toEqual([])
    expect(run.stdout).not.toContain('##[')
    expect(run.summary).not.toContain('<script>')
    expect(run.summary).toContain('&lt;script&gt;')
  })

  it('leaves pr-link empty, with a warning, when it is not a plain URL, and adds no output', async () => {
    const sim = await sims.start({
      finalStatus: 'completed',
      prLink: 'https://github.com/acme/docs/pull/5\ninjected<<EOF\nowned\nEOF'
    })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(0)
    expect(run.outputs['pr-link']).toBe('')
    expect(run.outputs['pr-number']).toBe('')
    expect(run.outputs).not.toHaveProperty('injected')
    expect(run.outputNames).not.toContain('injected')
    expect(run.stdout).toContain('prLink in a form that is not a pull request link')
    expect(run.stdout).not.toContain('injected')
  })
})

/** `text` as a regular expression that matches it literally. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

describe('paths', () => {
  it('sends the project id and a given job id as single encoded segments', async () => {
    const projectId = 'team/docs ..?#1'
    const jobId = '../job_1/..?x=1#frag'
    const sim = await sims.start({ jobIds: [jobId] })
    // The job exists (an earlier step started it); this step attaches to it by its id.
    await fetch(`${sim.url}/v2/agent/${encodeURIComponent(projectId)}/job`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ prompt: 'Document the deploy command' })
    })
    sim.requests.length = 0
    const run = await runAction({
      ...QUICK,
      'project-id': projectId,
      'job-id': jobId,
      'base-url': sim.url
    })
    expect(run.code).toBe(0)
    // Published encoded, as the job-id input takes it back.
    expect(run.outputs['job-id']).toBe('..%2Fjob_1%2F..%3Fx%3D1%23frag')
    const project = encodeURIComponent(projectId)
    const polls = sim.requests
    expect(polls.length).toBeGreaterThan(0)
    for (const poll of polls) {
      // A given job id with a prompt is sent the prompt as a follow-up message, then read.
      expect(poll.path).toMatch(
        new RegExp(
          `^/v2/agent/${escape(project)}/job/${escape(encodeURIComponent(jobId))}(/message)?$`
        )
      )
    }
  })

  it('follows a job whose id reads like a path, a query and a fragment as one path segment', async () => {
    // Ids are the platform's opaque strings: this one can neither climb the path nor add a query.
    const id = '../job 1/..?x=1#frag'
    // A job that runs a little, so that it is read by its id.
    const sim = await sims.start({ jobIds: [id], jobDurationMs: 100 })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(0)
    const reads = sim.requests.filter((r) => r.method === 'GET').map((r) => r.path)
    expect(reads.length).toBeGreaterThan(0)
    expect(new Set(reads)).toEqual(
      new Set(['/v2/agent/proj_e2e/job/..%2Fjob%201%2F..%3Fx%3D1%23frag'])
    )
    expect(run.outputs['job-id']).toBe('..%2Fjob%201%2F..%3Fx%3D1%23frag')
    expect(run.outputs.status).toBe('completed')
  })

  it('follows no job whose id cannot be one: one error, nothing sent with it', async () => {
    const sim = await sims.start({ jobIds: ['..'] })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('no usable job id')
    expect(sim.requests).toHaveLength(1)
    expect(run.outputs['job-id'] ?? '').toBe('')
  })

  it('keeps a path in base-url as a prefix', async () => {
    const sim = await sims.start()
    const run = await runAction({
      ...QUICK,
      'base-url': `${sim.url}/gateway/mintlify/`,
      wait: 'false'
    })
    expect(sim.requests[0]?.path).toBe('/gateway/mintlify/v2/agent/proj_e2e/job')
    // The simulator serves no such prefix, so it answers 404: what matters is the path it saw.
    expect(run.stdout).toContain('HTTP 404')
  })
})

/** An HTTPS simulator with a certificate from the test CA, reachable through a CONNECT proxy. */
async function httpsBehindProxy() {
  const tls = {
    key: readFileSync(join(TLS, 'server.key'), 'utf8'),
    cert: readFileSync(join(TLS, 'server.pem'), 'utf8')
  }
  const sim = await sims.start({}, { tls })
  const proxy = await startConnectProxy(sim.port)
  proxies.push(proxy)
  return { sim, proxy }
}

describe('origin', () => {
  it('does not follow a redirect: the other server receives nothing, the error names it', async () => {
    const received: IncomingMessage[] = []
    const other = createServer((req, res) => {
      received.push(req)
      res.end('{}')
    })
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
    const location = `http://127.0.0.1:${(other.address() as AddressInfo).port}/steal`
    try {
      const sim = await sims.start({
        faults: { create: [{ status: 307, headers: { Location: location } }] }
      })
      const run = await runAction({ ...QUICK, 'base-url': sim.url })
      expect(run.code).toBe(1)
      expect(received).toHaveLength(0)
      expect(run.stdout).toContain(`HTTP 307) to ${location}`)
      expect(sim.requests).toHaveLength(1)
    } finally {
      other.closeAllConnections()
      await new Promise<void>((resolve) => other.close(() => resolve()))
    }
  })

  it('reaches an HTTPS API through the CONNECT proxy in HTTPS_PROXY, trusting NODE_EXTRA_CA_CERTS', async () => {
    const { sim, proxy } = await httpsBehindProxy()
    const run = await runAction(
      { ...QUICK, 'base-url': `https://api.mintlify.test:${sim.port}` },
      { env: { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: join(TLS, 'ca.pem') } }
    )
    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    expect(proxy.tunnels.length).toBeGreaterThan(0)
    expect(proxy.tunnels.every((t) => t === `api.mintlify.test:${sim.port}`)).toBe(true)
    expect(sim.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`)
  })

  it('fails fast with advice when the certificate is not trusted', async () => {
    const { sim, proxy } = await httpsBehindProxy()
    const run = await runAction(
      { ...QUICK, 'base-url': `https://api.mintlify.test:${sim.port}` },
      { env: { HTTPS_PROXY: proxy.url } }
    )
    expect(run.code).toBe(1)
    expect(proxy.tunnels).toHaveLength(1)
    expect(sim.requests).toHaveLength(0)
    expect(run.stdout).toContain('NODE_EXTRA_CA_CERTS')
  })

  it('never sends traffic for this machine through the proxy', async () => {
    const sim = await sims.start()
    const proxy = await startConnectProxy(sim.port)
    proxies.push(proxy)
    const run = await runAction(
      { ...QUICK, 'base-url': sim.url.replace('127.0.0.1', 'localhost') },
      { env: { HTTP_PROXY: proxy.url } }
    )
    expect(run.code).toBe(0)
    expect(proxy.tunnels).toHaveLength(0)
  })
})

describe('inputs are checked before any request', () => {
  it.each<[string, Record<string, string>, RegExp]>([
    ['an empty prompt', { prompt: '' }, /Input "prompt": is required/],
    ['a blank prompt', { prompt: ' \n ' }, /Input "prompt": is required/],
    [
      'both prompt and prompt-file',
      { 'prompt-file': 'x.md' },
      /Input "prompt-file": cannot be used together with prompt/
    ],
    [
      'an unreadable prompt file',
      { prompt: '', 'prompt-file': 'missing.md' },
      /Input "prompt-file": cannot read "missing.md"/
    ],
    ['no project id', { 'project-id': '' }, /Input "project-id": is required/],
    ['no key', { 'api-key': '' }, /Input "api-key": is required/],
    [
      'a malformed duration',
      { timeout: '10 minutes' },
      /Input "timeout": "10 minutes" is not a duration/
    ],
    ['a zero interval', { 'poll-interval': '0' }, /Input "poll-interval": must be at least 1s/],
    [
      'a negative interval',
      { 'max-poll-interval': '-1s' },
      /Input "max-poll-interval": "-1s" is not a duration/
    ],
    [
      'max below poll',
      { 'poll-interval': '1m', 'max-poll-interval': '30s' },
      /Input "max-poll-interval": must be at least poll-interval/
    ],
    ['a bad boolean', { wait: 'yes' }, /Input "wait": "yes" is not a boolean; use true or false/],
    [
      'a malformed base-url',
      { 'base-url': 'not a url' },
      /Input "base-url": "not a url" is not an absolute URL/
    ],
    [
      'a plain-http base-url',
      { 'base-url': 'http://api.mintlify.com' },
      /Input "base-url": must use https:\/\//
    ]
  ])('%s', async (_, inputs, message) => {
    const sim = await sims.start()
    const run = await runAction({ ...QUICK, 'base-url': sim.url, ...inputs })
    expect(run.code).toBe(1)
    expect(sim.requests).toHaveLength(0)
    expect(run.stdout).toMatch(new RegExp(`::error title=Mintlify agent::${message.source}`))
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/\n\s+at .*\.js:\d+/)
  })
})
