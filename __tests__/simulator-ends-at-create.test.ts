// The simulator's endsAtCreate knob: the create answer shows the job as a read at that moment
// would, so end-to-end tests whose runs gain nothing from waiting see the job ended at once.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { startSimulator } from '../simulator/server.js'

const KEY = 'mint_simulator_key'
const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' }
const STATUSES = ['completed', 'failed', 'archived', 'active'] as const

async function createAndRead(scenario: Parameters<typeof startSimulator>[0]) {
  const sim = await startSimulator({ apiKey: KEY, now: () => 1_000_000, ...scenario })
  try {
    const base = `${sim.url}/v2/agent/proj/job`
    const body = JSON.stringify({ prompt: 'Document it' })
    const created = (await (await fetch(base, { method: 'POST', headers, body })).json()) as {
      id: string
    }
    const read = await (await fetch(`${base}/${created.id}`, { headers })).json()
    return { created, read }
  } finally {
    await sim.close()
  }
}

describe('endsAtCreate', () => {
  it('answers a create as a read at the same moment would (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...STATUSES),
        fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 5_000 })),
        async (finalStatus, jobDurationMs) => {
          const { created, read } = await createAndRead({
            scenario: { endsAtCreate: true, finalStatus, jobDurationMs }
          })
          expect(created).toEqual(read)
        }
      ),
      { numRuns: 20 }
    )
  })

  it('is off by default: a job of 0 ms is active when created, as the platform answers', async () => {
    const { created, read } = await createAndRead({ scenario: { jobDurationMs: 0 } })
    expect(created).toMatchObject({ status: 'active', prLink: null })
    expect(read).toMatchObject({ status: 'completed' })
  })

  it('with a job of 0 ms, the create answer already shows it ended', async () => {
    const { created } = await createAndRead({ scenario: { jobDurationMs: 0, endsAtCreate: true } })
    expect(created).toMatchObject({ status: 'completed', prLink: expect.stringMatching(/pull/) })
  })

  it('names the knob when it is not a boolean', async () => {
    await expect(
      startSimulator({ scenario: { endsAtCreate: 'yes' as unknown as boolean } })
    ).rejects.toThrow(/endsAtCreate must be true or false/)
  })
})
