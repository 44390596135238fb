import { afterEach, describe, expect, it } from '@jest/globals'
import { createServer, type AddressInfo } from 'node:net'
import { QUICK, runAction, simulators, warpTime, WITHOUT_GITHUB } from './harness.js'

warpTime(WITHOUT_GITHUB)

// These runs write no commit status, so their jobs may end at create (see `quickScenario`).
const sims = simulators({ endedAtCreate: true })
afterEach(sims.closeAll)

/** A port on 127.0.0.1 that nothing listens on: bound for a moment, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** The annotations of one kind the runner reads from the log. */
const annotations = (log: string, kind: 'error' | 'warning') =>
  log.split('\n').filter((line) => line.startsWith(`::${kind}`))

describe('inputs', () => {
  it('names three wrong inputs in one failure, before any request', async () => {
    const sim = await sims.start()
    const run = await runAction({
      ...QUICK,
      'base-url': sim.url,
      wait: 'yes',
      timeout: 'soon',
      'poll-interval': '0s'
    })
    expect(run.code).toBe(1)
    const [error, ...others] = annotations(run.stdout, 'error')
    expect(others).toEqual([])
    expect(error).toMatch(/^::error title=Mintlify agent::3 inputs cannot be used:/)
    expect(error).toContain('Input "wait": "yes" is not a boolean; use true or false')
    expect(error).toMatch(/Input "timeout": "soon" is not a duration; use a number with ms, s, m/)
    expect(error).toMatch(
      /Input "poll-interval": must be at least 1s \(.*\), got "0s"; use a duration from 1s to 24h/
    )
    expect(sim.requests).toHaveLength(0)
  })

  it('reads a bare timeout as minutes: timeout 1 outlasts a job of 3 seconds', async () => {
    const sim = await sims.start({ jobDurationMs: 3000 })
    const run = await runAction({ ...QUICK, 'base-url': sim.url, timeout: '1' })
    expect(run.stdout).toContain('timeout: 1 read as 1 minute')
    expect(run.code).toBe(0)
    expect(run.outputs.status).toBe('completed')
    expect(run.ms).toBeGreaterThanOrEqual(3000)
  })
})

describe('an API that cannot be reached', () => {
  it('names base-url and the URL tried, with one warning for all the retries', async () => {
    const port = await closedPort()
    const url = `http://127.0.0.1:${port}`
    const run = await runAction({ ...QUICK, 'base-url': url })
    expect(run.code).toBe(1)
    const [error] = annotations(run.stdout, 'error')
    expect(error).toContain(
      `Could not reach ${url}: the connection to 127.0.0.1:${port} was refused`
    )
    expect(error).toContain('Check base-url')
    expect(error).toContain('gave up after 6 attempts')
    expect(annotations(run.stdout, 'warning')).toHaveLength(1)
  })

  it("says https to a plain-http port without OpenSSL's internal text", async () => {
    const sim = await sims.start()
    const run = await runAction({ ...QUICK, 'base-url': sim.url.replace('http:', 'https:') })
    expect(run.code).toBe(1)
    const [error] = annotations(run.stdout, 'error')
    expect(error).toContain('(ERR_SSL_WRONG_VERSION_NUMBER)')
    expect(error).toContain('Check base-url')
    expect(run.stdout + run.stderr).not.toMatch(/SSL routines|error:0A/)
    expect(sim.requests).toHaveLength(0)
  })
})
