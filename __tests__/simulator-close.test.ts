import { describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'

// A closed simulator keeps nothing of its own alive: a test that closes it while a slowed answer
// still waits must leave a process (a Jest worker, a script) free to exit at once, rather than
// held until the delay runs out.

const SERVER = fileURLToPath(new URL('../simulator/server.js', import.meta.url))

/** A Node process that starts the simulator, sends one request the fault slows, then closes. */
const SCRIPT = `
const { startSimulator } = await import(${JSON.stringify(SERVER)})
const sim = await startSimulator({
  scenario: { githubFaults: { createStatus: [{ action: 'slow', delayMs: 60000 }] } }
})
const path = '/repos/Codertocat/Hello-World/statuses/' + 'a'.repeat(40)
fetch(sim.url + path, {
  method: 'POST',
  headers: { authorization: 'token any' },
  body: JSON.stringify({ state: 'pending' })
}).catch(() => undefined)
while (sim.github.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
await sim.close()
console.log('closed')
`

describe('closing the simulator', () => {
  it('lets the process exit while a slowed GitHub answer is still waiting', async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      stdio: ['ignore', 'pipe', 'inherit']
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const started = Date.now()
    const watchdog = setTimeout(() => child.kill('SIGKILL'), 15_000)
    const [code, signal] = (await once(child, 'close').finally(() => clearTimeout(watchdog))) as [
      number | null,
      NodeJS.Signals | null
    ]
    expect({ code, signal, output }).toEqual({ code: 0, signal: null, output: 'closed\n' })
    // Start-up and one request take well under a second; the slowed answer would take a minute.
    expect(Date.now() - started).toBeLessThan(10_000)
  })
})
