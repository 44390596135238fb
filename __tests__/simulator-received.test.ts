import { afterAll, describe, expect, it } from '@jest/globals'
import { request } from 'node:http'
import { startSimulator, type Simulator } from '../simulator/server.js'

// `received` tells when a request left the client (its head arriving, on loopback), which is what
// the bench times start-up to: not when the simulator has read the body and answered.

const events: string[] = []
const sim: Simulator = await startSimulator({
  received: (method, path) => events.push(`received ${method} ${path}`),
  log: (line) => events.push(`log ${line.split(' ').slice(0, 3).join(' ')}`)
})
afterAll(() => sim.close())

describe('the simulator’s received hook', () => {
  it('fires as a request’s head arrives, before its body has come and it is answered', async () => {
    const path = '/v2/agent/proj_1/job'
    const req = request(`${sim.url}${path}`, {
      method: 'POST',
      headers: { authorization: 'Bearer mint_simulator_key', 'content-type': 'application/json' }
    })
    const answered = new Promise<number>((resolve) =>
      req.on('response', (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
    )
    req.flushHeaders()
    // The body is held back until the head has been seen: only `received` can have fired.
    while (events.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(events).toEqual([`received POST ${path}`])
    req.end(JSON.stringify({ prompt: 'Document it' }))
    expect(await answered).toBe(201)
    expect(events).toEqual([`received POST ${path}`, `log POST ${path} 201`])
  })
})
