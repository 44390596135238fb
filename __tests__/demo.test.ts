import { describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const DEMO = fileURLToPath(new URL('../scripts/demo.js', import.meta.url))
const BUNDLE = fileURLToPath(new URL('../dist/index.js', import.meta.url))

// The demo runs the committed bundle; a checkout that has not built it yet has nothing to run.
const describeWithBundle = existsSync(BUNDLE) ? describe : describe.skip

function demo(...args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DEMO, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}

describeWithBundle('npm run demo (skipped without dist/index.js: run npm run build)', () => {
  it('runs the bundle to a pull request and shows its outputs and summary', async () => {
    const { code, output } = await demo()

    expect(code).toBe(0)
    const jobId = /^job-id\s+(\S+)$/m.exec(output)?.[1]
    expect(jobId).toBeDefined()
    expect(output).toMatch(/^pr-link\s+https:\/\/github\.com\/acme\/docs\/pull\/\d+$/m)
    expect(output).toContain(`"id": "${jobId}"`)
    expect(output).toMatch(/Action log ──[\s\S]+Step outputs ──[\s\S]+Job summary ──/)
  })

  it('exits with the action code when the job fails', async () => {
    const { code, output } = await demo('--scenario', 'failed')

    expect(code).toBe(1)
    expect(output).toMatch(/^status\s+failed$/m)
    expect(output).not.toContain('https://github.com/acme/docs/pull/')
  })
})
