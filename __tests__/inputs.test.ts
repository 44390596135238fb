import { beforeEach, describe, expect, it, jest } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse as parseYaml } from 'yaml'
import * as core from '../__fixtures__/core.js'
import { parseDuration } from '../src/duration.js'
import { clearSecrets } from '../src/sanitize.js'
import { isLoopback } from '../src/http.js'

jest.unstable_mockModule('@actions/core', () => core)
const { readSettings } = await import('../src/inputs.js')
const { InputError, InputErrors } = await import('../src/errors.js')

const valid = { prompt: 'Update the docs', 'project-id': 'proj_1', 'api-key': 'mint_abc123' }

function readWith(values: Record<string, string>) {
  core.reset()
  Object.assign(core.inputs, values)
  return readSettings()
}

async function errorFor(values: Record<string, string>): Promise<InstanceType<typeof InputError>> {
  try {
    await readWith(values)
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return error as InstanceType<typeof InputError>
  }
  throw new Error('expected an input error')
}

beforeEach(() => {
  core.reset()
  clearSecrets()
})

describe('readSettings', () => {
  it('applies the documented defaults', async () => {
    const settings = await readWith(valid)
    expect(settings).toMatchObject({
      prompt: 'Update the docs',
      projectId: 'proj_1',
      apiKey: 'mint_abc123',
      wait: true,
      timeoutMs: 30 * 60_000,
      pollIntervalMs: 5000,
      maxPollIntervalMs: 15_000,
      failOnNoPr: false,
      warnings: []
    })
    expect(settings.baseUrl.href).toBe('https://api.mintlify.com/')
    expect(Object.isFrozen(settings)).toBe(true)
  })

  it('masks the key and both GitHub tokens before reading anything else', async () => {
    await readWith({ ...valid, 'github-token': 'ghs_token_value', 'docs-token': 'ghp_docs_value' })
    expect(core.getInput.mock.calls.slice(0, 3).map(([name]) => name)).toEqual([
      'api-key',
      'github-token',
      'docs-token'
    ])
    expect(core.setSecret.mock.calls).toEqual([
      ['mint_abc123'],
      ['ghs_token_value'],
      ['ghp_docs_value']
    ])
    expect(core.setSecret.mock.invocationCallOrder.at(-1)).toBeLessThan(
      core.getInput.mock.invocationCallOrder[3] ?? 0
    )
  })

  it('reads every input', async () => {
    const settings = await readWith({
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

  it('reads the prompt from prompt-file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prompt-'))
    const file = join(dir, 'prompt.md')
    writeFileSync(file, '\nRefresh the API reference.\n\nKeep examples short.\n')
    const settings = await readWith({ ...valid, prompt: '', 'prompt-file': file })
    expect(settings.prompt).toBe('Refresh the API reference.\n\nKeep examples short.')
  })

  it('warns, without failing, when the key does not look like an admin key', async () => {
    const settings = await readWith({ ...valid, 'api-key': 'sk_live_123' })
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
    ['a key with a smart quote', { 'api-key': 'mint_abc\u201d' }, 'api-key', /HTTP header/],
    ['a key with a zero-width space', { 'api-key': 'mint_a\u200bb' }, 'api-key', /HTTP header/],
    [
      'a prompt-file that is a device',
      { prompt: '', 'prompt-file': '/dev/zero' },
      'prompt-file',
      /not a regular file/
    ],
    [
      'a prompt-file that is a directory',
      { prompt: '', 'prompt-file': '/tmp' },
      'prompt-file',
      /not a regular file/
    ],
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
    ['a query in base-url', { 'base-url': 'https://api.mintlify.com/?x=1' }, 'base-url', /query/],
    ['an unknown context', { context: 'full' }, 'context', /"full" is not one of auto, off/],
    [
      'context-max-chars over the limit',
      { 'context-max-chars': '200001' },
      'context-max-chars',
      /whole number from 0 to 200000/
    ],
    [
      'context-max-chars that is not a number',
      { 'context-max-chars': '16k' },
      'context-max-chars',
      /whole number/
    ],
    ['a glob with an open bracket', { paths: 'src/**\ndocs/[ab' }, 'paths', /"\[" that is not/],
    ['a glob with an open brace', { paths: 'src/{a,b' }, 'paths', /"\{" that is not/],
    ['only ! patterns', { paths: '!docs/**' }, 'paths', /only "!" patterns/],
    ['a bad dry-run', { 'dry-run': 'maybe' }, 'dry-run', /use true or false/],
    [
      'a reviewer that is no login or team',
      { 'docs-reviewers': 'octocat, acme/docs/team' },
      'docs-reviewers',
      /"acme\/docs\/team" is not a GitHub login, an org\/team name or author/
    ],
    [
      'a login with a space',
      { 'docs-reviewers': 'mona lisa' },
      'docs-reviewers',
      /is not a GitHub login/
    ],
    [
      'too many reviewers',
      { 'docs-reviewers': Array.from({ length: 16 }, (_, n) => `user${n}`).join(',') },
      'docs-reviewers',
      /more than 15 reviewers/
    ],
    ['a label too long', { 'docs-labels': 'x'.repeat(51) }, 'docs-labels', /longer than 50/],
    [
      'an unknown on-code-closed',
      { 'on-code-closed': 'delete' },
      'on-code-closed',
      /"delete" is not one of close, comment, nothing/
    ]
  ])('refuses %s, naming the input', async (_, values, input, message) => {
    const error = await errorFor({ ...valid, ...values })
    expect(error.input).toBe(input)
    expect(error.message).toMatch(new RegExp(`^Input "${input}": `))
    expect(error.message).toMatch(message)
  })

  it('reads docs-reviewers as logins, team slugs and author, each once', async () => {
    const settings = await readWith({
      ...valid,
      'docs-token': 'ghp_docs_value',
      'docs-reviewers': '@octocat, acme/Docs-Team\nauthor\n@acme/docs-team, OctoCat,',
      'docs-labels': 'documentation, needs review\nDocumentation'
    })
    expect(settings.docsReviewers).toEqual({
      users: ['octocat'],
      teams: [{ org: 'acme', slug: 'docs-team' }],
      author: true
    })
    expect(settings.docsLabels).toEqual(['documentation', 'needs review'])
    expect(settings.onCodeClosed).toBe('close')
    expect(settings.docsToken).toBe('ghp_docs_value')
    expect(settings.warnings).toEqual([])
  })

  it('takes docs-reviewers and docs-labels without docs-token: docs in the code repository need none', async () => {
    const settings = await readWith({ ...valid, 'docs-reviewers': 'octocat', 'docs-labels': 'd' })
    expect(settings.warnings).toEqual([])
    expect(settings.docsLabels).toEqual(['d'])
  })

  it('reads agent-accounts: mintlify[bot] by default, logins in lower case, each once', async () => {
    expect((await readWith(valid)).agentAccounts).toEqual(['mintlify[bot]'])
    const settings = await readWith({
      ...valid,
      'agent-accounts': 'mintlify[bot], @Docs-Writer\ndocs-writer, renovate[bot]'
    })
    expect(settings.agentAccounts).toEqual(['mintlify[bot]', 'docs-writer', 'renovate[bot]'])
  })

  it.each(['not a login', 'a/b', '-lead', 'x'.repeat(40)])(
    'refuses agent-accounts naming %s, and says what is accepted',
    async (name) => {
      await expect(readWith({ ...valid, 'agent-accounts': name })).rejects.toThrow(
        /"agent-accounts": .* is not a GitHub login \(such as mintlify\[bot\] or octocat\)/
      )
    }
  )

  it('names every wrong input in one error, each with what it accepts', async () => {
    const error = await readWith({
      ...valid,
      timeout: 'soon',
      wait: 'yes',
      'base-url': 'api.mintlify.com'
    }).then(
      () => undefined,
      (thrown: unknown) => thrown
    )
    expect(error).toBeInstanceOf(InputErrors)
    const all = error as InstanceType<typeof InputErrors>
    expect(all.inputs).toEqual(['base-url', 'wait', 'timeout'])
    expect(all.message).toMatch(/^3 inputs cannot be used:\n/)
    expect(all.message).toContain('- Input "base-url": "api.mintlify.com" is not an absolute URL')
    expect(all.message).toContain('- Input "wait": "yes" is not a boolean; use true or false')
    expect(all.message).toMatch(
      /- Input "timeout": "soon" is not a duration; .*bare number of minutes/
    )
  })

  it('checks the inputs after a wrong one, and the checks between inputs', async () => {
    const error = await readWith({
      ...valid,
      'dry-run': 'maybe',
      'api-key': '',
      'poll-interval': '10s',
      'max-poll-interval': '5s',
      'prompt-file': 'p.md',
      'job-id': '..'
    }).then(
      () => undefined,
      (thrown: unknown) => thrown
    )
    expect(error).toBeInstanceOf(InputErrors)
    expect((error as InstanceType<typeof InputErrors>).inputs).toEqual([
      'dry-run',
      'api-key',
      'max-poll-interval',
      'job-id',
      'prompt-file'
    ])
  })

  it('reports a proxy variable that is not a URL along with a wrong input', async () => {
    process.env.HTTPS_PROXY = '::bad'
    try {
      const error = await readWith({ ...valid, comment: 'always' }).then(
        () => undefined,
        (thrown: unknown) => thrown
      )
      expect(error).toBeInstanceOf(InputErrors)
      const message = (error as Error).message
      expect(message).toMatch(/environment variable HTTPS_PROXY is not a proxy URL/)
      expect(message).toContain('Input "comment": "always" is not one of auto, off')
    } finally {
      delete process.env.HTTPS_PROXY
    }
  })

  it.each([
    ['30', 30 * 60_000, 'timeout: 30 read as 30 minutes'],
    ['1', 60_000, 'timeout: 1 read as 1 minute,'],
    ['1.5', 90_000, 'timeout: 1.5 read as 1.5 minutes']
  ])('reads a bare timeout of %s as minutes, and says so', async (text, ms, line) => {
    const settings = await readWith({ ...valid, timeout: text })
    expect(settings.timeoutMs).toBe(ms)
    expect(core.info.mock.calls.map(([message]) => message).join('\n')).toContain(line)
  })

  it('says nothing about a timeout with a unit, and reads bare poll intervals as seconds', async () => {
    core.info.mockClear()
    const settings = await readWith({
      ...valid,
      timeout: '30s',
      'poll-interval': '2',
      'max-poll-interval': '10'
    })
    expect(settings).toMatchObject({
      timeoutMs: 30_000,
      pollIntervalMs: 2000,
      maxPollIntervalMs: 10_000
    })
    expect(core.info).not.toHaveBeenCalled()
  })

  it('refuses a bare timeout over a day, saying it was read as minutes', async () => {
    const error = await errorFor({ ...valid, timeout: '1441' })
    expect(error.message).toBe('Input "timeout": must be at most 24h, got "1441" (read as minutes)')
  })

  it('reads the change inputs', async () => {
    const settings = await readWith({
      ...valid,
      context: 'OFF',
      'context-max-chars': '0',
      paths: 'src/**\n\n# comments and blank lines are ignored\n!src/**/*.test.ts\n',
      'dry-run': 'true'
    })
    expect(settings).toMatchObject({
      context: 'off',
      contextMaxChars: 0,
      paths: ['src/**', '!src/**/*.test.ts'],
      dryRun: true
    })
  })

  it('refuses a job-id longer than 256 characters, as a recorded one is refused', async () => {
    await expect(readWith({ ...valid, 'job-id': 'j'.repeat(257) })).rejects.toThrow(
      'Input "job-id": is longer than 256 characters'
    )
    expect(await readWith({ ...valid, 'job-id': 'j'.repeat(256) })).toMatchObject({
      jobId: 'j'.repeat(256)
    })
  })

  it('takes job-id, with or without a prompt (attaching to the job)', async () => {
    expect(await readWith({ ...valid, 'job-id': ' job_1 ' })).toMatchObject({
      jobId: 'job_1',
      prompt: 'Update the docs'
    })
    expect(await readWith({ ...valid, prompt: '', 'job-id': 'job_1' })).toMatchObject({
      jobId: 'job_1',
      prompt: ''
    })
  })

  it('lets a dry run go without project-id and api-key', async () => {
    const settings = await readWith({ prompt: 'x', 'dry-run': 'true' })
    expect(settings).toMatchObject({ projectId: '', apiKey: '', dryRun: true })
  })

  it('never repeats the key in an error', async () => {
    const error = await errorFor({ ...valid, 'api-key': 'mint_secret value' })
    expect(error.message).not.toContain('mint_secret')
  })

  it('redacts the key from a message about another input, e.g. pasted into base-url', async () => {
    const key = 'mint_abcdef0123456789'
    const error = await errorFor({ ...valid, 'api-key': key, 'base-url': key })
    expect(error.input).toBe('base-url')
    expect(error.message).not.toContain('mint_abc')
    expect(error.message).toContain('"***" is not an absolute URL')
  })

  it('refuses a FIFO as prompt-file without opening it, so nothing blocks', async () => {
    const fifo = join(mkdtempSync(join(tmpdir(), 'fifo-')), 'prompt')
    execFileSync('mkfifo', [fifo])
    const error = await errorFor({ ...valid, prompt: '', 'prompt-file': fifo })
    expect(error.message).toMatch(/not a regular file/)
  })

  it('names the proxy variable when it is not a URL, without printing its credentials', async () => {
    process.env.HTTPS_PROXY = 'http://user:hunter2@[bad'
    try {
      await expect(readWith(valid)).rejects.toThrow(
        /environment variable HTTPS_PROXY is not a proxy URL/
      )
      await expect(readWith(valid)).rejects.not.toThrow(/hunter2/)
    } finally {
      delete process.env.HTTPS_PROXY
    }
  })

  it('has the defaults action.yml documents', async () => {
    const action = parseYaml(readFileSync(new URL('../action.yml', import.meta.url), 'utf8')) as {
      inputs: Record<string, { default?: string }>
    }
    const defaults = Object.fromEntries(
      Object.entries(action.inputs).flatMap(([name, spec]) =>
        spec.default === undefined ? [] : [[name, spec.default]]
      )
    )
    const settings = await readWith(valid)
    expect(settings.baseUrl.href).toBe(new URL(defaults['base-url'] ?? '').href)
    expect(String(settings.wait)).toBe(defaults.wait)
    expect(String(settings.failOnNoPr)).toBe(defaults['fail-on-no-pr'])
    expect(settings.timeoutMs).toBe(parseDuration(defaults.timeout ?? ''))
    expect(settings.pollIntervalMs).toBe(parseDuration(defaults['poll-interval'] ?? ''))
    expect(settings.maxPollIntervalMs).toBe(parseDuration(defaults['max-poll-interval'] ?? ''))
    expect(settings.context).toBe(defaults.context)
    expect(String(settings.contextMaxChars)).toBe(defaults['context-max-chars'])
    expect(String(settings.dryRun)).toBe(defaults['dry-run'])
    expect(defaults['github-token']).toBe('${{ github.token }}')
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
