// The one report and its renderers: each fact once, as every table that shows it gives it, and
// each surface (the status comment, the job summary, the docs check, the outputs, the log, the
// reaction) rendered from the same value.
import { beforeEach, describe, expect, it, jest } from '@jest/globals'
import * as core from '../__fixtures__/core.js'
import { agentsPull } from '../__fixtures__/docs-pull.js'
import { readMarker } from '../src/clients/github/companion.js'
import type { Job } from '../src/clients/mintlify/job.js'
import { checkStatus } from '../src/report/check.js'
import { commentOf } from '../src/report/comment.js'
import { reportOf, type Report, type Reported, type Table } from '../src/report/report.js'
import { summaryBlocks } from '../src/report/summary.js'
import { newRunState } from '../src/run/state.js'
import type { Within } from '../src/base/runtime.js'

jest.unstable_mockModule('@actions/core', () => core)
const { Reporter } = await import('../src/report/sinks/report.js')
const { finishAll, surface } = await import('../src/report/sinks/sink.js')

const PR = 'https://github.com/acme/docs/pull/110'
const RUN = 'https://github.com/acme/widgets/actions/runs/7'
const COMMENT = 'https://github.com/acme/widgets/pull/2#issuecomment-9'
const COMMIT = 'https://github.com/acme/widgets/commit/' + 'c'.repeat(40)
const SITE = 'https://acme-docs-preview.mintlify.app/'

const job: Job = {
  id: 'job_1',
  status: 'completed',
  model: 'claude-sonnet-4-5',
  prLink: PR,
  createdAt: '2026-11-22T00:00:00.000Z',
  archivedAt: null,
  source: { repository: 'https://github.com/acme/docs', ref: 'mintlify/agent-1' }
}

/** A run that saw its job open a docs pull request, with everything the tables can show. */
const ended = {
  projectId: 'proj_1',
  job,
  outcome: { kind: 'finished', phase: 'completed' },
  elapsedMs: 65_000,
  failOnNoPr: false,
  docs: agentsPull({ owner: 'acme', repo: 'docs', number: 110 }),
  docsChecks: {
    state: 'pending',
    failing: [],
    running: [{ name: 'vale', url: 'https://github.com/acme/docs/runs/1' }]
  },
  preview: { state: 'ready', url: SITE, branch: 'mintlify/agent-1' },
  told: 'a'.repeat(40),
  written: { comment: COMMENT, check: COMMIT },
  notes: ['Agent job job_0 recorded on pull request #2 failed, so a new job was started.'],
  did: ['Set the docs check "Mintlify docs (proj_1)" on commit ccccccc to success: ready']
} satisfies Reported

/** The rows `table` shows of a report: label → markup, in order. */
function rows(report: Report, table: Table): [string, string][] {
  return report.facts.flatMap(({ on, markup }) => {
    const label = on[table]
    return label ? [[label, markup] as [string, string]] : []
  })
}

beforeEach(() => core.reset())

describe('each fact, on the tables that show it', () => {
  it.each<[string, Partial<Reported>, string | undefined, string | undefined, string]>([
    ['the job', {}, 'Job ID', 'Agent job', '<code>job_1</code>'],
    ['its status, as given', {}, 'Status', undefined, 'completed'],
    ['its status, when known', {}, undefined, 'Status', '<code>completed</code>'],
    ['its model', {}, 'Model', undefined, 'claude-sonnet-4-5'],
    [
      'the docs pull request',
      {},
      'Pull request',
      'Docs pull request',
      `<a href="${PR}">acme/docs#110</a>`
    ],
    [
      'what the job did without one',
      {
        job: { ...job, prLink: null },
        docs: undefined,
        docsChecks: undefined,
        pushes: { known: true, repo: { owner: 'acme', repo: 'docs' }, branch: 'main', commits: [] }
      },
      'Outcome',
      'Outcome',
      'No docs change needed: no pull request, and the agent pushed nothing'
    ],
    [
      'the docs checks',
      {},
      'Docs checks',
      'Docs checks',
      '⏳ Still running: <a href="https://github.com/acme/docs/runs/1">vale</a>'
    ],
    ['the preview', {}, 'Preview', 'Preview', `<a href="${SITE}">`],
    [
      'the docs repository',
      {},
      'Source repository',
      'Docs repository',
      '<a href="https://github.com/acme/docs">'
    ],
    ['the branch', {}, 'Source ref', undefined, '<code>mintlify/agent-1</code>'],
    ['when the job was created', {}, 'Created at', undefined, '2026-11-22T00&#58;00&#58;00.000Z'],
    [
      'the status comment',
      {},
      'Status comment',
      undefined,
      `<a href="${COMMENT}">on the pull request</a>`
    ],
    ['the docs check', {}, 'Docs check', undefined, `<a href="${COMMIT}">on the commit</a>`],
    [
      'the workflow run',
      { trigger: undefined },
      undefined,
      'Workflow run',
      `<a href="${RUN}">this run</a>`
    ],
    ['how long it took', {}, 'Duration', 'Duration', '1m 5s']
  ])('%s', (_name, more, summary, comment, markup) => {
    const report = reportOf({ ...ended, ...more }, RUN)
    for (const [table, label] of [
      ['summary', summary],
      ['comment', comment]
    ] as const) {
      const row = rows(report, table).find(([name]) => name === label)
      expect(label === undefined || row?.[1].startsWith(markup) === true).toBe(true)
    }
  })

  it('leaves out what the run does not have, and the duration of a job still running from the comment', () => {
    const report = reportOf({
      ...ended,
      outcome: { kind: 'running' },
      preview: undefined,
      docsChecks: undefined
    })
    expect(rows(report, 'comment').map(([label]) => label)).toEqual([
      'Agent job',
      'Status',
      'Docs pull request',
      'Docs repository',
      'Workflow run'
    ])
    expect(rows(report, 'summary').map(([label]) => label)).not.toContain('Preview')
  })
})

describe('every surface renders the same report', () => {
  const report = reportOf(ended, RUN)

  it('the status comment: its marker, heading, facts in order, and the run’s notes', () => {
    const body = commentOf(report, false)
    expect(readMarker(body)).toMatchObject({
      projectId: 'proj_1',
      jobId: 'job_1',
      sha: 'a'.repeat(40)
    })
    expect(body).toContain(`### ${report.comment}`)
    const shown = rows(report, 'comment').map(
      ([label, markup]) => `<tr><th>${label}</th><td>${markup}</td></tr>`
    )
    expect(body).toContain(`<table>${shown.join('')}</table>`)
    expect(body).toContain('failed, so a new job was started.')
  })

  it('the job summary: the headline, the facts in order, the notes and the warnings', () => {
    const html = summaryBlocks(report, { warned: ['A warning.'] }, true).join('\n')
    expect(html).toContain(`<p>${report.icon} <strong>${report.headline}</strong></p>`)
    const shown = rows(report, 'summary').map(
      ([label, markup]) => `<tr><th>${label}</th><td>${markup}</td></tr>`
    )
    expect(html).toContain(`<table>${shown.join('')}</table>`)
    expect(html).toContain('failed, so a new job was started.</p>')
    expect(html).toContain('<h3>Warnings</h3>\n<p>⚠️ A warning.</p>')
    expect(summaryBlocks(report, { warned: [] }, false).join('\n')).not.toContain('<table>')
  })

  it('the docs check: the report’s state and words, linking the ready docs pull request', () => {
    expect(checkStatus(ended, RUN, 'https://github.com')).toEqual({
      state: report.check.state,
      context: 'Mintlify docs (proj_1)',
      description: report.check.description,
      targetUrl: PR
    })
  })

  it('the outputs and the log: what the Actions report sets and says', async () => {
    await new Reporter().finish(ended)
    expect(core.outputs()).toEqual(report.outputs)
    const log = core.logLines().join('\n')
    const said = report.log.filter((line) => line.as === 'info' || line.as === 'note')
    expect(said.map((line) => line.text)).toEqual([...ended.did, ...report.notes])
    for (const line of said) expect(log).toContain(line.text)
    expect(core.notice).toHaveBeenCalledWith(report.notice ?? '', { title: 'Mintlify agent' })
  })

  it('the reaction to a /docs command', () => {
    expect(report.reaction).toBe('rocket')
    expect(reportOf({ ...ended, outcome: { kind: 'finished', phase: 'failed' } }).reaction).toBe(
      'confused'
    )
    expect(reportOf({ ...ended, outcome: { kind: 'dry-run' } }).reaction).toBeUndefined()
  })
})

describe('the Actions report, a sink said last', () => {
  it('sees where the other sinks wrote and what they did, and alone says whether the step fails', async () => {
    const state = {
      ...newRunState(0),
      ...ended,
      outcome: { kind: 'finished', phase: 'failed' } as const
    }
    const shown: string[] = []
    const within: Within = (call) => call(new AbortController().signal)
    const failed = await finishAll(
      [
        new Reporter(),
        surface((report) => void shown.push(report.outputs['docs-comment-url'] ?? '')),
        {
          finished: async () => ({ written: 'docs-comment', url: PR, did: ['Wrote the backlink.'] })
        },
        { finished: async () => Promise.reject(new Error('a sink that broke')) }
      ],
      state,
      within
    )
    expect(failed).toBe(true)
    expect(shown).toEqual([PR])
    expect(core.outputs()['docs-comment-url']).toBe(PR)
    expect(core.logLines()).toContain('Wrote the backlink.')
    expect(core.failures()).toEqual([expect.stringContaining('Agent job job_1 failed')])
  })
})
