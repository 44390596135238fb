import { beforeEach, describe, expect, it, jest } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as core from '../__fixtures__/core.js'

jest.unstable_mockModule('@actions/core', () => core)
const { readSettings, isLoopback } = await import('../src/inputs.js')
const { InputError } = await import('../src/errors.js')

const valid = { prompt: 'Update the docs', 'project-id': 'proj_1', 'api-key': 'mint_abc123' }

function readWith(values: Record<string, string>) {
  core.reset()
  Object.assign(core.inputs, values)
  return readSettings()
}

function errorFor(values: Record<string, string>): InstanceType<typeof InputError> {
  try {
    readWith(values)
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return error as InstanceType<typeof InputError>
  }
  throw new Error('expected an input error')
}

beforeEach(() => core.reset())

describe('readSettings', () => {
  it('applies the documented defaults', () => {
    const settings = readWith(valid)
    expect(settings).toMatchObject({
      prompt: 'Update the docs',
      projectId: 'proj_1',
      apiKey: 'mint_abc123',
      wait: true,
      timeoutMs: 30 * 60_000,
      pollIntervalMs: 5000,
      maxPollIntervalMs: 30_000,
      failOnNoPr: false,
      warnings: []
    })
    expect(settings.baseUrl.href).toBe('https://api.mintlify.com/')
    expect(Object.isFrozen(settings)).toBe(true)
  })

  it('masks the key before anything else', () => {
    readWith(valid)
    expect(core.setSecret).toHaveBeenCalledWith('mint_abc123')
    expect(core.setSecret.mock.invocationCallOrder[0]).toBeLessThan(
      core.getInput.mock.invocationCallOrder[1] ?? 0
    )
  })

  it('reads every input', () => {
    const settings = readWith({
      ...valid,
      'base-url': 'https://gateway.example.com/mintlify',
      wait: 'False',
      timeout: '1h',
      'poll-interval': '2s',
      'max-poll-interval': '1.5m',
      'fail-on-no-pr': 'TRUE'
    })
    expect(settings).toMatchObject({
      wait: false,
      timeoutMs: 3_600_000,
      pollIntervalMs: 2000,
      maxPollIntervalMs: 90_000,
      failOnNoPr: true
    })
    expect(settings.baseUrl.pathname).toBe('/mintlify')
  })

  it('reads the prompt from prompt-file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prompt-'))
    const file = join(dir, 'prompt.md')
    writeFileSync(file, '\nRefresh the API reference.\n\nKeep examples short.\n')
    const settings = readWith({ ...valid, prompt: '', 'prompt-file': file })
    expect(settings.prompt).toBe('Refresh the API reference.\n\nKeep examples short.')
  })

  it('warns, without failing, when the key does not look like an admin key', () => {
    const settings = readWith({ ...valid, 'api-key': 'sk_live_123' })
    expect(settings.warnings).toHaveLength(1)
    expect(settings.warnings[0]).toContain(
      'https://app.mintlify.com/settings/organization/api-keys'
    )
  })

  it.each<[string, Record<string, string>, string, RegExp]>([
    ['no prompt', { prompt: '' }, 'prompt', /is required/],
    ['a blank prompt', { prompt: '   ' }, 'prompt', /is required/],
    [
      'both prompt and prompt-file',
      { 'prompt-file': 'p.md' },
      'prompt-file',
      /together with prompt/
    ],
    [
      'an unreadable prompt-file',
      { prompt: '', 'prompt-file': '/no/such/file.md' },
      'prompt-file',
      /no such file/
    ],
    ['no project id', { 'project-id': '' }, 'project-id', /is required/],
    ['a project id of ..', { 'project-id': '..' }, 'project-id', /cannot be/],
    ['no key', { 'api-key': '' }, 'api-key', /is required/],
    ['a key with a space', { 'api-key': 'mint_a b' }, 'api-key', /whitespace/],
    ['a key with a control character', { 'api-key': 'mint_a\u0007b' }, 'api-key', /control/],
    ['a malformed timeout', { timeout: 'soon' }, 'timeout', /not a duration.*90s, 1.5m, 1h/],
    ['a zero poll interval', { 'poll-interval': '0s' }, 'poll-interval', /longer than zero/],
    ['a negative poll interval', { 'poll-interval': '-5s' }, 'poll-interval', /not a duration/],
    ['a huge timeout', { timeout: '48h' }, 'timeout', /at most 24h/],
    [
      'max-poll-interval below poll-interval',
      { 'poll-interval': '10s', 'max-poll-interval': '5s' },
      'max-poll-interval',
      /at least poll-interval \(10s\)/
    ],
    ['a boolean that is not true or false', { wait: 'yes' }, 'wait', /use true or false/],
    ['another bad boolean', { 'fail-on-no-pr': '1' }, 'fail-on-no-pr', /use true or false/],
    ['a relative base-url', { 'base-url': 'api.mintlify.com' }, 'base-url', /absolute URL/],
    ['plain http to a remote host', { 'base-url': 'http://api.mintlify.com' }, 'base-url', /https/],
    ['another scheme', { 'base-url': 'ftp://api.mintlify.com' }, 'base-url', /https/],
    [
      'credentials in base-url',
      { 'base-url': 'https://u:p@api.mintlify.com' },
      'base-url',
      /credentials/
    ],
    ['a query in base-url', { 'base-url': 'https://api.mintlify.com/?x=1' }, 'base-url', /query/]
  ])('refuses %s, naming the input', (_, values, input, message) => {
    const error = errorFor({ ...valid, ...values })
    expect(error.input).toBe(input)
    expect(error.message).toMatch(new RegExp(`^Input "${input}": `))
    expect(error.message).toMatch(message)
  })

  it('never repeats the key in an error', () => {
    const error = errorFor({ ...valid, 'api-key': 'mint_secret value' })
    expect(error.message).not.toContain('mint_secret')
  })
})

describe('isLoopback', () => {
  it.each(['localhost', '127.0.0.1', '127.1.2.3', '[::1]', 'api.localhost'])(
    '%s is this machine',
    (host) => {
      expect(isLoopback(host)).toBe(true)
    }
  )

  it.each(['example.com', '10.0.0.1', '127.0.0.1.nip.io', 'localhost.example.com', '[::2]'])(
    '%s is not',
    (host) => {
      expect(isLoopback(host)).toBe(false)
    }
  )
})
