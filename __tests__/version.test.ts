import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { USER_AGENT, VERSION } from '../src/base/http.js'

describe('version', () => {
  it('matches package.json, so the User-Agent names the release users run', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string
    }
    expect(VERSION).toBe(pkg.version)
    expect(USER_AGENT).toBe(`mintlify-agent-action/${pkg.version}`)
  })
})
