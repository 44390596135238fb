import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals'
import fc from 'fast-check'
import { execFileSync } from 'node:child_process'
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse as parseYaml } from 'yaml'
import * as core from '../__fixtures__/core.js'
import { parseDuration } from '../src/base/duration.js'
import { clearSecrets } from '../src/base/secrets/redact.js'
import { isLoopback } from '../src/base/http.js'
import { budgetsFor } from '../src/clients/github/policy.js'
import { FINAL_CHECK_MS } from '../src/clients/mintlify/poll.js'
import { MIN_POLL_INTERVAL_MS, MIN_TIMEOUT_MS } from '../src/given/inputs/parse.js'

jest.unstable_mockModule('@actions/core', () => core)
const { readSettings } = await import('../src/given/inputs.js')
const { InputError, InputErrors } = await import('../src/base/errors.js')

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

/** A new directory as the runner's workspace (GITHUB_WORKSPACE), for this test only. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'workspace-'))
  process.env.GITHUB_WORKSPACE = dir
  return dir
}

const runnerWorkspace = process.env.GITHUB_WORKSPACE

beforeEach(() => {
  core.reset()
  clearSecrets()
})

afterEach(() => {
  if (runnerWorkspace === undefined) delete process.env.GITHUB_WORKSPACE
  else process.env.GITHUB_WORKSPACE = runnerWorkspace
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

  it('reads the prompt from prompt-file, relative to the workspace', async () => {
    const dir = workspace()
    writeFileSync(join(dir, 'prompt.md'), '\nRefresh the API reference.\n\nKeep examples short.\n')
    const settings = await readWith({ ...valid, prompt: '', 'prompt-file': 'prompt.md' })
    expect(settings.prompt).toBe('Refresh the API reference.\n\nKeep examples short.')
    // An absolute path inside the workspace is as good.
    const again = await readWith({ ...valid, prompt: '', 'prompt-file': join(dir, 'prompt.md') })
    expect(again.prompt).toBe(settings.prompt)
  })

  it('warns, without failing, when the key does not look like an admin key, never printing it', async () => {
    const settings = await readWith({ ...valid, 'api-key': 'sk_live_0123456789abcdef' })
    expect(settings.warnings).toEqual([
      'The api-key does not start with "mint_", the prefix of admin API keys. If requests are ' +
        'refused, create an admin key on https://app.mintlify.com/settings/organization/api-keys.'
    ])
    expect(settings.warnings.join('\n')).not.toContain('0123456789')
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
      'a prompt-file that does not exist',
      { prompt: '', 'prompt-file': 'no/such/file.md' },
      'prompt-file',
      /cannot read "no\/such\/file.md": no such file \(paths are relative to the workspace/
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
      /"\/dev\/zero" leads outside the workspace/
    ],
    [
      'a prompt-file that is the workspace itself',
      { prompt: '', 'prompt-file': '.' },
      'prompt-file',
      /"\." is not a regular file; give the path of a file in the repository/
    ],
    ['a malformed timeout', { timeout: 'soon' }, 'timeout', /not a duration.*90s, 1.5m, 1h/],
    [
      'a zero poll interval',
      { 'poll-interval': '0s' },
      'poll-interval',
      /must be at least 1s \(.*\), got "0s"; use a duration from 1s to 24h/
    ],
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

  it('adds the agent-accounts given to mintlify[bot], which is always included', async () => {
    expect((await readWith({ ...valid, 'agent-accounts': 'Docs-Writer' })).agentAccounts).toEqual([
      'mintlify[bot]',
      'docs-writer'
    ])
    expect(
      (await readWith({ ...valid, 'agent-accounts': 'MINTLIFY[BOT], docs-writer' })).agentAccounts
    ).toEqual(['mintlify[bot]', 'docs-writer'])
    const twenty = Array.from({ length: 20 }, (_, n) => `writer${n}`)
    expect(
      (await readWith({ ...valid, 'agent-accounts': twenty.join(',') })).agentAccounts
    ).toEqual(['mintlify[bot]', ...twenty])
    await expect(
      readWith({ ...valid, 'agent-accounts': [...twenty, 'writer20'].join(',') })
    ).rejects.toThrow('Input "agent-accounts": names more than 20 accounts besides mintlify[bot]')
  })

  it.each([',', ' ', ' , ,\n,', '\n\n'])(
    'refuses agent-accounts of %j: it names no account',
    async (value) => {
      const error = await errorFor({ ...valid, 'agent-accounts': value })
      expect(error.message).toBe(
        'Input "agent-accounts": names no account; give logins one a line or comma-separated ' +
          '(mintlify[bot] is always included), or leave the input out'
      )
    }
  )

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
    execFileSync('mkfifo', [join(workspace(), 'prompt')])
    const error = await errorFor({ ...valid, prompt: '', 'prompt-file': 'prompt' })
    expect(error.message).toMatch(/"prompt" is not a regular file/)
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

/** The error `values` fail with, whether one input or several are wrong. */
async function failure(values: Record<string, string>): Promise<Error> {
  return readWith(values).then(
    () => {
      throw new Error('expected the inputs to be refused')
    },
    (thrown: unknown) => thrown as Error
  )
}

/** Everything a run printed or set, to look for a value that must not be there. */
function everythingShown(error?: Error): string {
  return [
    error?.message ?? '',
    ...core.logLines(),
    ...core.error.mock.calls.map(([m]) => String(m)),
    ...core.failures(),
    JSON.stringify(core.outputs()),
    core.summaries.join('')
  ].join('\n')
}

describe('project-id: a key or a token given as the project id', () => {
  const SWAPPED =
    /^Input "project-id": looks like an API key or a token, not a project id; project-id and api-key were probably swapped\./

  it.each([
    ['a Mintlify admin key', 'mint_8f2c1e9a7b6d4c3e2f1a0b9c8d7e6f5a'],
    ['a GitHub personal access token', 'ghp_16C7e42F292c6912E7710c838347Ae178B4a'],
    ['a GitHub OAuth token', 'gho_16C7e42F292c6912E7710c838347Ae178B4a'],
    ['a GitHub user-to-server token', 'ghu_16C7e42F292c6912E7710c838347Ae178B4a'],
    ['a GitHub installation token', 'ghs_16C7e42F292c6912E7710c838347Ae178B4a'],
    [
      'a GitHub refresh token',
      'ghr_1B4a2e77838347a7E420ce178F2E7c6912E169246c34E1ccbF66C46812d16D5B1A9Dc86A1498'
    ],
    [
      'a fine-grained GitHub token',
      'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOP'
    ],
    [
      'a JWT',
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'
    ],
    ['a Bearer header value', 'Bearer 8f2c1e9a7b6d4c3e2f1a0b9c8d7e6f5a'],
    ['a bearer header value in lower case', 'bearer mint_8f2c1e9a7b6d4c3e2f1a0b9c8d7e6f5a']
  ])('refuses %s, saying the secrets were probably swapped, without the value', async (_, id) => {
    const error = await errorFor({ ...valid, 'project-id': id })
    expect(error.input).toBe('project-id')
    expect(error.message).toMatch(SWAPPED)
    expect(error.message).toContain('https://app.mintlify.com/settings/organization/api-keys')
    expect(everythingShown(error)).not.toContain(id)
    // Masked before anything else could print it.
    expect(core.setSecret).toHaveBeenCalledWith(id)
  })

  it('refuses a project-id equal to the api-key, whatever it looks like', async () => {
    const key = 'a1b2c3d4e5f6a7b8c9d0e1f2'
    const error = await errorFor({ ...valid, 'project-id': key, 'api-key': key })
    expect(error.message).toMatch(SWAPPED)
    expect(error.message).not.toContain(key)
  })

  it('refuses the key in project-id in a dry run too, where the key may be left out', async () => {
    const error = await errorFor({
      prompt: 'x',
      'dry-run': 'true',
      'project-id': 'mint_8f2c1e9a7b6d4c3e2f1a0b9c8d7e6f5a'
    })
    expect(error.message).toMatch(SWAPPED)
  })

  it.each([
    '64f0c2a1b3d4e5f6a7b8c9d0',
    'proj_1',
    'acme-docs',
    'Docs_Site-2',
    'mintlify',
    'ghost_writer'
  ])('takes %s as a project id', async (id) => {
    expect((await readWith({ ...valid, 'project-id': id })).projectId).toBe(id)
    expect(core.setSecret).not.toHaveBeenCalledWith(id)
  })

  const base62 = (min: number, max: number) =>
    fc.string({
      unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'),
      minLength: min,
      maxLength: max
    })
  const base64url = (min: number, max: number) =>
    fc.string({
      unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
      minLength: min,
      maxLength: max
    })
  /** Keys and tokens as their issuers shape them. */
  const secretShaped = fc.oneof(
    base62(16, 48).map((body) => `mint_${body}`),
    fc
      .tuple(fc.constantFrom('ghp', 'gho', 'ghu', 'ghs', 'ghr'), base62(36, 76))
      .map(([prefix, body]) => `${prefix}_${body}`),
    fc
      .string({
        unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_'),
        minLength: 22,
        maxLength: 82
      })
      .map((body) => `github_pat_${body}`),
    fc
      .tuple(base64url(8, 40), base64url(8, 80), base64url(0, 86))
      .map(([header, payload, signature]) => `eyJ${header}.${payload}.${signature}`),
    fc
      .tuple(
        fc.constantFrom('Bearer', 'bearer', 'BEARER'),
        fc.constantFrom(' ', '  ', '\t'),
        base64url(12, 60)
      )
      .map(([scheme, space, token]) => `${scheme}${space}${token}`)
  )

  it('refuses every key- or token-shaped project-id, and never shows it (property)', async () => {
    await fc.assert(
      fc.asyncProperty(secretShaped, async (id) => {
        clearSecrets()
        const error = await errorFor({ ...valid, 'project-id': id })
        expect(error.input).toBe('project-id')
        expect(error.message).toMatch(SWAPPED)
        expect(everythingShown(error)).not.toContain(id.trim())
      }),
      { numRuns: 200 }
    )
  })

  it('refuses a project-id equal to the api-key, and never shows it (property)', async () => {
    await fc.assert(
      fc.asyncProperty(base64url(16, 48), async (key) => {
        clearSecrets()
        const error = await errorFor({ ...valid, 'project-id': key, 'api-key': key })
        expect(error.input).toBe('project-id')
        expect(everythingShown(error)).not.toContain(key)
      }),
      { numRuns: 100 }
    )
  })

  it('takes every ordinary id: hex, or letters and digits with - and _ (property)', async () => {
    const hex = fc.string({
      unit: fc.constantFrom(...'0123456789abcdef'),
      minLength: 8,
      maxLength: 32
    })
    const word = fc
      .string({
        unit: fc.constantFrom(
          ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
        ),
        minLength: 1,
        maxLength: 40
      })
      // Not a key's or a token's prefix: those are what an id is told apart by.
      .filter((id) => !/^(mint|gh[pousr]|github_pat)_/.test(id) && id.trim() !== '')
    await fc.assert(
      fc.asyncProperty(fc.oneof(hex, word), async (id) => {
        const settings = await readWith({ ...valid, 'project-id': id })
        expect(settings.projectId).toBe(id)
      }),
      { numRuns: 200 }
    )
  })
})

describe('prompt-file stays in the workspace', () => {
  const SECRET = 'FAKE_SECRET_9f8e7d6c5b4a'

  /** A workspace with a prompt and a link to it, and beside it a directory holding a secret. */
  function layout() {
    const dir = workspace()
    const outside = mkdtempSync(join(tmpdir(), 'outside-'))
    writeFileSync(join(outside, 'secret.txt'), `TOKEN=${SECRET}\n`)
    mkdirSync(join(dir, 'docs'))
    writeFileSync(join(dir, 'docs', 'prompt.md'), 'Refresh the quickstart.\n')
    return { dir, outside, secretFile: join(outside, 'secret.txt') }
  }

  async function refused(promptFile: string): Promise<InstanceType<typeof InputError>> {
    const error = await errorFor({ ...valid, prompt: '', 'prompt-file': promptFile })
    expect(error.input).toBe('prompt-file')
    expect(everythingShown(error)).not.toContain(SECRET)
    return error
  }

  const OUTSIDE =
    /leads outside the workspace; give the path of a file in the repository, relative to the workspace$/

  it('refuses a path that climbs out with ..', async () => {
    const { dir, secretFile } = layout()
    expect((await refused(relative(dir, secretFile))).message).toMatch(OUTSIDE)
    expect((await refused('../../../../../../../../etc/passwd')).message).toMatch(OUTSIDE)
    expect((await refused('docs/../../x.md')).message).toMatch(OUTSIDE)
  })

  it('refuses an absolute path outside, /proc files included', async () => {
    const { secretFile } = layout()
    expect((await refused(secretFile)).message).toMatch(OUTSIDE)
    expect((await refused('/proc/self/environ')).message).toMatch(OUTSIDE)
    expect((await refused('/etc/passwd')).message).toMatch(OUTSIDE)
  })

  it('refuses a link in the workspace to a file outside, to /proc, or to a directory outside', async () => {
    const { dir, outside, secretFile } = layout()
    symlinkSync(secretFile, join(dir, 'prompt.md'))
    symlinkSync('/proc/self/environ', join(dir, 'environ.md'))
    symlinkSync(outside, join(dir, 'shared'))
    expect((await refused('prompt.md')).message).toMatch(OUTSIDE)
    expect((await refused('environ.md')).message).toMatch(OUTSIDE)
    expect((await refused('shared/secret.txt')).message).toMatch(OUTSIDE)
    // The message names the path given, not where the link leads.
    expect((await refused('prompt.md')).message).not.toContain(outside)
  })

  it('refuses a link to a FIFO outside without opening it, so nothing blocks', async () => {
    const { dir, outside } = layout()
    execFileSync('mkfifo', [join(outside, 'pipe')])
    symlinkSync(join(outside, 'pipe'), join(dir, 'prompt.md'))
    expect((await refused('prompt.md')).message).toMatch(OUTSIDE)
  })

  it('refuses a directory in the workspace, or a link to one', async () => {
    const { dir } = layout()
    symlinkSync(join(dir, 'docs'), join(dir, 'prompts'))
    expect((await refused('docs')).message).toMatch(/"docs" is not a regular file/)
    expect((await refused('prompts')).message).toMatch(/"prompts" is not a regular file/)
  })

  it('reads a link in the workspace that leads to a file in the workspace', async () => {
    const { dir } = layout()
    symlinkSync(join(dir, 'docs', 'prompt.md'), join(dir, 'prompt.md'))
    symlinkSync('docs', join(dir, 'prompts'))
    for (const path of [
      'prompt.md',
      'prompts/prompt.md',
      'docs/./prompt.md',
      'docs/../prompt.md'
    ]) {
      const settings = await readWith({ ...valid, prompt: '', 'prompt-file': path })
      expect(settings.prompt).toBe('Refresh the quickstart.')
    }
  })

  it('takes a workspace reached through a link, by either of its names', async () => {
    const { dir } = layout()
    const link = join(mkdtempSync(join(tmpdir(), 'link-')), 'ws')
    symlinkSync(dir, link)
    process.env.GITHUB_WORKSPACE = link
    for (const path of [
      'docs/prompt.md',
      join(link, 'docs/prompt.md'),
      join(dir, 'docs/prompt.md')
    ]) {
      const settings = await readWith({ ...valid, prompt: '', 'prompt-file': path })
      expect(settings.prompt).toBe('Refresh the quickstart.')
    }
  })

  it('without GITHUB_WORKSPACE, stays in the directory the step runs in', async () => {
    const { dir, secretFile } = layout()
    delete process.env.GITHUB_WORKSPACE
    const cwd = process.cwd()
    process.chdir(dir)
    try {
      const settings = await readWith({ ...valid, prompt: '', 'prompt-file': 'docs/prompt.md' })
      expect(settings.prompt).toBe('Refresh the quickstart.')
      expect((await refused(secretFile)).message).toMatch(OUTSIDE)
    } finally {
      process.chdir(cwd)
    }
  })

  it('names a workspace that does not exist', async () => {
    process.env.GITHUB_WORKSPACE = join(tmpdir(), 'no-such-workspace-0d9c8b7a')
    const error = await errorFor({ ...valid, prompt: '', 'prompt-file': 'prompt.md' })
    expect(error.message).toMatch(
      /^Input "prompt-file": "prompt.md" cannot be read: the workspace cannot be found/
    )
  })

  it('reads a path only where it really leads inside the workspace (property)', async () => {
    // The workspace holds docs/prompt.md, a link `up` to its parent and `out` to the outside; the
    // outside holds a secret under the same names.
    const { dir, outside } = layout()
    mkdirSync(join(outside, 'docs'))
    writeFileSync(join(outside, 'docs', 'prompt.md'), SECRET)
    writeFileSync(join(outside, 'prompt.md'), SECRET)
    symlinkSync('..', join(dir, 'up'))
    symlinkSync(outside, join(dir, 'out'))
    symlinkSync(join(dir, 'docs'), join(outside, 'back'))
    const root = realpathSync(dir)
    const segments = fc.constantFrom(
      '..',
      '.',
      'docs',
      'up',
      'out',
      'back',
      basename(dir),
      basename(outside)
    )
    await fc.assert(
      fc.asyncProperty(
        fc.array(segments, { maxLength: 5 }),
        fc.boolean(),
        async (parts, absolute) => {
          clearSecrets()
          const path = [...parts, 'prompt.md'].join('/')
          const given = absolute ? resolve(dir, path) : path
          // A path is read only when it is written inside the workspace (under either of its
          // names) and really leads inside it: `../outside/back/prompt.md` names a place outside,
          // so it is refused before the file system is asked, wherever its links would lead.
          const written = resolve(dir, path)
          const writtenInside = [resolve(dir), root].some((base) =>
            (written + sep).startsWith(base + sep)
          )
          let real: string | undefined
          try {
            real = realpathSync(written)
          } catch {
            real = undefined
          }
          const inside = writtenInside && real !== undefined && (real + sep).startsWith(root + sep)
          const outcome = await readWith({ ...valid, prompt: '', 'prompt-file': given }).then(
            (settings) => ({ prompt: settings.prompt }),
            (error: unknown) => ({
              refused: error instanceof InputError ? error.input : error,
              secretShown: everythingShown(error as Error).includes(SECRET)
            })
          )
          expect(outcome).toEqual(
            inside
              ? { prompt: 'Refresh the quickstart.' }
              : { refused: 'prompt-file', secretShown: false }
          )
        }
      ),
      { numRuns: 300, examples: [[['..', basename(outside), 'back'], false]] }
    )
  })
})

describe('floors on the timing inputs', () => {
  /** A duration of `ms` in each form the inputs accept: ms, seconds, and a bare number. */
  const forms = (ms: number, bare: 's' | 'm') =>
    [`${ms}ms`, `${ms / 1000}s`, `${ms / (bare === 's' ? 1000 : 60_000)}`].filter(
      (text) => parseDuration(text, bare) === ms
    )

  it.each(['poll-interval', 'max-poll-interval'])(
    'refuses a %s under 1s in every form, naming it and saying what is accepted (property)',
    async (input) => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 999 }), async (ms) => {
          for (const text of forms(ms, 's')) {
            const error = await failure({
              ...valid,
              [input]: text,
              // Keep max-poll-interval from also failing for being under poll-interval.
              ...(input === 'poll-interval' ? {} : { 'poll-interval': '1s' })
            })
            expect(error).toBeInstanceOf(InputError)
            expect(error.message).toMatch(
              new RegExp(
                `^Input "${input}": must be at least 1s \\(.+\\), got ".+"( \\(read as seconds\\))?; use a duration from 1s to 24h$`
              )
            )
          }
        }),
        { numRuns: 50 }
      )
    }
  )

  it('takes poll intervals from 1s, in every form (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1000, max: 3_600_000 }), async (ms) => {
        for (const text of forms(ms, 's')) {
          const settings = await readWith({
            ...valid,
            'poll-interval': text,
            'max-poll-interval': text
          })
          expect(settings.pollIntervalMs).toBe(ms)
          expect(settings.maxPollIntervalMs).toBe(ms)
        }
      }),
      { numRuns: 50 }
    )
  })

  it('refuses a timeout under 10s in every form, naming it and saying what is accepted (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 9_999 }), async (ms) => {
        for (const text of forms(ms, 'm')) {
          const error = await errorFor({ ...valid, timeout: text })
          expect(error.message).toMatch(
            /^Input "timeout": must be at least 10s \(.+\), got ".+"( \(read as minutes\))?; use a duration from 10s to 24h$/
          )
        }
      }),
      { numRuns: 50 }
    )
  })

  it('takes a timeout from 10s, in every form (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 10_000, max: 3_600_000 }), async (ms) => {
        for (const text of forms(ms, 'm')) {
          expect((await readWith({ ...valid, timeout: text })).timeoutMs).toBe(ms)
        }
      }),
      { numRuns: 50 }
    )
  })

  it('says a bare poll-interval under a second was read as seconds', async () => {
    const error = await errorFor({ ...valid, 'poll-interval': '0.5' })
    expect(error.message).toMatch(/got "0\.5" \(read as seconds\)/)
  })

  it('sets the timeout floor where every part of the step fits in it', () => {
    // Each GitHub budget is its share of the timeout, never under 1 s: from the floor up, the
    // floor of 1 s never makes a budget larger than its share.
    for (const timeout of [MIN_TIMEOUT_MS, MIN_TIMEOUT_MS * 1.5, 60_000]) {
      const budgets = budgetsFor(timeout)
      expect(budgets.last).toBeLessThanOrEqual(timeout * 0.1)
      expect(budgets.lookup + budgets.write).toBeLessThanOrEqual(timeout * 0.4)
      expect(budgets.change).toBeLessThanOrEqual(timeout * 0.25)
    }
    expect(budgetsFor(MIN_TIMEOUT_MS - 1).last).toBeGreaterThan((MIN_TIMEOUT_MS - 1) * 0.1)
    // The last look keeps its whole time before the deadline, and as long again is left.
    expect(MIN_TIMEOUT_MS).toBe(2 * FINAL_CHECK_MS)
    expect(MIN_POLL_INTERVAL_MS).toBe(1000)
  })

  it('reports every wrong input in one failure, the new checks among them', async () => {
    const dir = workspace()
    const error = await failure({
      ...valid,
      prompt: '',
      'prompt-file': '../../etc/passwd',
      'project-id': 'mint_8f2c1e9a7b6d4c3e2f1a0b9c8d7e6f5a',
      timeout: '5s',
      'poll-interval': '200ms',
      'max-poll-interval': '500ms',
      'agent-accounts': ' , '
    })
    expect(dir).not.toBe('')
    expect(error).toBeInstanceOf(InputErrors)
    expect((error as InstanceType<typeof InputErrors>).inputs).toEqual([
      'project-id',
      'timeout',
      'poll-interval',
      'max-poll-interval',
      'agent-accounts',
      'prompt-file'
    ])
    expect(error.message).toMatch(/^6 inputs cannot be used:\n/)
    expect(error.message).not.toContain('mint_8f2c')
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

describe('inputs named wrongly', () => {
  const set: string[] = []
  /** Sets `INPUT_*` variables as a runner would for `with:` entries the action does not read. */
  function given(variables: Record<string, string>): void {
    for (const [name, value] of Object.entries(variables)) {
      process.env[name] = value
      set.push(name)
    }
  }
  afterEach(() => {
    for (const name of set.splice(0)) delete process.env[name]
  })

  it('reads every input action.yml declares, so none of them is taken for a misspelt one', async () => {
    const action = parseYaml(readFileSync(new URL('../action.yml', import.meta.url), 'utf8')) as {
      inputs: Record<string, unknown>
    }
    await readWith(valid)
    const read = new Set(core.getInput.mock.calls.map(([name]) => name))
    expect([...read].sort()).toEqual(Object.keys(action.inputs).sort())
  })

  it('says api_key is not an input and which one it meant, in the error about api-key', async () => {
    given({ INPUT_API_KEY: 'mint_typo_value_1234' })
    const { 'api-key': _, ...rest } = valid
    const error = await errorFor(rest)
    expect(error.input).toBe('api-key')
    expect(error.message).toBe(
      'Input "api-key": is required: an admin API key (mint_…), passed from a secret. The step ' +
        'was given "api_key" (INPUT_API_KEY), which is not an input of this action: did you ' +
        'mean api-key?'
    )
    expect(everythingShown(error)).not.toContain('mint_typo_value_1234')
  })

  it('warns once for each variable that names no input, naming the nearest, never its value', async () => {
    given({
      INPUT_FAIL_ON_NO_PR: 'secret-looking-value',
      INPUT_PROMT: 'x',
      'INPUT_WEBHOOK-URL': 'y'
    })
    const settings = await readWith(valid)
    expect(settings.warnings).toEqual([
      '"fail_on_no_pr" (INPUT_FAIL_ON_NO_PR) is not an input of this action, so it is ignored; ' +
        'did you mean fail-on-no-pr? Write it as fail-on-no-pr under with:.',
      '"promt" (INPUT_PROMT) is not an input of this action, so it is ignored; did you mean ' +
        'prompt? Write it as prompt under with:.',
      '"webhook-url" (INPUT_WEBHOOK-URL) is not an input of this action, so it is ignored; ' +
        "the action's inputs are listed in its action.yml and README."
    ])
    expect(settings.warnings.join('\n')).not.toContain('secret-looking-value')
  })

  it('keeps the warnings of a run that fails on another input, after its error', async () => {
    given({ INPUT_FAIL_ON_NO_PR: 'true' })
    const error = await errorFor({ ...valid, timeout: 'soon' })
    expect(error.input).toBe('timeout')
    expect(error.message).toMatch(
      /^Input "timeout": "soon" is not a duration; .*\nAlso: "fail_on_no_pr" \(INPUT_FAIL_ON_NO_PR\) is not an input of this action, so it is ignored; did you mean fail-on-no-pr\?/
    )
  })
})

const { SecretsWithheldError } = await import('../src/base/errors.js')
const { readEvent } = await import('../src/given/read-event.js')

describe('empty secrets where GitHub gives none', () => {
  const fixture = (file: string) =>
    fileURLToPath(new URL(`../__fixtures__/events/${file}`, import.meta.url))
  /** The event of GitHub's example payload `file`, as a runner describes it. */
  const on = (name: string, file: string, actor = 'octocat') =>
    readEvent({
      GITHUB_EVENT_NAME: name,
      GITHUB_EVENT_PATH: fixture(file),
      GITHUB_REPOSITORY: 'Codertocat/Hello-World',
      GITHUB_ACTOR: actor
    })
  const fork = on('pull_request', 'pull_request-opened-fork.json', 'hubot')
  const dependabot = on('pull_request', 'pull_request-opened.json', 'dependabot[bot]')
  const noSecrets = { prompt: 'Update the docs' }

  async function thrown(values: Record<string, string>, event: unknown): Promise<Error> {
    core.reset()
    Object.assign(core.inputs, values)
    return readSettings(undefined, event as Parameters<typeof readSettings>[1]).then(
      () => {
        throw new Error('expected the inputs to be refused')
      },
      (error: unknown) => error as Error
    )
  }

  it("skips a fork's pull request whose api-key and project-id are empty, saying why and how to guard", async () => {
    const error = await thrown(noSecrets, fork)
    expect(error).toBeInstanceOf(SecretsWithheldError)
    expect(error.message).toBe(
      'api-key and project-id are empty: GitHub gives no secrets to pull requests from forks ' +
        '(pull request #2 comes from hubot/Hello-World), so no docs job was started and this ' +
        'step is skipped. To keep such runs from starting, guard the docs job or step with ' +
        "`if: github.event.pull_request.head.repo.full_name == github.repository && github.actor != 'dependabot[bot]'`."
    )
  })

  it('skips a run Dependabot started whose api-key alone is empty', async () => {
    const error = await thrown({ ...noSecrets, 'project-id': 'proj_1' }, dependabot)
    expect(error).toBeInstanceOf(SecretsWithheldError)
    expect(error.message).toMatch(
      /^api-key is empty: GitHub gives no secrets to runs Dependabot starts \(GITHUB_ACTOR is dependabot\[bot\]\)/
    )
  })

  it('fails as before on a pull request of the repository itself, which has its secrets', async () => {
    const error = await thrown(noSecrets, on('pull_request', 'pull_request-opened.json'))
    expect(error).toBeInstanceOf(InputErrors)
    expect((error as InstanceType<typeof InputErrors>).inputs).toEqual(['api-key', 'project-id'])
  })

  it('fails when another input is wrong too: that is a mistake whatever the secrets', async () => {
    const error = await thrown({ ...noSecrets, timeout: 'soon' }, fork)
    expect(error).toBeInstanceOf(InputErrors)
    expect((error as InstanceType<typeof InputErrors>).inputs).toEqual([
      'api-key',
      'project-id',
      'timeout'
    ])
  })

  it('fails when api-key was given under a wrong name: the empty api-key is a typo there', async () => {
    process.env.INPUT_API_KEY = ''
    try {
      const error = await thrown({ ...noSecrets, 'project-id': 'proj_1' }, fork)
      expect(error).toBeInstanceOf(InputError)
      expect(error.message).toContain('did you mean api-key?')
    } finally {
      delete process.env.INPUT_API_KEY
    }
  })
})
