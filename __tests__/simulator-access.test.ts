import { afterEach, describe, expect, it } from '@jest/globals'
import { startSimulator, type Simulator } from '../simulator/server.js'

const AUTH = { authorization: 'Bearer mint_simulator_key' }
let sim: Simulator | undefined
afterEach(async () => sim?.close())

async function answers(scenario: Parameters<typeof startSimulator>[0]) {
  sim = await startSimulator(scenario)
  const s = sim
  const create = (project = 'proj') =>
    fetch(`${s.url}/v2/agent/${project}/job`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify({ prompt: 'x' })
    })
  return {
    create,
    get: (id: string) => fetch(`${s.url}/v2/agent/proj/job/${id}`, { headers: AUTH })
  }
}

describe('the simulator refuses as the API does', () => {
  it('404 with an error body for the unknown project, 201 for any other', async () => {
    const { create } = await answers({})
    const unknown = await create('proj_unknown')
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ error: 'Project not found' })
    expect((await create('proj_e2e')).status).toBe(201)
  })

  it('403 to a create with a read-only key, while reads still work', async () => {
    const { create, get } = await answers({})
    const { id } = (await (await create()).json()) as { id: string }
    sim?.setScenario({ keyScope: 'read' })
    const refused = await create()
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({ error: 'Forbidden: this API key is read-only' })
    expect((await get(id)).status).toBe(200)
  })

  it('403 to every request from an address outside the allowlist; 401 once the key expires', async () => {
    const { create } = await answers({ scenario: { ipAllowlist: ['203.0.113.7'] } })
    expect((await create()).status).toBe(403)
    sim?.setScenario({ ipAllowlist: ['127.0.0.1'] })
    expect((await create()).status).toBe(201)
    sim?.setScenario({ keyExpired: true })
    const expired = await create()
    expect(expired.status).toBe(401)
    expect(await expired.json()).toEqual({ error: 'Unauthorized: this API key has expired' })
  })
})
