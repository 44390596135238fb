// The built action against servers, proxies and inputs that try to break its promises: the key is
// never printed (not even in part), what is known is never erased, a request that never left is
// never called "may or may not have been created", and the job summary shows only what the action
// wrote.
import { afterEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { now, QUICK, ROOT, runAction, simulators, warpTime, warpTimeIn } from './harness.js'

// Each run waits for its job's first check (a second), and some for retries: on a clock ten times
// as fast as real time, since what these tests prove is what the action sends and says. These runs
// have no GitHub budgets to keep real time for; the last look before a deadline has its own pace.
warpTime(10)

// These runs write no commit status, so their jobs may end at create (see `quickScenario`).
const sims = simulators({ endedAtCreate: true })
const closers: (() => void)[] = []
afterEach(async () => {
  await sims.closeAll()
  for (const close of closers.splice(0)) close()
})

const LONG_KEY = `mint_${'a1b2c3d4e5'.repeat(6)}`

/** Everything a run wrote where a person or a later step could read it, less the mask command. */
function written(run: Awaited<ReturnType<typeof runAction>>): string {
  return [run.stdout.replace(/^::add-mask::.*$/m, ''), run.stderr, run.summary]
    .concat(Object.values(run.outputs))
    .join('\n')
}

describe('no part of the key survives a cut', () => {
  it.each<[string, Parameters<typeof sims.start>[0], Record<string, string>]>([
    [
      'an error body',
      {
        faults: {
          get: [{ status: 500, body: JSON.stringify({ error: 'e'.repeat(270) + LONG_KEY }) }]
        }
      },
      {}
    ],
    [
      'the x-request-id header',
      {
        faults: { get: [{ status: 502, headers: { 'x-request-id': 'r'.repeat(80) + LONG_KEY } }] }
      },
      {}
    ],
    ['a model name', { jobFields: { model: 'm'.repeat(50) + LONG_KEY } }, {}],
    ['a job id', { jobIds: ['j'.repeat(90) + LONG_KEY] }, { wait: 'false' }]
  ])('echoed in %s', async (_, scenario, inputs) => {
    const sim = await sims.start(scenario, { apiKey: LONG_KEY })
    const run = await runAction(
      { ...QUICK, 'api-key': LONG_KEY, 'base-url': sim.url, ...inputs },
      { env: { RUNNER_DEBUG: '1' } }
    )
    expect(sim.requests.length).toBeGreaterThan(0)
    expect(written(run)).not.toContain(LONG_KEY.slice(0, 8))
  })

  it('echoed into another input, such as base-url', async () => {
    const sim = await sims.start()
    const run = await runAction({ ...QUICK, 'api-key': LONG_KEY, 'base-url': LONG_KEY })
    expect(run.code).toBe(1)
    expect(sim.requests).toHaveLength(0)
    expect(run.stdout).toContain(
      '::error title=Mintlify agent::Input "base-url": "***" is not an absolute URL'
    )
    expect(written(run)).not.toContain(LONG_KEY.slice(0, 8))
  })
})

describe('a later answer never erases what is known', () => {
  it('keeps job-id and the fields the last answer leaves out', async () => {
    // The job has ended by the first check, whose answer has only a status.
    const sim = await sims.start({
      jobDurationMs: 0,
      faults: { get: [{ status: 200, body: '{"status":"completed"}' }] }
    })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(0)
    const [jobId] = [...sim.jobs.keys()]
    expect(run.outputs['job-id']).toBe(jobId)
    expect(run.outputs.status).toBe('completed')
    expect(run.outputs.model).toBe('claude-sonnet-4-5')
    expect(run.stdout).not.toMatch(/Agent job {2}|job ""/)
  })

  it('treats a 200 whose body is an error as a failed check, and checks again', async () => {
    const sim = await sims.start({
      faults: { get: [{ status: 200, body: '{"error":"job store unavailable"}' }] }
    })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/Checking the job failed \(1 in a row\).*not a job/)
    expect(run.outputs.status).toBe('completed')
  })
})

describe('one last look before the deadline', () => {
  // Real time: the last look is made half a second before the 10 s deadline, and its request
  // must be answered in that on a machine `SLOWER` times slower than a quiet one (tens of
  // milliseconds there); any faster clock would shrink that half second.
  warpTimeIn(1)

  it('sees a job that ended in the last interval, even with poll-interval longer than timeout', async () => {
    // Waits about 9.5 s: the one check is the last look, made just before the shortest timeout.
    const sim = await sims.start({ jobDurationMs: 500 })
    const run = await runAction({
      ...QUICK,
      'base-url': sim.url,
      timeout: '10s',
      'poll-interval': '20s',
      'max-poll-interval': '20s'
    })
    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    expect(run.outputs['pr-link']).toMatch(/^https:\/\//)
    expect(sim.requests.filter((r) => r.method === 'GET')).toHaveLength(1)
  })
})

/** A TCP server that answers the first bytes it gets with `reply`, as a misconfigured proxy might. */
async function rawServer(reply: string, onConnection = () => {}): Promise<number> {
  const sockets = new Set<Socket>()
  const server = createTcpServer((socket) => {
    onConnection()
    sockets.add(socket)
    socket.on('error', () => undefined)
    socket.once('data', () => socket.end(reply))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => {
    for (const socket of sockets) socket.destroy()
    server.close()
  })
  return (server.address() as AddressInfo).port
}

describe('a request that never left is never "may or may not have been created"', () => {
  it('TLS to a plain-HTTP port', async () => {
    const sim = await sims.start()
    const run = await runAction({ ...QUICK, 'base-url': `https://127.0.0.1:${sim.port}` })
    expect(run.code).toBe(1)
    expect(sim.creates()).toBe(0)
    expect(run.stdout).toContain('TLS handshake failed before anything was sent')
    expect(run.stdout).not.toContain('may or may not')
  })

  it('a proxy that asks for credentials', async () => {
    const port = await rawServer('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n')
    const run = await runAction(
      { ...QUICK, 'base-url': 'https://api.mintlify.test' },
      { env: { HTTPS_PROXY: `http://127.0.0.1:${port}` } }
    )
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('put them in the proxy URL')
    expect(run.stdout).not.toContain('may or may not')
  })

  it.each([
    ['a smart quote', 'mint_abc\u201d'],
    ['a zero-width space', 'mint_a\u200bbc']
  ])('a key with %s is an input error, before any request', async (_, key) => {
    const sim = await sims.start()
    const run = await runAction({ ...QUICK, 'api-key': key, 'base-url': sim.url })
    expect(run.code).toBe(1)
    expect(sim.requests).toHaveLength(0)
    expect(run.stdout).toContain(
      '::error title=Mintlify agent::Input "api-key": contains whitespace, control or non-ASCII'
    )
  })
})

describe('the job summary shows only what the action wrote', () => {
  it('server text with blank lines, links and images stays text', async () => {
    // Waits 10 s, the shortest timeout: the status is not one the action knows, so it counts as
    // running and only the timeout ends the run.
    const sim = await sims.start({
      finalStatus: 'failed',
      jobFields: {
        model: 'x\n\n[click](https://evil.example) ![](https://evil.example/i.png) @octocat',
        status: 'failed\n\n# Heading'
      }
    })
    const run = await runAction({ ...QUICK, 'base-url': sim.url, timeout: '10s' })
    expect(run.summary).not.toMatch(/\n\s*\n/)
    expect(run.summary).not.toMatch(/\]\(|!\[|https:\/\/evil|@octocat|^#/m)
  })
})

describe('pr-link and pr-number', () => {
  it('refuses a link with credentials and never prints them', async () => {
    const sim = await sims.start({ prLink: 'https://user:hunter2@github.com/acme/docs/pull/5' })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(0)
    expect(run.outputs['pr-link']).toBe('')
    expect(written(run)).not.toContain('hunter2')
    // The refusal names the field and the shape, never the link.
    expect(run.stdout).toContain('prLink in a form that is not a pull request link')
    expect(run.stdout).not.toContain('@github.com/acme/docs/pull/5')
  })

  it('takes no link that is not a pull request address, whatever its path or query say', async () => {
    const link = 'https://github.com/acme/docs/issues/3?next=/pull/77'
    const sim = await sims.start({ prLink: link })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.outputs['pr-link']).toBe('')
    expect(run.outputs['pr-number']).toBe('')
    expect(written(run)).not.toContain(link)
  })

  it('hands on nothing HTML or a shell would trip on: a link with a query is no pull request address', async () => {
    const sim = await sims.start({ prLink: 'https://github.com/acme/docs/pull/5?x="<b>"' })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.outputs['pr-link']).toBe('')
    expect(run.outputs['pr-number']).toBe('')
    expect(written(run)).not.toContain('<b>')
  })
})

describe('smaller classes', () => {
  it('wait: false reports the status the create answer already gave', async () => {
    const sim = await sims.start({ jobFields: { status: 'failed' } })
    const run = await runAction({ ...QUICK, 'base-url': sim.url, wait: 'false' })
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/::error title=Mintlify agent::Agent job .* failed/)
    expect(run.stdout).not.toContain('keeps running')
  })

  it('a 429 while checking does not use the wording of a create', async () => {
    const sim = await sims.start({
      faults: { get: [{ status: 429, headers: { 'retry-after': '0' } }] }
    })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Rate limited while checking the job')
    expect(run.stdout).not.toMatch(/100 agent jobs|try again after/i)
  })

  it('a certificate for another name gets advice that can fix it', async () => {
    const { readFileSync } = await import('node:fs')
    const tls = join(ROOT, '__fixtures__', 'tls')
    const sim = await sims.start(
      {},
      {
        tls: {
          key: readFileSync(join(tls, 'server.key'), 'utf8'),
          cert: readFileSync(join(tls, 'server.pem'), 'utf8')
        }
      }
    )
    const run = await runAction(
      { ...QUICK, 'base-url': `https://localhost:${sim.port}` },
      { env: { NODE_EXTRA_CA_CERTS: join(tls, 'ca.pem') } }
    )
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('not for this host name')
    expect(run.stdout).not.toContain('point NODE_EXTRA_CA_CERTS')
  })

  it('names HTTPS_PROXY when it is not a URL, before any request', async () => {
    const run = await runAction(
      { ...QUICK, 'base-url': 'https://api.mintlify.test' },
      { env: { HTTPS_PROXY: 'http://user:hunter2@[bad' } }
    )
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(
      '::error title=Mintlify agent::The environment variable HTTPS_PROXY is not a proxy URL'
    )
    expect(run.stdout).not.toContain('hunter2')
  })

  it('never sends plain http for a *.localhost name through a proxy', async () => {
    let connections = 0
    const proxy = await rawServer('HTTP/1.1 502 Bad Gateway\r\n\r\n', () => connections++)
    const run = await runAction(
      { ...QUICK, 'base-url': 'http://api.localhost:8089', timeout: '10s' },
      { env: { HTTP_PROXY: `http://127.0.0.1:${proxy}` } }
    )
    expect(run.code).toBe(1)
    expect(connections).toBe(0)
  })

  it('refuses a FIFO as prompt-file at once instead of blocking', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'fifo-'))
    execFileSync('mkfifo', [join(workspace, 'prompt')])
    const sim = await sims.start()
    const run = await runAction(
      { ...QUICK, prompt: '', 'prompt-file': 'prompt', 'base-url': sim.url },
      { cwd: workspace }
    )
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('not a regular file')
    expect(sim.requests).toHaveLength(0)
  })

  it('reads no answer over the cap, and writes no summary over GitHub’s limit', async () => {
    const sim = await sims.start({
      jobFields: { model: 'm'.repeat(900_000) },
      faults: { get: [{ status: 200, body: `{"status":"${'x'.repeat(2_000_000)}"}` }] }
    })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('larger than 1048576 bytes')
    expect(run.summary.length).toBeLessThan(20_000)
    expect(run.outputs.model?.length).toBeLessThan(5_000)
    expect(run.outputs.job?.length).toBeLessThanOrEqual(65_536)
  })
})

describe('a Retry-After date', () => {
  // Real time: what is said is how far the date is from when the answer is read.
  warpTimeIn(1)

  it('reads Retry-After in the obsolete RFC 850 date form', async () => {
    // A date is read against the action's clock, which runs on while the step starts. Above an
    // hour a wait is said in hours and minutes, so a date an hour and 59 s away reads "1h" for any
    // start under 58 s (the form has no milliseconds): on real time (`warpTimeIn(1)`), far more
    // than a run takes to send its create on a machine `SLOWER` times slower than a quiet one.
    const inAnHour = new Date(now() + 3_659_000)
    const day = inAnHour.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' })
    const [, , dd, mon, yyyy, time] =
      /^(\w+), (\d{2}) (\w{3}) (\d{4}) (\S+) GMT$/.exec(inAnHour.toUTCString()) ?? []
    const rfc850 = `${day}, ${dd}-${mon}-${yyyy?.slice(2)} ${time} GMT`
    const sim = await sims.start({
      faults: { create: [{ status: 429, headers: { 'retry-after': rfc850 } }] }
    })
    const run = await runAction({ ...QUICK, 'base-url': sim.url })
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('The server asks to wait 1h, longer than')
    expect(sim.creates()).toBe(0)
  })
})
