import { beforeEach, describe, expect, it, jest } from '@jest/globals'
import fc from 'fast-check'
import * as core from '../__fixtures__/core.js'
import { htmlToText } from '../scripts/html-text.js'
import { API_KEYS_PAGE, ApiError, InputError, InputErrors } from '../src/base/errors.js'
import type { Job } from '../src/clients/mintlify/job.js'
import type { Outcome, RunRecord } from '../src/run/state.js'
import { addSecret, clearSecrets } from '../src/base/secrets/redact.js'
import { base64, leakedForms } from '../__fixtures__/secret-forms.js'

jest.unstable_mockModule('@actions/core', () => core)
const { Reporter } = await import('../src/report/sinks/report.js')
const { summaryMarkup } = await import('../src/report/summary.js')

const PR = 'https://github.com/acme/docs/pull/110'
const REPOSITORY = 'https://github.com/acme/docs'

function job(more: Partial<Job> = {}): Job {
  return {
    id: 'job_1',
    status: 'completed',
    model: 'claude-sonnet-4-5',
    prLink: PR,
    createdAt: '2026-11-22T00:00:00.000Z',
    archivedAt: null,
    source: { repository: REPOSITORY, ref: 'mintlify/agent-1' },
    ...more
  }
}

/** The job summary the reporter writes for a run that ended with `outcome`. */
async function summary(
  record: Partial<RunRecord> = {},
  outcome: Outcome = { kind: 'finished', phase: 'completed' }
): Promise<string> {
  await new Reporter().finish({
    job: job(),
    outcome,
    elapsedMs: 65_000,
    failOnNoPr: false,
    ...record
  })
  expect(core.summaries).toHaveLength(1)
  return core.summaries[0] ?? ''
}

/** The value cell of the summary's row `name`. */
function cell(html: string, name: string): string {
  const row = new RegExp(`<th>${name}</th><td>(.*?)</td>`).exec(html)
  expect(row).not.toBeNull()
  return row?.[1] ?? ''
}

beforeEach(() => {
  core.reset()
  clearSecrets()
})

describe('the job summary', () => {
  it('links the docs pull request, named with its repository', async () => {
    const html = await summary()
    expect(cell(html, 'Pull request')).toBe(`<a href="${PR}">acme/docs#110</a>`)
    expect(html).not.toMatch(/>#110</)
  })

  it('names only a pull request address in the strict shape by its repository and number', async () => {
    const link = 'https://github.example.com/acme/docs/pull/7'
    const html = await summary({ job: job({ prLink: link }) })
    expect(cell(html, 'Pull request')).toBe(`<a href="${link}">acme/docs#7</a>`)
  })

  it('never names a pull request by a link with a trailing part', async () => {
    const html = await summary({
      job: job({ prLink: 'https://github.example.com/acme/docs/pull/7/files' })
    })
    expect(cell(html, 'Pull request')).not.toContain('acme/docs#7')
  })

  it('shows a link that is not a pull request page as its address, still a link', async () => {
    const link = 'https://gitlab.example.com/acme/docs/-/merge_requests/3'
    const html = await summary({ job: job({ prLink: link }) })
    expect(cell(html, 'Pull request')).toBe(
      `<a href="${link}">https&#58;//gitlab.example.com/acme/docs/-/merge_requests/3</a>`
    )
  })

  it('links no pull request link that is refused', async () => {
    const html = await summary({
      job: job({ prLink: 'https://user:hunter2@github.com/acme/docs/pull/5' })
    })
    expect(cell(html, 'Pull request')).toBe('—')
    expect(html).not.toContain('hunter2')
  })

  it('links the source repository', async () => {
    const html = await summary()
    expect(cell(html, 'Source repository')).toBe(
      `<a href="${REPOSITORY}">https&#58;//github.com/acme/docs</a>`
    )
  })

  it.each([
    ['javascript:alert(1)', 'javascript&#58;alert&#40;1&#41;'],
    ['git@github.com:acme/docs.git', 'git&#64;&#8203;github.com&#58;acme/docs.git'],
    [
      'https://bot:s3cret@github.com/acme/docs',
      'https&#58;//&#42;&#42;&#42;&#64;&#8203;github.com/acme/docs'
    ],
    ['https://github.com/acme/docs?a=1&b=2', 'https&#58;//github.com/acme/docs?a=1&amp;b=2']
  ])(
    'shows a source repository that is not a safe link (%s) as text',
    async (repository, shown) => {
      const html = await summary({ job: job({ source: { repository, ref: null } }) })
      expect(cell(html, 'Source repository')).toBe(shown)
      expect(html).not.toContain('s3cret')
    }
  )

  it('links the API keys page in a failure message, and escapes the rest of it', async () => {
    const error = new ApiError(
      `The API refused the key (401). Create an admin key on ${API_KEYS_PAGE} and store it ` +
        'in the secret; the server said: <a href="https://evil.example">here</a>',
      { kind: 'http', status: 401 }
    )
    const html = await summary({ job: undefined }, { kind: 'error', error })
    expect(html).toContain(
      `Create an admin key on <a href="${API_KEYS_PAGE}">https&#58;//app.mintlify.com/settings/` +
        'organization/api-keys</a> and store it'
    )
    expect(html).toContain('&lt;a href=&quot;https&#58;//evil.example&quot;&gt;here&lt;/a&gt;')
    expect(html.match(/<a /g)).toHaveLength(1)
  })

  it('leaves a failure message without the page as escaped text', async () => {
    const html = await summary({}, { kind: 'finished', phase: 'failed' })
    expect(html).toContain('<p>Agent job job_1 failed. Open it in the Mintlify dashboard')
    expect(html).not.toContain(API_KEYS_PAGE)
  })

  it('links the API keys page in a note', async () => {
    const html = await summary({}, { kind: 'skipped', reason: `See ${API_KEYS_PAGE}.` })
    expect(html).toContain(`<p>See <a href="${API_KEYS_PAGE}">https&#58;//app.mintlify.com/`)
  })
})

describe('comment-url', () => {
  const COMMENT = 'https://github.com/o/r/pull/1#issuecomment-5'
  const record: RunRecord = {
    job: job(),
    outcome: { kind: 'finished', phase: 'completed' },
    elapsedMs: 1_000,
    failOnNoPr: false
  }

  it('names the status comment last written', async () => {
    const reporter = new Reporter()
    await reporter.finish({ ...record, written: { comment: COMMENT } })
    expect(core.outputs()['comment-url']).toBe(COMMENT)
    expect(core.summaries[0]).toContain(`<a href="${COMMENT}">on the pull request</a>`)
  })

  it('is empty when no comment stands, in the summary too', async () => {
    const reporter = new Reporter()
    await reporter.finish({ ...record, written: {} })
    expect(core.outputs()['comment-url']).toBe('')
    expect(core.summaries[0]).not.toContain(COMMENT)
  })
})

describe('the duration', () => {
  it('is how long the step took', async () => {
    expect(cell(await summary(), 'Duration')).toBe('1m 5s')
  })

  it('after a timeout, has the timeout beside it: the step ends at its last check, before it', async () => {
    const html = await summary(
      { job: job({ status: 'active', prLink: null }), elapsedMs: 4_100 },
      { kind: 'timeout', timeoutMs: 5_000 }
    )
    // Escaped as every cell is, so nothing in it is markdown.
    expect(cell(html, 'Duration')).toBe('4.1s &#40;timeout 5s&#41;')
  })
})

describe('no secret in the outputs or the summary', () => {
  const KEY = 'mint_report_key_0123456789abcdef'
  const ECHOED = base64(`{"authorization":"Bearer ${KEY}"}`)

  /** Every output and the summary of a run whose job answer carried `more`. */
  async function written(more: Partial<Job>): Promise<string> {
    addSecret(KEY)
    await new Reporter().finish({
      job: job(more),
      outcome: { kind: 'finished', phase: 'completed' },
      elapsedMs: 1_000,
      failOnNoPr: false
    })
    return [JSON.stringify(core.outputs()), ...core.summaries].join('\n')
  }

  it('hands on source-repository without the credentials written into its URL', async () => {
    const text = await written({
      source: { repository: 'https://bot:hunter2@github.com/acme/docs', ref: null }
    })
    expect(core.outputs()['source-repository']).toBe('https://***@github.com/acme/docs')
    expect(JSON.parse(core.outputs().job ?? '')).toMatchObject({
      source: { repository: 'https://***@github.com/acme/docs' }
    })
    expect(text).not.toContain('hunter2')
  })

  it('leaves out the key echoed in base64 in any field, in the job output too', async () => {
    const text = await written({
      model: `model ${ECHOED}`,
      source: { repository: `https://github.com/acme/${ECHOED}`, ref: base64(KEY) },
      status: `completed ${encodeURIComponent(KEY)}`
    })
    expect(leakedForms(text, KEY)).toEqual([])
    expect(text).not.toContain(ECHOED)
    expect(core.outputs().model).toMatch(/^model [A-Za-z0-9+/]*\*\*\*/)
    expect(() => JSON.parse(core.outputs().job ?? '') as unknown).not.toThrow()
  })

  it('leaves the key out of a link it hands on and shows, where the check lets it pass', async () => {
    // `safeLink` accepts a plain URL: a secret in its path or query is no syntax it refuses.
    const link = `https://github.com/acme/docs/pull/5?t=${encodeURIComponent(base64(KEY))}`
    const text = await written({ prLink: link })
    expect(leakedForms(text, KEY)).toEqual([])
    expect(core.outputs()['pr-link']).toMatch(
      /^https:\/\/github\.com\/acme\/docs\/pull\/5\?t=\*\*\*/
    )
    expect(cell(core.summaries[0] ?? '', 'Pull request')).toMatch(/^<a href="https:.*\*\*\*.*">/)
  })
})

describe('each warning once a run', () => {
  beforeEach(() => core.reset())

  it('gives a repeated warning once, and no closing note the log already said', async () => {
    const reporter = new Reporter()
    const why =
      'Could not read the state of docs pull request acme/docs#110: GitHub refused (HTTP 404).'
    reporter.warning(`${why} Its state is not known, so this change went to a new docs job.`)
    reporter.warning(`${why} Its state is not known, so this change went to a new docs job.`)
    reporter.info('Job status: active (after 5s).')
    await reporter.finish({
      job: job(),
      outcome: { kind: 'finished', phase: 'completed' },
      elapsedMs: 65_000,
      failOnNoPr: false,
      docs: { state: 'unknown', why }
    })
    expect(core.warning).toHaveBeenCalledTimes(1)
    expect(core.logLines().filter((line) => line.includes(why))).toHaveLength(1)
  })
})

describe('the summary reads as the log does', () => {
  /** Text as a terminal shows it, line by line: spaces folded, blank lines left out. */
  const lines = (text: string) =>
    text
      .split('\n')
      .map((line) => line.replace(/[ \t]+/g, ' ').trim())
      .filter((line) => line !== '')

  it('shows each line of a message on a line, code as <code>, without \\n or backticks (property)', () => {
    const line = fc.string({
      unit: fc.constantFrom(
        'a',
        'Z',
        ' ',
        '`',
        '-',
        '<',
        '&',
        '#',
        '@',
        '*',
        '[',
        ':',
        '\\',
        '|',
        'é'
      ),
      maxLength: 30
    })
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), (given) => {
        const html = summaryMarkup(given.join('\n'), 100_000)
        // No blank line: GitHub ends the HTML block there and renders the rest as markdown.
        expect(html).not.toMatch(/\n[ \t]*\n/)
        expect(html).not.toContain('\\n')
        const shown = given.map((l) => l.replace(/`([^`]+)`/g, '$1'))
        expect(lines(htmlToText(html))).toEqual(lines(shown.join('\n')))
      })
    )
  })

  it('shows the inputs that cannot be used as a list, with the input names in code', async () => {
    const error = new InputErrors([
      new InputError('timeout', '"soon" is not a duration'),
      new InputError('wait', 'needs the `true` or `false` value')
    ])
    const html = await summary({ job: undefined }, { kind: 'error', error })
    expect(html).toContain(
      '<p>2 inputs cannot be used&#58;</p>\n<ul>\n' +
        '<li>Input &quot;timeout&quot;&#58; &quot;soon&quot; is not a duration</li>\n' +
        '<li>Input &quot;wait&quot;&#58; needs the <code>true</code> or <code>false</code> value</li>\n' +
        '</ul>'
    )
    expect(html).not.toContain('\\n')
    expect(html).not.toContain('&#96;')
  })

  it('lists every warning of the run once, with its reason', async () => {
    const reporter = new Reporter()
    reporter.warning('The api-key does not start with "mint_".')
    reporter.warning('"promt" (INPUT_PROMT) is not an input of this action; did you mean prompt?')
    reporter.warning('The api-key does not start with "mint_".')
    await reporter.finish({
      job: job(),
      outcome: { kind: 'finished', phase: 'archived' },
      elapsedMs: 1_000,
      failOnNoPr: false
    })
    const html = core.summaries[0] ?? ''
    const warnings = html.slice(html.indexOf('<h3>Warnings</h3>'))
    expect(warnings.match(/<p>⚠️ /g)).toHaveLength(3)
    expect(warnings).toContain('<p>⚠️ The api-key does not start with &quot;mint_&quot;.</p>')
    expect(warnings).toContain('<p>⚠️ &quot;promt&quot; &#40;INPUT_PROMT&#41; is not an input')
    // The ending's own warning too: the archived job.
    expect(warnings).toContain('<p>⚠️ Agent job job_1 was archived before it finished.')
    expect(html.split('does not start with')).toHaveLength(2)
  })

  it('has no Warnings heading in a run without warnings', async () => {
    expect(await summary()).not.toContain('Warnings')
  })

  it('gives a skip that the workflow can prevent as a notice, said once in the log', async () => {
    const reason = 'api-key is empty: GitHub gives no secrets to pull requests from forks.'
    const reporter = new Reporter()
    await reporter.finish({
      job: undefined,
      outcome: { kind: 'skipped', reason, notice: true },
      elapsedMs: 10,
      failOnNoPr: false
    })
    expect(core.notice).toHaveBeenCalledWith(reason, { title: 'Mintlify agent' })
    expect(core.logLines().filter((line) => line === reason)).toHaveLength(1)
    expect(core.outputs().skipped).toBe('true')
    expect(core.failures()).toEqual([])
  })
})

describe('what the run did on GitHub, in the log', () => {
  const record: RunRecord = {
    job: job(),
    outcome: { kind: 'finished', phase: 'completed' },
    elapsedMs: 1_000,
    failOnNoPr: false
  }

  it('says each line the sinks handed back once, in order, before the run’s own notice', async () => {
    const did = [
      'Set the docs check "Mintlify docs (proj)" on commit ec26c3e to success: Docs pull request ready',
      'Created the status comment on pull request #2: https://github.com/o/r/pull/2#issuecomment-1'
    ]
    await new Reporter().finish({ ...record, did })
    const lines = core.info.mock.calls.map(([m]) => String(m))
    expect(lines.filter((line) => did.includes(line))).toEqual(did)
    const notice = core.notice.mock.invocationCallOrder[0] ?? 0
    const last = core.info.mock.invocationCallOrder[lines.indexOf(did[1] ?? '')] ?? Infinity
    expect(last).toBeLessThan(notice)
  })

  it('cannot start a workflow command from a line a sink handed back', async () => {
    await new Reporter().finish({ ...record, did: ['::error::forged'] })
    expect(core.info.mock.calls.map(([m]) => String(m))).not.toContain('::error::forged')
  })
})

describe('the failure', () => {
  it('is one error annotation titled like the warnings, cleaned and redacted', () => {
    addSecret('mint_report_fail_key_1')
    new Reporter().fail('Agent job job_1 failed with mint_report_fail_key_1.\n::warning::x')
    expect(core.error.mock.calls).toHaveLength(1)
    const [message, properties] = core.error.mock.calls[0] ?? []
    expect(properties).toEqual({ title: 'Mintlify agent' })
    expect(String(message)).toContain('Agent job job_1 failed with ***.')
    expect(String(message)).not.toMatch(/^::/m)
  })
})
