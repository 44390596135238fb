import { afterEach, describe, expect, it } from '@jest/globals'
import { KEY, QUICK, runAction, simulators, warpTime, WITHOUT_GITHUB } from './harness.js'

warpTime(WITHOUT_GITHUB)

// These runs write no commit status, so their jobs may end at create (see `quickScenario`).
const sims = simulators({ endedAtCreate: true })
afterEach(sims.closeAll)

/** The one error annotation of a run. */
const failure = (log: string) => log.split('\n').find((line) => line.startsWith('::error'))

describe('each refusal of the API, played by the simulator, gets its own advice', () => {
  it.each([
    ['another key (401)', {}, { 'api-key': 'mint_other' }, /HTTP 401.*Create a new admin API key/],
    ['an expired key (401)', { keyExpired: true }, {}, /HTTP 401.*has expired/],
    [
      'a read-only key (403)',
      { keyScope: 'read' as const },
      {},
      /HTTP 403.*write scope.*read-only/
    ],
    [
      'an address outside the IP allowlist (403)',
      { ipAllowlist: ['203.0.113.7'] },
      {},
      /HTTP 403.*IP allowlist.*self-hosted runner.*127\.0\.0\.1/
    ],
    [
      'an unknown project (404)',
      {},
      { 'project-id': 'proj_unknown' },
      /"proj_unknown" was not found \(HTTP 404\).*project-id/
    ],
    [
      'a rate limit of 0 (429)',
      { rateLimit: { limit: 0 } },
      { timeout: '10m' },
      /HTTP 429.*100 agent jobs/
    ]
  ])('%s', async (_, scenario, inputs: Record<string, string>, advice) => {
    const sim = await sims.start(scenario)
    const run = await runAction({ ...QUICK, 'base-url': sim.url, ...inputs })
    expect(run.code).toBe(1)
    expect(failure(run.stdout)).toMatch(advice)
    expect(sim.creates()).toBe(0)
    expect(sim.requests[0]?.headers.authorization).toBe(`Bearer ${inputs['api-key'] ?? KEY}`)
  })
})
